import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { callerRecord } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import type { SignedInPerson } from '../../domain/delegation';
import { comparersFor, compareTeam, countByKind } from '../../domain/drift/comparers';
import { AlreadyUnderWay, NotFound, ValidationFailed } from '../../domain/errors';
import type { StoredJob } from '../../domain/jobs';
import { counted } from '../../lib/counted';
import type {
  CatalogTemplate,
  DriftDifference,
  Job,
  Team,
  TeamDrift,
  TemplateDriftApplyResult,
  TemplateDriftTeam,
} from '../../contract';
import type { DirectoryReader } from '../../domain/directory';
import type { TeamsPlatform } from '../../platform/port';
import type { TeamTemplate, TeamTemplateRepository } from '../../store/drift/teamTemplates';
import type { JobRepository } from '../../store/jobs/jobs';
import type { SensitivityLabelRepository } from '../../store/labels/sensitivityLabels';
import type { Database } from '../../store/schema';
import { TeamAccess, requireActive } from '../access/teamAccess';
import type { AuditLog } from '../audit/audit';
import type { CatalogService } from '../catalog/catalog';
import type { SensitivityLabels } from '../labels/sensitivityLabels';
import { wireJob } from '../jobs/registry';
import type { EventBus, StewardEvent } from '../webhooks/events';
import type { DriftApplyData } from './driftApplyJob';
import { readTeamState } from './teamState';

/** Teams compared at once when a template's teams are read (each comparison is a few platform reads). */
const COMPARE_CONCURRENCY = 4;
/** Teams a template-wide apply queues in one transaction. */
const QUEUE_BATCH = 100;

export interface DriftDeps {
  db: Kysely<Database>;
  teams: TeamsPlatform;
  /** The directory, for labels' names. */
  directory: DirectoryReader;
  catalog: CatalogService;
  teamTemplates: TeamTemplateRepository;
  labelStore: SensitivityLabelRepository;
  labels: SensitivityLabels;
  jobs: JobRepository;
  events: EventBus;
  audit: AuditLog;
  onQueued: () => void;
  now?: () => Date;
}

/**
 * Drift (issue 28): how teams stand against their template's current version, and bringing them
 * in line by jobs that only add. Who may: a team's owners for their team, governance managers for
 * any team and for a template's teams.
 */
export class DriftService {
  private readonly access: TeamAccess;
  private readonly now: () => Date;

  constructor(private readonly deps: DriftDeps) {
    this.access = new TeamAccess(deps.teams);
    this.now = deps.now ?? (() => new Date());
  }

  /** One team's differences from its template's current version: its owners, or managers. */
  async teamDrift(caller: Caller, teamId: string): Promise<TeamDrift> {
    const team = await this.access.require(teamId);
    await this.access.requireRelation(caller, teamId, 'owner');
    const made = await this.madeFrom(teamId);
    const stored = await this.deps.catalog.stored(made.templateId);
    const differences = await this.differences(team, stored.template);
    await this.deps.teamTemplates.noteDrift(teamId, {
      version: stored.version,
      count: differences.length,
      checkedAt: this.now().toISOString(),
    });
    return {
      teamId,
      displayName: team.displayName,
      templateId: made.templateId,
      templateName: stored.template.templateConfiguration.name,
      madeFromVersion: made.version,
      currentVersion: stored.version,
      differences,
    };
  }

  /**
   * A page of the teams made from a template, each compared now with its current version (`after`:
   * the last team id of the page before). Each comparison is remembered for the lifecycle report.
   */
  async templateDrift(
    templateId: string,
    page: { top: number; after?: string },
  ): Promise<{ teams: TemplateDriftTeam[]; total: number; last?: string }> {
    const stored = await this.deps.catalog.stored(templateId);
    const [made, total] = await Promise.all([
      this.deps.teamTemplates.ofTemplate(templateId, page.top, page.after),
      this.deps.teamTemplates.countOf(templateId),
    ]);
    const compared = await this.compareAll(made, stored.template, stored.version);
    const teams = compared.map(({ made: m, differences }) => ({
      teamId: m.teamId,
      displayName: m.displayName,
      madeFromVersion: m.version,
      differences: differences?.length ?? 0,
      applicable: differences?.filter((d) => d.applicable).length ?? 0,
      kinds: countByKind(differences ?? []),
    }));
    return { teams, total, last: made.length === page.top ? made.at(-1)?.teamId : undefined };
  }

