import { type AuditEntry, type AuditTrailCode, SYSTEM_ACTOR } from '../../domain/audit';
import type { StoredJob } from '../../domain/jobs';

/** The audit record of a step in a job's life (started, delayed, completed, failed), in `trail`; none without one. */
export function lifecycleRecord(
  trail: AuditTrailCode | undefined,
  job: StoredJob,
  action: string,
  outcome: AuditEntry['outcome'],
  details: Record<string, unknown>,
): AuditEntry[] {
  if (!trail) return [];
  const team = (job.data as { team?: { displayName?: unknown } }).team;
  const displayName = typeof team?.displayName === 'string' ? team.displayName : undefined;
  return [
    {
      trail,
      action,
      actor: SYSTEM_ACTOR,
      target: { type: 'job', id: job.id, ...(displayName ? { displayName } : {}) },
      outcome,
      requestId: null,
      details: { jobType: job.type, requester: job.requesterId, ...details },
    },
  ];
}
