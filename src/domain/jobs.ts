import type { Job, JobStatus, JobStep, JobWait, JobWaitReason, StepStatus } from '../contract';
import { backoffMs } from '../lib/backoff';

/** The kinds of job the queue runs: those clients follow (`Job`), and Steward's own webhook deliveries. */
export type JobType =
  | Job['type']
  | 'WebhookDelivery'
  | 'ApprovalTimer'
  | 'LifecycleChange'
  | 'TeamJoinRequest';

/**
 * Job types a claim takes before any other due job, oldest first among them: webhook deliveries
 * carry the news people wait for (a progress card moves on a delivery), each is one short HTTP
 * exchange, and behind a backlog of requests they would arrive minutes late.
 */
export const FIRST_CLAIMED_JOB_TYPES: readonly JobType[] = ['WebhookDelivery'];

/** The job types the API shows as `Job`. */
export const WIRE_JOB_TYPES: readonly Job['type'][] = [
  'ProvisioningRequest',
  'TeamArchiveRequest',
  'LifecycleEvaluation',
  'TeamDriftApply',
];

/** The job types that are someone's request, listed by `GET /me/jobs` (an evaluation is not). */
export const REQUEST_JOB_TYPES: readonly Job['type'][] = ['ProvisioningRequest', 'TeamArchiveRequest'];

/** True for the job types the API shows as `Job`; webhook deliveries and approval timers are Steward's own. */
export function isWireJobType(type: JobType): type is Job['type'] {
  return (WIRE_JOB_TYPES as readonly string[]).includes(type);
}

/**
 * One step of a job type, defined once in its job-type module: the worker runs it under `name`,
 * clients show `title`, and `weight` is its share of the job's progress percentage. `N` is the
 * type's step names (its module declares them `as const`, so a handler's steps are checked).
 */
export interface StepDefinition<N extends string = string> {
  readonly name: N;
  readonly title: string;
  readonly weight: number;
}

/**
 * A job's status as stored: the wire's statuses but `paused` (a state of the whole queue), plus
 * `parked`: the job waits for the platform (Graph creating a team) without holding a worker, until
 * its `runAt`, when any worker takes it up again. The wire shows a parked job as `active`.
 */
export type StoredJobStatus = Exclude<JobStatus, 'paused'> | 'parked';

/**
 * Where a long platform operation stood at its step's last look (Graph's asynchronous team
 * operations, a new team's replication): saved with the job when it parks, handed back to the
 * platform when the step runs again, so that it looks at the same operation instead of starting
 * another. The platform decides what it keeps here; the job only stores it.
 */
export interface OperationState {
  /** The operation to look at (Graph's `Location`). */
  location?: string;
  /** The team the operation makes or changes, once known (its replication is then awaited). */
  teamId?: string;
  /** A new group a team is to be made from, while Graph replicates it (no team asked for yet). */
  groupId?: string;
  /** The last wait between two looks; the next one grows from it. */
  delayMs?: number;
  /** Looks in a row that found nothing yet (replication 404s). */
  misses?: number;
  /** When the wait began (ms since the epoch): the platform gives up some time after it. */
  startedAt?: number;
  /**
   * What the wait is about when one step waits for several things in turn (a channel, its files
   * folder): a state saved for one is not taken up for another.
   */
  key?: string;
  /**
   * What a step doing several things in turn (each channel's files) had finished when it parked:
   * their keys, and its log lines so far. Taken up as they are: a step back from a park starts
   * where it stopped.
   */
  finished?: string[];
  said?: string[];
}

/** What a parked job waits for, shown to clients (`Job.waitingFor`) until its step ends. */
export interface JobWaiting {
  step: string;
  for: JobWaitReason;
  /** ISO 8601: when the job started waiting for this. */
  since: string;
  /** ISO 8601: when a worker looks again. */
  nextCheckAt: string;
}

/** What each wait means, for people (the job's log, `JobWait.description`; the bot has its own words). */
export const WAIT_DESCRIPTIONS: Readonly<Record<JobWaitReason, string>> = {
  teamCreation: 'Microsoft Teams is creating the team.',
  teamClone: 'Waiting for Microsoft Teams to finish copying the team.',
  teamArchive: 'Microsoft Teams is archiving the team.',
  teamUnarchive: 'Microsoft Teams is unarchiving the team.',
  replication: 'Waiting for Microsoft Teams to make the new team available everywhere.',
  graphBudget: "Waiting for a turn in the tenant's Microsoft Graph request budget.",
  channelCreation: 'Microsoft Teams is creating a shared channel.',
  channelFiles: "Waiting for SharePoint to make a channel's files folder.",
};

