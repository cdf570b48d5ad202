import type { Kysely } from 'kysely';
import { callerRecord } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import type { SignedInPerson } from '../../domain/delegation';
import { countByKind } from '../../domain/drift/comparers';
import { AlreadyUnderWay, NotFound, ValidationFailed } from '../../domain/errors';
import type {
  CatalogTemplate,
  Job,
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
import type { JobCatalog } from '../jobs/registry';
import type { EventBus } from '../webhooks/events';
import type { DriftApplyData } from './driftApplyJob';
import { askOwners, compareAll, teamDifferences } from './driftComparison';
import { chosenProblems, type DriftGrant, queueDriftJobs, sameChoice } from './driftQueue';

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
  /** The registered job types: a job's wire form. */
  jobTypes: JobCatalog;
  now?: () => Date;
}

/**
 * Drift (docs/guides/drift.md): how teams stand against their template's current version, and bringing them
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
    const differences = await teamDifferences(this.deps, team, stored.template);
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
    const compared = await compareAll(
      this.deps,
      made,
      stored.template,
      stored.version,
      this.now().toISOString(),
    );
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
      const details = chosenProblems(await teamDifferences(this.deps, team, stored.template), chosen);
      if (details.length > 0)
        throw new ValidationFailed('The differences chosen cannot be applied.', details);
    }
    const grant = await this.labelGrant(stored.template, person, caller);
    const request = { caller, template: stored.template, chosen, grant, now: this.now() };
    const [queued] = await queueDriftJobs(this.deps, request, [{ teamId, displayName: team.displayName }]);
    const { job, inserted } = queued!;
    // A job under way for the team answers a request for the same differences; it brings in what
    // it found when it started, so other differences wait for it to end.
    if (!inserted && !sameChoice((job.data as Partial<DriftApplyData>).chosen, chosen))
      throw new AlreadyUnderWay(
        `"${team.displayName}" is being brought in line already (job ${job.id}); ask again once it ends.`,
      );
    return this.deps.jobTypes.wire(job, await this.deps.jobs.isPaused());
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
        const compared = await compareAll(
          this.deps,
          page,
          stored.template,
          stored.version,
          this.now().toISOString(),
        );
        for (const { made, differences } of compared) {
          if (!differences || differences.length === 0) continue;
          const applicable = differences.filter((d) => d.applicable);
          const outcome = applicable.length === 0 ? 'nothing' : ask ? 'askOwners' : 'job';
          result.push({ teamId: made.teamId, displayName: made.displayName, differences, outcome });
          if (!dryRun && outcome === 'askOwners') {
            const asked = { made, template: stored.template, version: stored.version };
            await askOwners(this.deps, asked, applicable, this.now());
          }
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
      const request = { caller, template: stored.template, chosen: undefined, grant, now: this.now() };
      const jobs = await queueDriftJobs(this.deps, request, fresh);
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

  /** The caller's grant for a template's label, kept with each job (the label's own path). */
  private async labelGrant(
    template: CatalogTemplate,
    person: SignedInPerson | undefined,
    caller: Caller,
  ): Promise<DriftGrant> {
    if (!template.templateConfiguration.sensitivityLabelId) return undefined;
    return this.deps.labels.prepare(person, caller.name ?? 'the caller', 'caller');
  }
}
