import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { AuditEntry, AuditTrailCode } from '../../domain/audit';
import type { JobType, StepDefinition, StoredJob } from '../../domain/jobs';
import type { StepStatus } from '../../contract';
import type { OperationCheckpoint } from '../../platform/port';
import type { Database } from '../../store/schema';
import type { JobEvent } from './ports';

/** What a step reports: log lines, the job's new data, the team it created, or that it had nothing to do. */
export interface StepResult<D> {
  log?: string[];
  data?: D;
  teamId?: string;
  /** The step had nothing to do (clients show it as skipped rather than done). */
  skipped?: boolean;
}

/**
 * A job being run by a worker: steps are skipped when the checkpoint says they are done. `S` is the
 * job type's step names, so a step the type does not declare (a misspelt name) does not compile.
 */
export interface JobRun<D, S extends string = string> {
  readonly job: StoredJob;
  /** The job's data, parsed once when the job was claimed; a step returning `data` replaces it. */
  readonly data: D;
  /**
   * Runs the step `name` (one of the job type's `steps`) unless an earlier attempt finished it. A
   * property rather than a method, so that TypeScript checks its parameter strictly: a run of a
   * type's steps is not a run of any string.
   */
  readonly step: (name: S, work: () => Promise<StepResult<D> | void>) => Promise<void>;
  /**
   * The long platform operation the running step waits on (Graph creating or cloning a team, …):
   * hand it to the platform, whose waits then park the job (the worker's slot is freed, and any
   * worker runs the step again when it is time to look), with the state of the last look.
   */
  readonly operation: OperationCheckpoint;
}

/**
 * The step names of a job type's step definitions, written `as const` (a list; for lists by some
 * key, index them: `StepName<(typeof STEPS)[keyof typeof STEPS]>`).
 */
export type StepName<T extends readonly StepDefinition[]> = T[number]['name'];

/** How one type of job is carried out; `S` is the type's step names, which its `run` may run. */
export interface JobHandler<D, S extends string = string> {
  /** The audit trail where this type's jobs record starting, retrying, completing and failing; none when absent. */
  readonly trail?: AuditTrailCode;
  /**
   * Runs the job's steps. A property rather than a method, so that TypeScript checks its parameter
   * strictly: a handler written for any step name (`JobRun<D>`) is refused for a type whose steps
   * are declared, and so is one naming a step the type does not declare.
   */
  readonly run: (run: JobRun<D, S>) => Promise<void>;
  /**
   * Events recorded in the transaction that completes the job. Audit entries of the completion go
   * in `records`: the worker appends them with the job's own `job_completed` record, in one
   * statement.
   */
  completed(
    job: StoredJob,
    data: D,
    trx: Transaction<Database>,
    now: Date,
    records: AuditEntry[],
  ): Promise<readonly JobEvent[]>;
  /** Events recorded in the transaction that fails the job. */
  failed(
    job: StoredJob,
    data: D,
    reason: string,
    trx: Transaction<Database>,
    now: Date,
  ): Promise<readonly JobEvent[]>;
  /**
   * The handler's own retry policy: milliseconds to wait before the next attempt after attempt
   * `attempt` (1-based) failed with `error`, or `undefined` to fail the job. Without it, transient
   * platform errors are retried with exponential backoff.
   */
  retryDelay?(error: unknown, attempt: number): number | undefined;
}

/**
 * One type of job, in one module of its feature: the shape of its data (parsed once when a job is
 * claimed), its steps, how it is carried out, and the events it records. Registered where the
 * program is composed (`compose/jobTypes.ts`). Its step names `S` are declared once, by `steps`
 * (definitions written `as const`); the handler's runs may name those steps only. `Deps` is what
 * its handler needs, declared by the feature (annotate the handler's parameter with it): the
 * registry in compose does not compile unless what it gives handlers has all of it.
 */
export interface JobTypeModule<D, S extends string = string, Deps = never, T extends JobType = JobType> {
  readonly type: T;
  /** The job's data as stored; a job whose data does not parse fails with `JobCannotRun`. */
  readonly data: z.ZodType<D>;
  /** The steps a job runs, in order, given its stored data (read loosely: it is also used to show jobs). */
  steps(data: Readonly<Record<string, unknown>>): readonly StepDefinition<S>[];
  /** Statuses of steps decided outside the worker (an approval), from the stored data. */
  settled?(data: Readonly<Record<string, unknown>>): Record<string, StepStatus>;
  /**
   * The handler, for the steps `steps` declares (never where the step names are inferred from). A
   * property rather than a method, so that TypeScript checks what it is given strictly.
   */
  readonly handler: (deps: Deps) => JobHandler<D, NoInfer<S>>;
}

/**
 * Types a module so that its parts agree on `D` and on the step names `S`, taken from `steps` (the
 * engine keeps modules as `JobTypeModule<unknown>`).
 */
export function jobType<D, S extends string, Deps, T extends JobType>(
  module: JobTypeModule<D, S, Deps, T>,
): JobTypeModule<D, S, Deps, T> {
  return module;
}
