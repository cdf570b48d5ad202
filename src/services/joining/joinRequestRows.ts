import { randomUUID } from 'node:crypto';
import type { AuditTarget } from '../../domain/audit';
import { Conflict, NotFound } from '../../domain/errors';
import type { JoinRequest, Team } from '../../contract';
import type { JobRepository } from '../../store/jobs/jobs';
import type { JoinRequestRow } from '../../store/schema';
import type { TeamJoinData } from './teamJoinJob';

/* A stored request to join a team: as the API shows it, its errors, and the job that adds the member. */

/** Queues the job that adds the request's person to the team, in `trx`. */
export async function queueJoinJob(
  jobs: JobRepository,
  trx: Parameters<JobRepository['insert']>[2],
  row: JoinRequestRow,
  decidedBy: { id: string; displayName: string } | null,
  now: Date,
): Promise<void> {
  const data: TeamJoinData = {
    joinRequestId: row.id,
    team: { id: row.team_id, displayName: row.team_name },
    requester: { id: row.requester_id, displayName: row.requester_name },
    direct: row.direct === 1,
    decidedBy,
  };
  const line =
    row.direct === 1
      ? `${row.requester_name} joins "${row.team_name}" (a public team anyone may join).`
      : `${decidedBy?.displayName ?? 'An owner'} let ${row.requester_name} join "${row.team_name}".`;
  await jobs.insert(
    {
      id: row.job_id ?? randomUUID(),
      type: 'TeamJoinRequest',
      queued: true,
      data,
      log: [line],
      requesterId: row.requester_id,
      teamId: row.team_id,
    },
    now,
    trx,
  );
}

export function teamTarget(team: Team): AuditTarget {
  return { type: 'team', id: team.id, displayName: team.displayName };
}

export function notFound(id: string): NotFound {
  return new NotFound(`No request to join "${id}".`);
}

export function decidedAlready(row: JoinRequestRow): Conflict {
  return new Conflict(`This request to join "${row.team_name}" was decided already (${row.status}).`);
}

/** A stored request as the API shows it. */
export function toJoinRequest(row: JoinRequestRow): JoinRequest {
  return {
    id: row.id,
    team: { id: row.team_id, displayName: row.team_name },
    requester: { id: row.requester_id, displayName: row.requester_name },
    message: row.message,
    status: row.status as JoinRequest['status'],
    direct: row.direct === 1,
    decision:
      row.decision && row.decided_by && row.decided_at
        ? {
            decision: row.decision as 'approve' | 'decline',
            by: { id: row.decided_by, displayName: row.decided_by_name ?? row.decided_by },
            comment: row.comment,
            decidedDateTime: row.decided_at,
          }
        : null,
    jobId: row.job_id,
    failedReason: row.failed_reason,
    createdDateTime: row.created_at,
    lastModifiedDateTime: row.updated_at,
  };
}
