/**
 * Refused calls (401, 403) per source: a budget per minute (429 past it, before any token is
 * verified or anything recorded), and their security records in aggregate.
 *
 * The audit table is append-only (its triggers refuse UPDATE and DELETE), so a count cannot be
 * kept in a row and incremented. Instead the first few refusals of a source, action, operation and
 * minute are recorded at once, each with its request id (what an investigator follows); the rest of
 * that minute are counted in memory, and one record with the count is appended when the minute
 * is over (or when the process stops). A flood therefore writes a bounded number of rows per source
 * and minute, whatever its rate. What is lost on a crash is at most one minute's count.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AuditActor } from '../domain/audit';
import type { AuditLog } from './audit';

/** Refusals of one key recorded one by one in a minute before the rest are only counted. */
export const RECORDED_ONE_BY_ONE = 5;

/** One refused call, as the server saw it. */
export interface Refusal {
  source: string;
  status: number;
  operationId: string;
  method: string;
  path: string;
  reason: string;
  requestId: string;
  actor?: AuditActor;
}

interface Window {
  minute: number;
  first: Refusal;
  seen: number;
}

export class RefusalGuard {
  private readonly limiter: RateLimiterMemory;
  private readonly windows = new Map<string, Window>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly options: {
      perMinute: number;
      audit?: AuditLog;
      onError: (error: unknown) => void;
      now?: () => number;
    },
  ) {
    this.limiter = new RateLimiterMemory({ points: options.perMinute, duration: 60, keyPrefix: 'refusals' });
    this.timer = setInterval(() => void this.flush(false), 10_000);
    this.timer.unref();
  }

  /** Seconds to wait when `source` has spent its refusals for this minute, else 0. */
  async blockedFor(source: string): Promise<number> {
    const res = await this.limiter.get(source);
    if (!res || res.consumedPoints < this.options.perMinute) return 0;
    return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  }

  /** Spends one refusal of the source's budget and records it (at once, or in the minute's count). */
  async refused(refusal: Refusal): Promise<void> {
    await this.limiter.consume(refusal.source).catch((error: unknown) => {
      if (!(error instanceof RateLimiterRes)) this.options.onError(error);
    });
    const minute = Math.floor(this.now() / 60_000);
    const key = [refusal.source, refusal.status, refusal.operationId, minute].join('|');
    const window = this.windows.get(key) ?? { minute, first: refusal, seen: 0 };
    window.seen += 1;
    this.windows.set(key, window);
    if (window.seen <= RECORDED_ONE_BY_ONE) await this.write(refusal, 1, new Date(this.now()));
  }

  /** Appends the counts of finished minutes (all of them when `everything`, e.g. at shutdown). */
  async flush(everything: boolean): Promise<void> {
    const current = Math.floor(this.now() / 60_000);
    for (const [key, window] of this.windows) {
      if (!everything && window.minute >= current) continue;
      this.windows.delete(key);
      const counted = window.seen - RECORDED_ONE_BY_ONE;
      if (counted > 0) await this.write(window.first, counted, new Date((window.minute + 1) * 60_000 - 1));
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush(true);
  }

  private async write(refusal: Refusal, count: number, at: Date): Promise<void> {
    if (!this.options.audit) return;
    try {
      await this.options.audit.record(
        undefined,
        {
          trail: 'security',
          action: refusal.status === 401 ? 'authentication_failed' : 'access_denied',
          actor: refusal.actor ?? { id: 'anonymous', type: 'anonymous' },
          target: { type: 'operation', id: refusal.operationId },
          outcome: 'denied',
          requestId: count > 1 ? null : refusal.requestId,
          details: {
            status: refusal.status,
            method: refusal.method,
            path: refusal.path,
            reason: refusal.reason,
            source: refusal.source,
            count,
            ...(count > 1 ? { aggregated: 'further refusals of this source, operation and minute' } : {}),
          },
        },
        at,
      );
    } catch (error) {
      this.options.onError(error);
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
