import type { Job, JobStatus } from './wire';

/** The kinds of job the queue runs: those clients follow (`Job`), and Steward's own webhook deliveries. */
export type JobType = Job['type'] | 'WebhookDelivery';

/** The job types the API shows as `Job`. */
export const WIRE_JOB_TYPES: readonly Job['type'][] = ['ProvisioningRequest', 'TeamArchiveRequest'];

/** True for the job types the API shows as `Job`; webhook deliveries have their own log instead. */
export function isWireJobType(type: JobType): type is Job['type'] {
  return type !== 'WebhookDelivery';
}

/** What a job has done so far, saved after every step so a resumed job skips it. */
export interface Checkpoint {
  /** Names of the steps that finished. */
  done: string[];
  /** The team the job created (or found), once it exists. */
  teamId?: string;
}

/** A job as stored, with the queue's bookkeeping. */
export interface StoredJob {
  id: string;
  type: JobType;
  status: JobStatus;
  /** False while the job waits for something other than a worker (an approval). */
  queued: boolean;
  progress: number;
  log: string[];
  data: Record<string, unknown>;
  checkpoint: Checkpoint;
  failedReason: string | null;
  attempts: number;
  runAt: number;
  leaseOwner: string | null;
  requesterId: string;
  teamId: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

/** A job's progress as the wire shows it. */
export function toWireJob(job: StoredJob, queuePaused: boolean): Job {
  if (!isWireJobType(job.type)) throw new Error(`A ${job.type} job has no wire form.`);
  const runnable = job.queued && (job.status === 'waiting' || job.status === 'delayed');
  return {
    id: job.id,
    type: job.type,
    status: queuePaused && runnable ? 'paused' : job.status,
    progress: job.progress,
    log: job.log,
    data: job.data,
    createdDateTime: job.createdAt,
    lastModifiedDateTime: job.updatedAt,
    failedReason: job.failedReason,
  };
}

/** Delay before retry `attempt` (1-based) of a transient failure: exponential, capped, never below `floorMs`. */
export function retryDelayMs(attempt: number, floorMs = 0): number {
  const exponential = Math.min(60_000, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.max(floorMs, exponential);
}
