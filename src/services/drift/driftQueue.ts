import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { callerRecord } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import type { ErrorDetail } from '../../domain/errors';
import type { StoredJob } from '../../domain/jobs';
import { counted } from '../../lib/counted';
import type { CatalogTemplate, DriftDifference } from '../../contract';
import type { JobRepository } from '../../store/jobs/jobs';
import type { Database } from '../../store/schema';
import type { AuditLog } from '../audit/audit';
import type { SensitivityLabels } from '../labels/sensitivityLabels';
import type { DriftApplyData } from './driftApplyJob';

/** The caller's grant for a template's label, kept with each job (the label's own path). */
export type DriftGrant = Awaited<ReturnType<SensitivityLabels['prepare']>> | undefined;

/** What queueing drift jobs writes. */
export interface QueueDeps {
  db: Kysely<Database>;
  jobs: JobRepository;
  audit: AuditLog;
  onQueued: () => void;
}

/**
 * One job per team, queued with its audit record, in one transaction; a team with a drift job
 * pending already gets none (the database decides, `insertOncePerTeam`): that job is returned, not
 * inserted.
 */
export async function queueDriftJobs(
  deps: QueueDeps,
  request: {
    caller: Caller;
    template: CatalogTemplate;
    chosen: readonly string[] | undefined;
    grant: DriftGrant;
    now: Date;
  },
  teams: ReadonlyArray<{ teamId: string; displayName: string }>,
): Promise<Array<{ job: StoredJob; inserted: boolean }>> {
  if (teams.length === 0) return [];
  const { caller, template, chosen, grant, now } = request;
  const templateId = template.templateConfiguration.id!;
  const requester = { id: caller.id, displayName: caller.name ?? caller.id };
  const jobs = await deps.db.transaction().execute(async (trx) => {
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
      const queued = await deps.jobs.insertOncePerTeam(
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
      await deps.audit.record(
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
  if (jobs.some((j) => j.inserted)) deps.onQueued();
  return jobs;
}

/** Why differences chosen for a team cannot be applied: unknown ones, and ones Steward cannot apply. */
export function chosenProblems(
  differences: readonly DriftDifference[],
  chosen: readonly string[],
): ErrorDetail[] {
  const known = new Set(differences.map((d) => d.id));
  const unknown = chosen.filter((id) => !known.has(id));
  const refused = differences.filter((d) => chosen.includes(d.id) && !d.applicable);
  return [
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
}

/** Whether two requests chose the same differences (none chosen: every one Steward can apply). */
export function sameChoice(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}