  /** Queues the job that applies one team's differences (all applicable, or those chosen). */
  async applyTeam(
    caller: Caller,
    teamId: string,
    chosen: readonly string[] | undefined,
    person: SignedInPerson | undefined,
  ): Promise<Job> {
    const team = await this.access.require(teamId);
    await this.access.requireRelation(caller, teamId, 'owner');
    requireActive(team);
    const made = await this.madeFrom(teamId);
    const stored = await this.deps.catalog.stored(made.templateId);
    if (chosen) {
      const differences = await this.differences(team, stored.template);
      const known = new Set(differences.map((d) => d.id));
      const unknown = chosen.filter((id) => !known.has(id));
      const refused = differences.filter((d) => chosen.includes(d.id) && !d.applicable);
      const details = [
        ...unknown.map((id) => ({
          code: 'unknownDifference' as const,
          target: 'differences',
          message: `The team has no difference "${id}" from its template (any more).`,
        })),
        ...refused.map((d) => ({
          code: 'notApplicable' as const,
          target: 'differences',
          message: `"${d.name}" cannot be applied: ${d.reason ?? 'Steward cannot apply it.'}`,
        })),
      ];
      if (details.length > 0)
        throw new ValidationFailed('The differences chosen cannot be applied.', details);
    }
    const grant = await this.labelGrant(stored.template, person, caller);
    const [queued] = await this.queue(
      caller,
      stored.template,
      [{ teamId, displayName: team.displayName }],
      chosen,
      grant,
    );
    const { job, inserted } = queued!;
    // A job under way for the team answers a request for the same differences; it brings in what
    // it found when it started, so other differences wait for it to end.
    if (!inserted && !sameChoice((job.data as Partial<DriftApplyData>).chosen, chosen))
      throw new AlreadyUnderWay(
        `"${team.displayName}" is being brought in line already (job ${job.id}); ask again once it ends.`,
      );
    return wireJob(job, await this.deps.jobs.isPaused());
  }

  /**
   * A template's drifting teams brought in line: a preview (`dryRun`: each team compared now, no job),
   * or one job per drifting team, or, when the template says so, a card to each team's owners
   * first. Teams are drifting when made from (or last brought in line with) an older version, or
   * when their last comparison found differences; a team with a drift job under way is not queued again.
   */
  async applyTemplate(
    caller: Caller,
    templateId: string,
    dryRun: boolean,
    person: SignedInPerson | undefined,
  ): Promise<TemplateDriftApplyResult> {
    const stored = await this.deps.catalog.stored(templateId);
    const ask = stored.template.templateConfiguration.askOwnersBeforeApplying;
    const result: TemplateDriftApplyResult['teams'] = [];
    const grant = dryRun || ask ? undefined : await this.labelGrant(stored.template, person, caller);
    let after: string | undefined;
    for (;;) {
      const page = await this.deps.teamTemplates.ofTemplate(templateId, QUEUE_BATCH, after);
      if (page.length === 0) break;
      after = page.at(-1)!.teamId;
      if (dryRun || ask) {
        const compared = await this.compareAll(page, stored.template, stored.version);
        for (const { made, differences } of compared) {
          if (!differences || differences.length === 0) continue;
          const applicable = differences.filter((d) => d.applicable);
          const outcome = applicable.length === 0 ? 'nothing' : ask ? 'askOwners' : 'job';
          result.push({ teamId: made.teamId, displayName: made.displayName, differences, outcome });
          if (!dryRun && outcome === 'askOwners')
            await this.askOwners(made, stored.template, stored.version, applicable);
        }
        continue;
      }
      const drifting = page.filter(
        (m) => m.version === null || m.version < stored.version || (m.drift?.count ?? 0) > 0,
      );
      const open = await this.deps.teamTemplates.openJobs(drifting.map((m) => m.teamId));
      for (const m of drifting) {
        const jobId = open.get(m.teamId);
        if (jobId)
          result.push({
            teamId: m.teamId,
            displayName: m.displayName,
            differences: [],
            outcome: 'job',
            jobId,
          });
      }
      const fresh = drifting.filter((m) => !open.has(m.teamId));
      const jobs = await this.queue(caller, stored.template, fresh, undefined, grant);
      for (const [i, m] of fresh.entries())
        result.push({
          teamId: m.teamId,
          displayName: m.displayName,
          differences: [],
          outcome: 'job',
          jobId: jobs[i]!.job.id,
        });
    }
    return { dryRun, teams: result };
  }

