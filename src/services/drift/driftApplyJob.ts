import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import type { AuditEntry } from '../../domain/audit';
import { comparersFor, compareTeam, channelKey } from '../../domain/drift/comparers';
import { JobCannotRun } from '../../domain/errors';
import type { StoredJob } from '../../domain/jobs';
import { counted } from '../../lib/counted';
import { DriftDifference } from '../../contract';
import { TemplateRepository } from '../../store/catalog/templates';
import { TeamTemplateRepository } from '../../store/drift/teamTemplates';
import { SensitivityLabelRepository } from '../../store/labels/sensitivityLabels';
import type { Database } from '../../store/schema';
import type { EventBus, StewardEvent } from '../webhooks/events';
import { type JobHandler, type JobRun, jobType, type StepName } from '../jobs/jobType';
import type { TeamsPlatform } from '../../platform/port';
import type { SensitivityLabels } from '../labels/sensitivityLabels';
import { teamRecord } from '../audit/teamRecord';
import { DRIFT_APPLIERS } from './appliers';
import { readTeamState } from './teamState';

const Named = z.looseObject({ id: z.string(), displayName: z.string() });

/** What a drift job applies: to which team, from which template, for whom; chosen differences or all. */
export const DriftApplyData = z.looseObject({
  team: Named,
  template: z.looseObject({ id: z.string(), name: z.string() }),
  requester: Named,
  /** The ids of the differences chosen; every applicable one when absent. */
  chosen: z.array(z.string()).optional(),
  /** What the compare step found to apply, against which version (set by the job). */
  version: z.number().int().optional(),
  pending: z.array(DriftDifference).optional(),
  /** What the apply step did, and how many differences the team still has. */
  applied: z.array(DriftDifference).optional(),
  remaining: z.number().int().optional(),
});
export type DriftApplyData = z.output<typeof DriftApplyData>;

const DRIFT_STEPS = [
  { name: 'compare', title: 'Compare the team with its template', weight: 20 },
  { name: 'apply', title: 'Add what the template asks for', weight: 70 },
  { name: 'finish', title: 'Finish', weight: 10 },
] as const;
type DriftStep = StepName<typeof DRIFT_STEPS>;

/** What a drift apply's handler needs. */
export interface DriftApplyJobDeps {
  db: Kysely<Database>;
  teams: TeamsPlatform;
  events: EventBus;
  /** Sensitivity labels, put on with a person's delegated grant. */
  labels: SensitivityLabels;
}

/**
 * Brings one team in line with its template's current version, additively: it creates the
 * channels and tabs the team lacks, adds the permanent owners and members, puts the label on with
 * the grant the job carries. Each step compares again before it acts, so a job run twice (a crash,
 * a retry, a second request) neither duplicates a channel nor a tab.
 */
class DriftApplyHandler implements JobHandler<DriftApplyData, DriftStep> {
  readonly trail = 'teams';
  private readonly templates: TemplateRepository;
  private readonly labelStore: SensitivityLabelRepository;

  constructor(private readonly deps: DriftApplyJobDeps) {
    this.templates = new TemplateRepository(deps.db);
    this.labelStore = new SensitivityLabelRepository(deps.db);
  }