/** What a job has done so far, saved after every step so a resumed job skips it. */
export interface Checkpoint {
  /** Names of the steps that finished (skipped ones included). */
  done: string[];
  /** Names of the finished steps that had nothing to do (a welcome step with no message). */
  skipped?: string[];
  /** The team the job created (or found), once it exists. */
  teamId?: string;
  /** The long platform operation the unfinished step waits on; dropped when the step ends. */
  pending?: OperationState;
  /** What the job is parked for; dropped when the step ends. */
  waiting?: JobWaiting;
  /** A clone's `Location`, as jobs checkpointed it before `pending` existed (read as `pending.location`). */
  operation?: string;
}

/** A job as stored, with the queue's bookkeeping. */
export interface StoredJob {
  id: string;
  type: JobType;
  status: StoredJobStatus;
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
  /** The budget bucket the job was claimed for (its next call's), when it named one. */
  budgetKey?: string;
}

/** The progress percentage once `name` is finished: the weights of it and every step before it. */
export function progressAfter(steps: readonly StepDefinition[], name: string): number {
  const total = steps.reduce((sum, step) => sum + step.weight, 0);
  const index = steps.findIndex((step) => step.name === name);
  if (total <= 0 || index < 0) return 0;
  const reached = steps.slice(0, index + 1).reduce((sum, step) => sum + step.weight, 0);
  return Math.min(100, Math.round((100 * reached) / total));
}

/**
 * Where each step of a job stands. Steps the worker finished are `done` (or `skipped`); `settled`
 * gives the status of steps decided outside the worker (an approval). The first step not yet
 * finished is `running` or `failed` with the job; a `rejected` or `failed` settled step leaves the
 * steps after it `skipped`, since they will never run.
 */
export function stepStatuses(
  steps: readonly StepDefinition[],
  job: Pick<StoredJob, 'checkpoint'> & { status: StoredJobStatus | JobStatus },
  settled: Readonly<Record<string, StepStatus>> = {},
): JobStep[] {
  const done = new Set(job.checkpoint.done);
  const skipped = new Set(job.checkpoint.skipped ?? []);
  let current = true;
  let stopped = false;
  return steps.map(({ name, title }): JobStep => {
    const status = ((): StepStatus => {
      if (stopped) return 'skipped';
      const decided = settled[name];
      if (decided) {
        if (decided === 'rejected' || decided === 'failed') stopped = true;
        if (decided !== 'done' && decided !== 'skipped') current = false;
        return decided;
      }
      if (done.has(name)) return skipped.has(name) ? 'skipped' : 'done';
      if (job.status === 'completed') return 'done';
      if (!current) return 'pending';
      current = false;
      if (job.status === 'active' || job.status === 'parked') return 'running';
      return job.status === 'failed' ? 'failed' : 'pending';
    })();
    return { name, title, status };
  });
}

/** A job's progress as the wire shows it, with its steps' statuses. */
export function toWireJob(job: StoredJob, queuePaused: boolean, steps: JobStep[]): Job {
  if (!isWireJobType(job.type)) throw new Error(`A ${job.type} job has no wire form.`);
  const runnable =
    job.queued && (job.status === 'waiting' || job.status === 'delayed' || job.status === 'parked');
  const waiting = job.checkpoint.waiting;
  return {
    id: job.id,
    type: job.type,
    status: queuePaused && runnable ? 'paused' : job.status === 'parked' ? 'active' : job.status,
    progress: job.progress,
    steps,
    log: job.log,
    data: job.data,
    createdDateTime: job.createdAt,
    lastModifiedDateTime: job.updatedAt,
    failedReason: job.failedReason,
    ...(waiting && (job.status === 'parked' || job.status === 'active')
      ? { waitingFor: jobWait(waiting) }
      : {}),
  };
}

/** The wire form of what a parked job waits for. */
function jobWait(waiting: JobWaiting): JobWait {
  return {
    step: waiting.step,
    reason: waiting.for,
    description: WAIT_DESCRIPTIONS[waiting.for],
    sinceDateTime: waiting.since,
    nextCheckDateTime: waiting.nextCheckAt,
  };
}

/** Delay before retry `attempt` (1-based) of a transient failure: exponential, capped, never below `floorMs`. */
export function retryDelayMs(attempt: number, floorMs = 0): number {
  return Math.max(floorMs, backoffMs({ baseMs: 1000, capMs: 60_000 }, attempt - 1));
}
