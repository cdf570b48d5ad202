import fs from 'node:fs';

/**
 * Where log lines go: a file descriptor (stdout), written asynchronously, one write at a time.
 *
 * Why not pino's default destination: on exit it flushes synchronously and, when the reader of the
 * pipe is gone (EPIPE), retries forever, so `process.exit()` never returns and the process ignores
 * SIGTERM. Here, logging can never hold the process:
 * - a write error other than EAGAIN (EPIPE when the collector or parent died, EBADF …) turns the
 *   destination off: later lines are dropped, silently, since there is nowhere to say so;
 * - a reader that stops reading makes lines queue up to `maxBufferedBytes`, then they are dropped
 *   and counted, never blocking the event loop;
 * - nothing runs at exit: `flush()` is asynchronous and whoever exits decides how long to wait.
 */
export class LogDestination {
  private queue: Buffer[] = [];
  private queuedBytes = 0;
  private writing = false;
  private broken = false;
  private drainWaiters: Array<() => void> = [];
  /** Lines dropped because the reader was too slow (the buffer was full). */
  dropped = 0;

  constructor(
    private readonly fd: number,
    private readonly maxBufferedBytes = 4 * 1024 * 1024,
  ) {}

  /** pino's destination interface: one serialized line. */
  write(line: string): boolean {
    if (this.broken) return true;
    const chunk = Buffer.from(line);
    if (this.queuedBytes + chunk.length > this.maxBufferedBytes) {
      this.dropped += 1;
      return true;
    }
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    if (!this.writing) this.writeNext();
    return true;
  }

  /** Whether a write failed for good (the reader is gone): later lines are dropped. */
  get closed(): boolean {
    return this.broken;
  }

  /** Resolves once every queued line is written, the destination broke, or `ms` passed. */
  flush(ms: number): Promise<void> {
    if (!this.writing && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.drainWaiters.push(done);
    });
  }

  private writeNext(): void {
    if (this.broken || this.queue.length === 0) {
      this.writing = false;
      return this.drained();
    }
    const chunk = this.queue.length > 1 ? Buffer.concat(this.queue.splice(0)) : this.queue.shift()!;
    this.writing = true;
    fs.write(this.fd, chunk, 0, chunk.length, null, (error, written) => {
      if (error) {
        if (error.code === 'EAGAIN') {
          // A non-blocking pipe that is full: try the same bytes again shortly.
          this.queue.unshift(chunk);
          setTimeout(() => this.writeNext(), 20).unref();
          return;
        }
        this.broken = true;
        this.queue = [];
        this.queuedBytes = 0;
        return this.writeNext();
      }
      this.queuedBytes -= written;
      if (written < chunk.length) this.queue.unshift(chunk.subarray(written));
      this.writeNext();
    });
  }

  private drained(): void {
    for (const resolve of this.drainWaiters.splice(0)) resolve();
  }
}
