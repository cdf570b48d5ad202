import { PlatformBusy } from '../../domain/errors';
import {
  type Checkpoint,
  type OperationState,
  progressAfter,
  type StepDefinition,
  type StoredJob,
  WAIT_DESCRIPTIONS,
} from '../../domain/jobs';
import type { JobWaitReason } from '../../contract';
import type { OperationCheckpoint } from '../../platform/port';
import { JobRepository } from '../../store/jobs/jobs';
import type { JobRun, StepResult } from './jobType';
import type { LeaseKeeper } from './leaseKeeper';

/**
 * How often a running job's progress reaches the database at most. Every write is a statement on
 * the deployment's shared database, and a job paced by the Graph budget finishes a step every few
 * seconds; a progress card polling the job sees a step done within this time (or at once when the
 * job parks or ends, which writes it too).
 */
const PROGRESS_WRITE_MS = 5000;

/** Raised inside a run when another worker took the job over (this worker's lease expired). */
export class LeaseLost extends Error {}

/**
 * Raised through a step when it waits for the platform: the worker parks the job until `runAt`
 * and frees its slot. Not a failure; never a PlatformError, so no platform code catches it.
 */
export class JobParked extends Error {
  constructor(
    readonly runAt: number,
    /** The budget bucket the job waits for, when a spent budget parked it. */
    readonly budgetKey?: string,
  ) {
    super('The job is parked until the platform is worth looking at again.');
  }
}

/** What a run needs of its worker. */
export interface RunContext {
  jobs: JobRepository;
  owner: string;
  /** Renews the leases of the worker's jobs, all in one statement. */
  leases: LeaseKeeper;
}

/**
 * A claimed job being run: its lease kept alive, its steps skipped when the checkpoint says they
 * are done, checkpointed as they finish, and parked when a step waits for the platform.
 */
export class ActiveRun {
  readonly run: JobRun<unknown>;
  private lost = false;
  private savedAt = Date.now();
  private step: string | undefined;
  private readonly release: () => void;

  constructor(
    private readonly job: StoredJob,
    private readonly steps: readonly StepDefinition[],
    private current: unknown,
    private readonly context: RunContext,
  ) {
    this.release = context.leases.keep(job.id, () => {
      this.lost = true;
    });
    const data = () => this.current;
    this.run = {
      job,
      get data() {
        return data();
      },
      step: (name, work) => this.runStep(name, work),
      operation: this.operation(),
    };
  }

  /** The job's data, as the last step left it. */
  get data(): unknown {
    return this.current;
  }

  /** Stops renewing the lease (the job ended, parked or was lost). */
  close(): void {
    this.release();
  }

  private async runStep(name: string, work: () => Promise<StepResult<unknown> | void>) {
    const job = this.job;
    if (this.lost) throw new LeaseLost();
    if (job.checkpoint.done.includes(name)) return;
    this.step = name;
    const result = (await this.parkWhenBusy(work)) ?? {};
    if (this.lost) throw new LeaseLost();
    if (result.data !== undefined) this.current = result.data;
    // The step's wait ends with it: what it waited on, and the wait shown to clients.
    const { pending: _pending, waiting: _waiting, operation: _operation, ...rest } = job.checkpoint;
    const checkpoint: Checkpoint = {
      ...rest,
      done: [...job.checkpoint.done, name],
      ...(result.skipped ? { skipped: [...(job.checkpoint.skipped ?? []), name] } : {}),
      ...(result.teamId ? { teamId: result.teamId } : {}),
    };
    JobRepository.apply(job, {
      progress: progressAfter(this.steps, name),
      appendLog: result.log,
      data: result.data as Record<string, unknown> | undefined,
      checkpoint,
      teamId: result.teamId,
    });
    // Every step is safe to run again (the team is found by the job's provisioning key, or by the
    // operation its last park wrote), so progress, the team's id included, is saved at most every
    // PROGRESS_WRITE_MS and otherwise with the job's next write: a park, or its end.
    if (Date.now() - this.savedAt >= PROGRESS_WRITE_MS) {
      if (!(await this.context.jobs.save(job, this.context.owner, new Date()))) throw new LeaseLost();
      this.savedAt = Date.now();
    }
  }

  /**
   * The running step's long platform operation: its saved state (a clone's `Location` saved before
   * `pending` existed counts), and a `wait` that parks the job with that state.
   */
  private operation(): OperationCheckpoint {
    const job = this.job;
    return {
      get state(): OperationState | undefined {
        const legacy = job.checkpoint.operation;
        return job.checkpoint.pending ?? (legacy ? { location: legacy } : undefined);
      },
      wait: async (wait) => {
        if (this.lost) throw new LeaseLost();
        this.recordWait(wait.for, wait.afterMs, wait.state);
        throw new JobParked(Date.now() + wait.afterMs, wait.budgetKey);
      },
    };
  }

  /**
   * Runs a step's work; when the platform's shared budget cannot serve one of its calls soon, the
   * job parks until its turn (what the step's operation stood at is kept), as it does for a long
   * operation: no slot held, no attempt spent.
   */
  private async parkWhenBusy<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof PlatformBusy) || this.lost) throw error;
      const afterMs = Math.max(1, error.retryAfterMs ?? 1000);
      this.recordWait('graphBudget', afterMs, this.job.checkpoint.pending);
      throw new JobParked(Date.now() + afterMs, error.budgetKey);
    }
  }

  /** Notes in the job what it waits for and until when; a log line when the wait is a new one. */
  private recordWait(reason: JobWaitReason, afterMs: number, state: OperationState | undefined): void {
    const job = this.job;
    const now = Date.now();
    const previous = job.checkpoint.waiting;
    const same = previous?.for === reason && previous.step === this.step;
    const { operation: _legacy, ...rest } = job.checkpoint;
    JobRepository.apply(job, {
      checkpoint: {
        ...rest,
        ...(state ? { pending: state } : {}),
        waiting: {
          step: this.step ?? '',
          for: reason,
          since: same ? previous.since : new Date(now).toISOString(),
          nextCheckAt: new Date(now + afterMs).toISOString(),
        },
      },
      appendLog: same
        ? []
        : [`${WAIT_DESCRIPTIONS[reason]} Next check in ${Math.max(1, Math.round(afterMs / 1000))} s.`],
    });
  }
}
