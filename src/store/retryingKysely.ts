import { Kysely, type TransactionBuilder } from 'kysely';
import { backoffMs } from '../lib/backoff';
import { sleep } from '../lib/sleep';

/**
 * PostgreSQL's codes for a transaction it aborted to let others go on: `40P01` (deadlock detected)
 * and `40001` (serialization failure). Nothing of the transaction stayed; run again, it may pass.
 * https://www.postgresql.org/docs/current/errcodes-appendix.html and "Serialization Failure
 * Handling", https://www.postgresql.org/docs/current/mvcc-serialization-failure-handling.html
 */
const RETRIED_CODES = new Set(['40P01', '40001']);

/** How often a transaction is run in all before its abort reaches the caller. */
export const TRANSACTION_ATTEMPTS = 5;

/** The waits between attempts: short, and jittered so that the two sides of a deadlock part. */
const RETRY_BACKOFF = { baseMs: 5, capMs: 100, jitter: 1 };

/** True when PostgreSQL aborted the statement's transaction for a deadlock or a serialization failure. */
export function isRetriedAbort(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRIED_CODES.has(code);
}

/**
 * Kysely whose `transaction().execute(callback)` runs the callback again (up to
 * `TRANSACTION_ATTEMPTS` in all) when PostgreSQL aborts the transaction for a deadlock or a
 * serialization failure, so no caller sees a 500 for a conflict the database resolved by rolling
 * one side back. Every transaction of Steward is opened through it (`openStore`), so this is the
 * one place that decides it.
 *
 * Running a callback again is safe because what it does outside the database it does after the
 * commit: the callbacks of `src/` only read and write through the transaction they are given and
 * return what the caller acts on afterwards (events are published, workers woken and answers built
 * from the value `execute` resolves with, once); ids and times made before the transaction are the
 * same in each attempt. A callback must not push to an outer array or call the platform: a second
 * attempt would do it twice.
 */
export class RetryingKysely<DB> extends Kysely<DB> {
  override transaction(): TransactionBuilder<DB> {
    return retrying(super.transaction());
  }
}

function retrying<DB>(builder: TransactionBuilder<DB>): TransactionBuilder<DB> {
  const wrapper: Pick<TransactionBuilder<DB>, 'execute' | 'setAccessMode' | 'setIsolationLevel'> = {
    setAccessMode: (mode) => retrying(builder.setAccessMode(mode)),
    setIsolationLevel: (level) => retrying(builder.setIsolationLevel(level)),
    execute: async (callback) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await builder.execute(callback);
        } catch (error) {
          if (attempt >= TRANSACTION_ATTEMPTS || !isRetriedAbort(error)) throw error;
          await sleep(backoffMs(RETRY_BACKOFF, attempt - 1));
        }
      }
    },
  };
  // TransactionBuilder's fields are private (#props): the wrapper has its whole public surface.
  return wrapper as unknown as TransactionBuilder<DB>;
}
