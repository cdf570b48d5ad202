/**
 * Refused calls (401, 403) per source: a budget per minute, and their security records in
 * aggregate. Past the budget, what would be refused is answered 429 and nothing is recorded; a
 * call whose token verifies and grants the operation is still served, so one client flooding
 * forged tokens from a shared address (a NAT, an untrusted proxy) locks nobody else out. The
 * flood's cost is then its token checks: a verified token is found in the authenticator's cache,
 * a forged one costs one signature check (bench/refusalFlood.js measures both).
 *
 * Memory: the sources of the current minute only, at most MAX_SOURCES of them; once that many
 * addresses have been refused in one minute, any other address's refusals are answered 429 and
 * recorded nowhere (valid calls are still served), so neither memory nor the table grows with the
 * number of addresses an attacker can spread over.
 *
 * Records: exactly one per source, reason and minute, with the count. The audit table is
 * append-only, so a count cannot grow in one of its rows; and a count kept in memory and appended
 * when the minute closes would be one record per process (several API processes share a
 * database), lost in a crash. So each refusal is one upsert into `refusal_counts` (one row per
 * tenant, source, status, actor, reason and minute; triggers let a row's count only grow), which
 * the security trail reads as its records (`store/audit.ts`). The count is exact across processes
 * the moment the refused call is answered, and nothing waits in memory to be written at shutdown.
 * The actor is part of the key: two people refused for the same reason stay two records.
 *
 * Budget: each process counts the refusals it answers, and learns from every upsert the source's
 * total in the database, all processes together; the source is blocked when either reaches the
 * budget. The check before each call therefore reads only memory, and a source that spreads its
 * calls over N processes gets about the budget, at most N − 1 more (each process blocks at its next
 * refusal after the total is reached), plus the calls already in flight. If the database cannot be
 * written, the process's own count still limits the source.
 */
import type { AuditActor } from '../../domain/audit';
import type { RefusalRepository } from '../../store/access/refusals';

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

const ANONYMOUS: AuditActor = { id: 'anonymous', type: 'anonymous' };

/** The most sources counted in one minute; refusals from any further one are not recorded. */
export const MAX_SOURCES = 10_000;

export class RefusalGuard {
  /** Refusals per source in `minute` (the highest of this process's count and the shared total). */
  private counts = new Map<string, number>();
  private minute = 0;

  constructor(
    private readonly options: {
      perMinute: number;
      tenantId: string;
      store?: RefusalRepository;
      onError: (error: unknown) => void;
      now?: () => Date;
      /** The most sources counted in one minute (default MAX_SOURCES). */
      maxSources?: number;
    },
  ) {}

  /**
   * Seconds to wait when `source` has spent its refusals for this minute (or the minute already
   * counts MAX_SOURCES other sources), else 0. Asked only for a call about to be refused.
   */
  blockedFor(source: string): number {
    const now = this.now().getTime();
    const counts = this.countsOf(now);
    const count = counts.get(source);
    const full = count === undefined && counts.size >= (this.options.maxSources ?? MAX_SOURCES);
    if (!full && (count ?? 0) < this.options.perMinute) return 0;
    return Math.max(1, Math.ceil((this.minute + 1) * 60 - now / 1000));
  }

  /** Spends one refusal of the source's budget and counts it in its security record. */
  async refused(refusal: Refusal): Promise<void> {
    const at = this.now();
    const counts = this.countsOf(at.getTime());
    counts.set(refusal.source, (counts.get(refusal.source) ?? 0) + 1);
    const { store } = this.options;
    if (!store) return;
    try {
      const total = await store.add(
        {
          tenantId: this.options.tenantId,
          source: refusal.source,
          status: refusal.status,
          reason: refusal.reason,
          actor: refusal.actor ?? ANONYMOUS,
          action: refusal.status === 401 ? 'authentication_failed' : 'access_denied',
          target: { type: 'operation', id: refusal.operationId },
          requestId: refusal.requestId,
          details: {
            status: refusal.status,
            method: refusal.method,
            path: refusal.path,
            reason: refusal.reason,
            source: refusal.source,
          },
        },
        at,
      );
      // The map may have moved to a later minute while the upsert ran: that minute has its own total.
      if (counts === this.counts)
        counts.set(refusal.source, Math.max(total, counts.get(refusal.source) ?? 0));
    } catch (error) {
      this.options.onError(error);
    }
  }

  /** This minute's counts; a new minute starts from an empty map, so memory holds one minute's sources. */
  private countsOf(now: number): Map<string, number> {
    const minute = Math.floor(now / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      this.counts = new Map();
    }
    return this.counts;
  }

  private now(): Date {
    return (this.options.now ?? (() => new Date()))();
  }
}
