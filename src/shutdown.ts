import os from 'node:os';
import type { Logger } from 'pino';

/** The time given to the last log lines before the process exits, when the log reader is slow. */
const LOG_FLUSH_MS = 100;

export interface ShutdownOptions {
  /** Stops the service gracefully (stop listening, finish requests in flight, close the store). */
  close(): Promise<void>;
  logger: Logger;
  /** Writes queued log lines; resolves by `ms` at the latest, whatever the reader does. */
  flushLogs(ms: number): Promise<void>;
  /** `STEWARD_SHUTDOWN_TIMEOUT_MS`: after this the process exits, finished or not. */
  timeoutMs: number;
}

/**
 * SIGTERM / SIGINT stop the process gracefully, within `timeoutMs` whatever happens to the
 * requests in flight or to logging; a second signal exits at once (128 + the signal's number, as
 * a shell reports a process killed by it). Nothing here waits on a log write: lines are queued,
 * and given at most `LOG_FLUSH_MS` to be written before the exit.
 */
export function stopOnSignals(options: ShutdownOptions): void {
  let stopping = false;
  const exit = (code: number) => {
    // However the flush goes, the process is gone shortly after.
    setTimeout(() => process.exit(code), LOG_FLUSH_MS).unref();
    void options.flushLogs(LOG_FLUSH_MS).then(() => process.exit(code));
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(128 + (os.constants.signals[signal] ?? 0));
    stopping = true;
    // The deadline is armed before anything else can fail or wait.
    setTimeout(() => {
      options.logger.warn({ signal }, 'requests still running at the shutdown deadline; exiting');
      exit(1);
    }, options.timeoutMs);
    options.logger.info({ signal }, 'shutting down');
    options.close().then(
      () => {
        options.logger.info('stopped');
        exit(0);
      },
      (error: unknown) => {
        options.logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
