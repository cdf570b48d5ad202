import { type AuditEntry, SYSTEM_ACTOR } from '../../domain/audit';
import type { StoredJob } from '../../domain/jobs';

/** A record in the `teams` trail of something a job did to a team. */
export function teamRecord(
  action: string,
  team: { id: string; displayName: string },
  job: Pick<StoredJob, 'id'>,
  details: Record<string, unknown>,
): AuditEntry {
  return {
    trail: 'teams',
    action,
    actor: SYSTEM_ACTOR,
    target: { type: 'team', id: team.id, displayName: team.displayName },
    outcome: 'success',
    requestId: null,
    details: { jobId: job.id, ...details },
  };
}
