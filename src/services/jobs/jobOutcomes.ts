import type { Kysely } from 'kysely';
import type { AuditEntry, AuditTrailCode } from '../../domain/audit';
import { PlatformError, StewardError } from '../../domain/errors';
import { retryDelayMs, type StoredJob } from '../../domain/jobs';
import type { JobRepository } from '../../store/jobs/jobs';
import type { Database } from '../../store/schema';
import { LeaseLost } from './jobRun';
import { lifecycleRecord } from './jobRecords';
import type { JobHandler } from './jobType';
import type { JobAudit, JobEvents } from './ports';

/** What recording a job's outcome needs of its worker. */
export interface OutcomeContext {
  db: Kysely<Database>;
  jobs: JobRepository;
  events: JobEvents;
  audit: JobAudit;
  /** The worker's lease owner. */
  owner: string;
  log: {
    warn(o: object, m: string): void;
    error(o: object, m: string): void;
  };
  /** Transient failures retried before a job fails. */
  maxAttempts: number;
  /** The audit trail of a job's type, none when it has none. */
  trailOf(job: StoredJob): AuditTrailCode | undefined;
}

/** The audit record of a step in a job's life, in its type's trail (none when it has none). */
function record(
  context: OutcomeContext,
  job: StoredJob,
  action: string,
  outcome: AuditEntry['outcome'],
  details: Record<string, unknown>,
): AuditEntry[] {
  return lifecycleRecord(context.trailOf(job), job, action, outcome, details);
}

/**
 * Completes a job whose steps all ran: its status, its record and its type's events in one
 * transaction, the events published once it committed. Throws `LeaseLost` when another worker has
 * the job.
 */
export async function completeJob(
  context: OutcomeContext,
  job: StoredJob,
  handler: JobHandler<unknown>,
  data: unknown,
): Promise<void> {
  const { db, jobs, owner, audit } = context;
  const published = await db.transaction().execute(async (trx) => {
    const now = new Date();
    // `finish` writes through the job it is given: each attempt of the transaction (it may
    // run again, retryingKysely.ts) starts from the job as it was, not as the last one left it.
    const done = { ...job };
    if (!(await jobs.finish(done, owner, { status: 'completed', appendLog: ['Completed.'] }, now, trx))) {
      throw new LeaseLost();
    }
    const teamId = done.teamId ?? done.checkpoint.teamId;
    const records = record(context, done, 'job_completed', 'success', teamId ? { teamId } : {});
    const recorded = await handler.completed(done, data, trx, now, records);
    await audit.record(trx, records, now);
    return recorded;
  });
  context.events.publish(published);
}

/**
 * Delays the job for another attempt when its failure is worth retrying, or fails it; `parsed` is
 * its handler and data, absent when the data did not parse (nothing of the type's own runs then).
 */
export async function failOrRetry(
  context: OutcomeContext,
  job: StoredJob,
  parsed: { handler: JobHandler<unknown>; data: unknown } | undefined,
  error: unknown,
): Promise<void> {
  if (error instanceof LeaseLost) {
    context.log.warn({ jobId: job.id }, 'lease lost; another worker carries on with the job');
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  const attempt = job.attempts + 1;
  try {
    const wait = parsed?.handler.retryDelay
      ? parsed.handler.retryDelay(error, attempt)
      : error instanceof PlatformError && error.transient && attempt < context.maxAttempts
        ? retryDelayMs(attempt, error.retryAfterMs ?? 0)
        : undefined;
    if (wait !== undefined) return await delayJob(context, job, { attempt, message, wait });
    if (!(error instanceof PlatformError) && !(error instanceof StewardError)) {
      context.log.error({ err: error, jobId: job.id }, 'job failed unexpectedly');
    }
    await failJob(context, job, parsed, { attempt, message });
  } catch (recordError) {
    // The lease runs out and another worker (or a restart) takes the job up again.
    context.log.error({ err: recordError, jobId: job.id }, 'could not record the outcome of a job');
  }
}

/** Delays a job `wait` ms for its next attempt, with the failed attempt's record. */
async function delayJob(
  context: OutcomeContext,
  job: StoredJob,
  { attempt, message, wait }: { attempt: number; message: string; wait: number },
): Promise<void> {
  const line = `Attempt ${attempt} failed: ${message} Retrying in ${Math.ceil(wait / 1000)} s.`;
  // A delayed job waits for its retry, not for the platform: what the platform operation
  // stood at (`pending`) stays for the next attempt, the wait shown to clients goes.
  const { waiting: _waiting, ...checkpoint } = job.checkpoint;
  job.checkpoint = checkpoint;
  await context.db.transaction().execute(async (trx) => {
    const now = new Date();
    const runAt = now.getTime() + wait;
    if (!(await context.jobs.delay({ ...job }, context.owner, runAt, line, now, trx))) return;
    const details = { attempt, reason: message, retryAt: new Date(runAt).toISOString() };
    await context.audit.record(trx, record(context, job, 'job_delayed', 'failure', details), now);
  });
}

/** Fails a job, with its record and its type's events (none when its data did not parse). */
async function failJob(
  context: OutcomeContext,
  job: StoredJob,
  parsed: { handler: JobHandler<unknown>; data: unknown } | undefined,
  { attempt, message }: { attempt: number; message: string },
): Promise<void> {
  const created = job.checkpoint.teamId
    ? ` The team ${job.checkpoint.teamId} was created before the failure.`
    : '';
  const reason = `${message}${created}`;
  const published = await context.db.transaction().execute(async (trx) => {
    const now = new Date();
    const lines = [`Attempt ${attempt} failed: ${message}`, `Failed.${created}`];
    const failure = { status: 'failed' as const, failedReason: reason, appendLog: lines };
    const failed = { ...job };
    if (!(await context.jobs.finish(failed, context.owner, failure, now, trx))) return [];
    await context.audit.record(
      trx,
      record(context, failed, 'job_failed', 'failure', { attempt, reason }),
      now,
    );
    return parsed ? parsed.handler.failed(failed, parsed.data, reason, trx, now) : [];
  });
  context.events.publish(published);
}
