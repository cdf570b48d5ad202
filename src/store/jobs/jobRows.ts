import type { Checkpoint, JobType, StoredJob, StoredJobStatus } from '../../domain/jobs';
import type { JobRow } from '../schema';

/** What a new job starts with. */
export interface NewJob {
  id: string;
  type: JobType;
  queued: boolean;
  data: Record<string, unknown>;
  log: string[];
  requesterId: string;
  teamId?: string | null;
  templateId?: string | null;
  idempotencyKey?: string | null;
  /** When the job becomes due (epoch ms); now when absent. A timer is a job due later. */
  runAt?: number;
  /** The Graph budget bucket the job's first call waits for, when its type knows it. */
  budgetKey?: string | null;
}

/** A change to a job made by the worker that holds its lease. */
export interface JobProgress {
  progress?: number;
  appendLog?: string[];
  data?: Record<string, unknown>;
  checkpoint?: Checkpoint;
  teamId?: string | null;
}

/** The row of a job just queued (or waiting for its approval). */
export function newJobRow(job: NewJob, now: Date): JobRow {
  const iso = now.toISOString();
  const row: JobRow = {
    id: job.id,
    type: job.type,
    status: 'waiting',
    queued: job.queued ? 1 : 0,
    progress: 0,
    log: JSON.stringify(job.log),
    data: JSON.stringify(job.data),
    checkpoint: JSON.stringify({ done: [] }),
    failed_reason: null,
    attempts: 0,
    run_at: job.runAt ?? now.getTime(),
    lease_owner: null,
    lease_until: null,
    requester_id: job.requesterId,
    team_id: job.teamId ?? null,
    template_id: job.templateId ?? null,
    idempotency_key: job.idempotencyKey ?? null,
    created_at: iso,
    updated_at: iso,
    completed_at: null,
    budget_key: job.budgetKey ?? null,
  };
  return row;
}

/** The columns that hold what a worker did: written together so they never disagree. */
export function stateOf(job: StoredJob) {
  return {
    progress: job.progress,
    log: JSON.stringify(job.log),
    data: JSON.stringify(job.data),
    checkpoint: JSON.stringify(job.checkpoint),
    team_id: job.teamId,
  };
}

/** A job row as the domain sees it. */
export function toJob(row: JobRow): StoredJob {
  return {
    id: row.id,
    type: row.type as JobType,
    status: row.status as StoredJobStatus,
    queued: Number(row.queued) === 1,
    progress: Number(row.progress),
    log: JSON.parse(row.log) as string[],
    data: JSON.parse(row.data) as Record<string, unknown>,
    checkpoint: JSON.parse(row.checkpoint) as Checkpoint,
    failedReason: row.failed_reason,
    attempts: Number(row.attempts),
    runAt: Number(row.run_at),
    leaseOwner: row.lease_owner,
    requesterId: row.requester_id,
    teamId: row.team_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
    ...(row.budget_key ? { budgetKey: row.budget_key } : {}),
  };
}