  async run(run: JobRun<DriftApplyData, DriftStep>): Promise<void> {
    // What the compare step read, kept for the apply step of the same run: a run that starts at the
    // apply step (after a crash, a park) reads the team again instead.
    let compared: Awaited<ReturnType<DriftApplyHandler['compare']>> | undefined;
    await run.step('compare', async () => {
      compared = await this.compare(run.data);
      const { differences, version } = compared;
      const pending = differences.filter(
        (d) => d.applicable && (!run.data.chosen || run.data.chosen.includes(d.id)),
      );
      return {
        data: { ...run.data, version, pending },
        log: [
          `"${run.data.team.displayName}" differs from version ${version} of "${run.data.template.name}" in ${counted(differences.length, 'way')}; ${counted(pending.length, 'difference')} to apply.`,
        ],
      };
    });

    await run.step('apply', async () => {
      const pending = run.data.pending ?? [];
      if (pending.length === 0) return { skipped: true, data: { ...run.data, applied: [], remaining: 0 } };
      // Compared again unless this run just did: a run after a crash finds done what an earlier
      // run did, and does not redo it.
      const { differences, team, template, state } = compared ?? (await this.compare(run.data));
      const wanted = new Set(pending.map((d) => d.id));
      const channelIds = new Map(state.channels.map((c) => [channelKey(c.displayName), c.id]));
      const ctx = {
        teams: this.deps.teams,
        team: { id: team.id, displayName: team.displayName },
        template,
        state,
        channelIds,
        requestedAt: run.job.createdAt,
        operation: run.operation,
        applyLabel: (labelId: string) =>
          this.deps.labels.applyForJob({
            id: run.job.id,
            team: { id: team.id, displayName: team.displayName },
            templateId: run.data.template.id,
            labelId,
          }),
      };
      const log: string[] = [];
      const applied: DriftDifference[] = [];
      for (const difference of differences) {
        if (!difference.applicable || !wanted.has(difference.id)) continue;
        log.push(await DRIFT_APPLIERS[difference.kind](ctx, difference));
        applied.push(difference);
      }
      const remaining = differences.length - applied.length;
      return { data: { ...run.data, applied, remaining }, log };
    });
  }

  /** The team's differences from its template's current version, read now. */
  private async compare(data: DriftApplyData) {
    const stored = await this.templates.get(data.template.id);
    if (!stored) throw new JobCannotRun(`The template "${data.template.name}" no longer exists.`);
    const team = await this.deps.teams.getTeam(data.team.id);
    if (!team) throw new JobCannotRun(`The team "${data.team.displayName}" no longer exists.`);
    if (team.isArchived) throw new JobCannotRun(`"${team.displayName}" is archived: unarchive it first.`);
    const { comparers, reads } = comparersFor(stored.template);
    const state = await readTeamState(
      { teams: this.deps.teams, labels: this.labelStore },
      team,
      stored.template,
      reads,
    );
    return {
      differences: compareTeam(stored.template, state, comparers),
      version: stored.version,
      team,
      template: stored.template,
      state,
    };
  }

  async completed(
    job: StoredJob,
    data: DriftApplyData,
    trx: Transaction<Database>,
    now: Date,
    records: AuditEntry[],
  ): Promise<StewardEvent[]> {
    await this.deps.labels.forget(job.id, trx);
    const applied = data.applied ?? [];
    const teamTemplates = new TeamTemplateRepository(trx);
    if (data.version !== undefined) {
      const drift = { version: data.version, count: data.remaining ?? 0, checkedAt: now.toISOString() };
      // In line with the version it was compared with: the team now meets it.
      if (drift.count === 0) await teamTemplates.meets(data.team.id, data.version, drift.checkedAt);
      else await teamTemplates.noteDrift(data.team.id, drift);
    }
    records.push(
      teamRecord('drift_applied', data.team, job, {
        templateId: data.template.id,
        version: data.version,
        requester: data.requester.id,
        applied: applied.map((d) => d.id),
      }),
    );
    return [await this.deps.events.record(trx, 'team_drift_applied', eventPayload(job, data), now)];
  }

  async failed(
    job: StoredJob,
    data: DriftApplyData,
    reason: string,
    trx: Transaction<Database>,
    now: Date,
  ): Promise<StewardEvent[]> {
    await this.deps.labels.forget(job.id, trx);
    return [
      await this.deps.events.record(
        trx,
        'team_drift_apply_failed',
        { ...eventPayload(job, data), reason },
        now,
      ),
    ];
  }
}

function eventPayload(job: StoredJob, data: DriftApplyData): Record<string, unknown> {
  return {
    team: data.team,
    template: { id: data.template.id, name: data.template.name, version: data.version ?? null },
    requester: data.requester,
    job: { id: job.id },
    applied: (data.applied ?? []).map((d) => ({ id: d.id, kind: d.kind, name: d.name })),
    remaining: data.remaining ?? null,
  };
}

/** `TeamDriftApply`: brings one team in line with its template, additively. */
export const driftApplyJob = jobType({
  type: 'TeamDriftApply',
  data: DriftApplyData,
  steps: () => DRIFT_STEPS,
  handler: (deps: DriftApplyJobDeps) => new DriftApplyHandler(deps),
});
