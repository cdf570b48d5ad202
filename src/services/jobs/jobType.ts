import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import type { AuditEntry, AuditTrailCode } from '../../domain/audit';
import type { JobType, StepDefinition, StoredJob } from '../../domain/jobs';
import type { StepStatus } from '../../contract';
import type { OperationCheckpoint, TeamsPlatform } from '../../platform/port';
import type { HookRepository } from '../../store/webhooks/hooks';
import type { Database } from '../../store/schema';
import type { AuditLog } from '../audit/audit';
import type { EventBus, StewardEvent } from '../webhooks/events';
import type { MetadataService } from '../teams/metadata';
import type { SensitivityLabels } from '../labels/sensitivityLabels';
import type { WebhookSender } from '../webhooks/webhookSender';
import type { HookSecrets } from '../webhooks/hookSecrets';
import type { ApprovalTimerActions } from '../approvals/types';
import type { LifecycleRunner } from '../lifecycle/types';

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
  ): Promise<StewardEvent[]>;
  /** Events recorded in the transaction that fails the job. */
  failed(
    job: StoredJob,
    data: D,
    reason: string,
    trx: Transaction<Database>,
    now: Date,
  ): Promise<StewardEvent[]>;
  /**
   * The handler's own retry policy: milliseconds to wait before the next attempt after attempt
   * `attempt` (1-based) failed with `error`, or `undefined` to fail the job. Without it, transient
   * platform errors are retried with exponential backoff.
   */
  retryDelay?(error: unknown, attempt: number): number | undefined;
}

/** How webhook deliveries are attempted (from the configuration). */
export interface WebhookDeliveryPolicy {
  /** Attempts after the first (default 2). */
  retries: number;
  /** Wait between attempts (default 10 s). */
  retryDelayMs: number;
  /** Consecutive failed deliveries (each after all its retries) that turn a hook inactive. */
  failureThreshold: number;
  /** `Steward-Webhook/<version>`. */
  userAgent: string;
}

/** Everything the job types' handlers work with; the registry hands each handler what it needs. */
export interface JobDependencies {
  db: Kysely<Database>;
  teams: TeamsPlatform;
  events: EventBus;
  audit: AuditLog;
  metadata: MetadataService;
  /** The metadata namespace a provisioning job stores the request's metadata in. */
  metadataNamespace: string;
  hooks: HookRepository;
  /** Opens a hook's sealed secret to sign its deliveries (`webhooks/hookSecrets.ts`). */
  hookSecrets: HookSecrets;
  sender: WebhookSender;
  webhooks: WebhookDeliveryPolicy;
  log: { warn(o: object, m: string): void };
  /** What approval timers do (`approvals/approvalTimers.ts`). */
  approvalTimers: ApprovalTimerActions;
  /** What lifecycle evaluations do (`lifecycle/evaluations.ts`). */
  lifecycle: LifecycleRunner;
  /** Sensitivity labels, put on with a person's delegated grant (`services/sensitivityLabels.ts`). */
  labels: SensitivityLabels;
}

/**
 * One type of job, in one module: the shape of its data (parsed once when a job is claimed), its
 * steps, how it is carried out, and the events it records. Registered in `registry.ts`. Its step
 * names `S` are declared once, by `steps` (definitions written `as const`); the handler's runs may
 * name those steps only.
 */
export interface JobTypeModule<D, S extends string = string> {
  readonly type: JobType;
  /** The job's data as stored; a job whose data does not parse fails with `JobCannotRun`. */
  readonly data: z.ZodType<D>;
  /** The steps a job runs, in order, given its stored data (read loosely: it is also used to show jobs). */
  steps(data: Readonly<Record<string, unknown>>): readonly StepDefinition<S>[];
  /** Statuses of steps decided outside the worker (an approval), from the stored data. */
  settled?(data: Readonly<Record<string, unknown>>): Record<string, StepStatus>;
  /** The handler, for the steps `steps` declares (never where the step names are inferred from). */
  handler(deps: JobDependencies): JobHandler<D, NoInfer<S>>;
}

/**
 * Types a module so that its parts agree on `D` and on the step names `S`, taken from `steps` (the
 * registry keeps modules as `JobTypeModule<unknown>`).
 */
export function jobType<D, S extends string>(module: JobTypeModule<D, S>): JobTypeModule<D, S> {
  return module;
}