  /** An owner's answer to the card: `add` queues the job, `notNow` is recorded. */
  async answer(caller: Caller, teamId: string, answer: 'add' | 'notNow'): Promise<Job | undefined> {
    const team = await this.access.require(teamId);
    await this.access.requireRelation(caller, teamId, 'owner');
    const made = await this.madeFrom(teamId);
    const now = this.now();
    const job = answer === 'add' ? await this.applyTeam(caller, teamId, undefined, undefined) : undefined;
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.teamTemplates.answered(teamId, answer, caller.id, now.toISOString(), trx);
      await this.deps.audit.record(
        trx,
        callerRecord(caller, {
          trail: 'teams',
          action: answer === 'add' ? 'drift_owners_accepted' : 'drift_owners_declined',
          target: { type: 'team', id: teamId, displayName: team.displayName },
          details: { templateId: made.templateId, ...(job ? { jobId: job.id } : {}) },
        }),
        now,
      );
    });
    return job;
  }

  /** The template a team was made from; 404 for a team Steward did not make from one. */
  private async madeFrom(teamId: string): Promise<TeamTemplate> {
    const made = await this.deps.teamTemplates.find(teamId);
    if (!made) throw new NotFound(`Team "${teamId}" was not made from a template of the catalog.`);
    return made;
  }

  private async differences(team: Team, template: CatalogTemplate): Promise<DriftDifference[]> {
    const { comparers, reads } = comparersFor(template);
    const state = await readTeamState(
      { teams: this.deps.teams, labels: this.deps.labelStore, directory: this.deps.directory },
      team,
      template,
      reads,
    );
    return compareTeam(template, state, comparers);
  }

  /** Compares each team (a few at a time); a team gone from the platform has no differences listed. */
  private async compareAll(
    made: readonly TeamTemplate[],
    template: CatalogTemplate,
    version: number,
  ): Promise<Array<{ made: TeamTemplate; differences?: DriftDifference[] }>> {
    const out: Array<{ made: TeamTemplate; differences?: DriftDifference[] }> = made.map((m) => ({
      made: m,
    }));
    let next = 0;
    const checkedAt = this.now().toISOString();
    const worker = async () => {
      while (next < out.length) {
        const entry = out[next++]!;
        const team = await this.deps.teams.getTeam(entry.made.teamId);
        if (!team) continue;
        entry.differences = await this.differences(team, template);
        await this.deps.teamTemplates.noteDrift(entry.made.teamId, {
          version,
          count: entry.differences.length,
          checkedAt,
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(COMPARE_CONCURRENCY, out.length) }, worker));
    return out;
  }

  /** The caller's grant for a template's label, kept with each job (the label's own path). */
  private async labelGrant(template: CatalogTemplate, person: SignedInPerson | undefined, caller: Caller) {
    if (!template.templateConfiguration.sensitivityLabelId) return undefined;
    return this.deps.labels.prepare(person, caller.name ?? 'the caller', 'caller');
  }

  /**
   * One job per team, queued with its audit record, in batches; a team with a drift job pending
   * already gets none (the database decides, `insertOncePerTeam`): that job is returned, not inserted.
   */
  private async queue(
    caller: Caller,
    template: CatalogTemplate,
    teams: ReadonlyArray<{ teamId: string; displayName: string }>,
    chosen: readonly string[] | undefined,
    grant: Awaited<ReturnType<DriftService['labelGrant']>>,
  ): Promise<Array<{ job: StoredJob; inserted: boolean }>> {
    if (teams.length === 0) return [];
    const now = this.now();
    const templateId = template.templateConfiguration.id!;
    const requester = { id: caller.id, displayName: caller.name ?? caller.id };
    const jobs = await this.deps.db.transaction().execute(async (trx) => {
      const made: Array<{ job: StoredJob; inserted: boolean }> = [];
      // In the teams' order (ids, as pages come), so two applies at once wait on the same row first.
      for (const team of teams) {
        const data: DriftApplyData = {
          team: { id: team.teamId, displayName: team.displayName },
          template: { id: templateId, name: template.templateConfiguration.name },
          requester,
          ...(chosen ? { chosen: [...chosen] } : {}),
        };
        const id = randomUUID();
        const line = `Bringing "${team.displayName}" in line with "${template.templateConfiguration.name}" (${
          chosen ? counted(chosen.length, 'chosen difference') : 'every difference Steward can apply'
        }), requested by ${requester.displayName}.`;
        const queued = await this.deps.jobs.insertOncePerTeam(
          {
            id,
            type: 'TeamDriftApply',
            queued: true,
            data,
            log: grant ? [line, grant.line] : [line],
            requesterId: caller.id,
            teamId: team.teamId,
            templateId,
          },
          now,
          trx,
        );
        made.push(queued);
        if (!queued.inserted) continue;
        await grant?.keep?.(trx, id);
        await this.deps.audit.record(
          trx,
          callerRecord(caller, {
            trail: 'teams',
            action: 'drift_apply_requested',
            target: { type: 'team', id: team.teamId, displayName: team.displayName },
            details: { jobId: id, templateId, ...(chosen ? { chosen: [...chosen] } : {}) },
          }),
          now,
        );
      }
      return made;
    });
    if (jobs.some((j) => j.inserted)) this.deps.onQueued();
    return jobs;
  }

  /** Asks a team's owners, through the bot's card, whether to add what the template now has. */
  private async askOwners(
    made: TeamTemplate,
    template: CatalogTemplate,
    version: number,
    applicable: readonly DriftDifference[],
  ): Promise<void> {
    // Asked about this version already (answered or not): the owners are asked again at the next one.
    if (made.owners?.version === version) return;
    const owners = (await this.deps.teams.listMembers(made.teamId)).filter((m) => m.roles.includes('owner'));
    const now = this.now();
    const events: StewardEvent[] = await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.teamTemplates.asked(made.teamId, version, trx);
      return [
        await this.deps.events.record(
          trx,
          'team_drift_owners_asked',
          {
            team: { id: made.teamId, displayName: made.displayName },
            template: {
              id: template.templateConfiguration.id,
              name: template.templateConfiguration.name,
              version,
            },
            owners: owners.map((o) => ({ id: o.userId, displayName: o.displayName })),
            differences: applicable.map((d) => ({ id: d.id, kind: d.kind, name: d.name })),
          },
          now,
        ),
      ];
    });
    this.deps.events.publish(events);
  }
}

/** Whether two requests chose the same differences (none chosen: every one Steward can apply). */
function sameChoice(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}
