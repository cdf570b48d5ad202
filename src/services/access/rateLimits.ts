import { randomUUID } from 'node:crypto';
import { TIER_LIMITS } from '../../domain/rbac';
import { type Lease, type LeaseStore, MemoryLeases } from '../../store/access/rateLimits';

type Tier = 1 | 2 | 3;

/** The window of every budget: the contract's limits are per minute. */
const WINDOW_MS = 60_000;

/**
 * The largest block a process leases is this fraction of the limit (at least one call): the most a
 * caller can lose, per process it moved away from, until the minute ends. With the contract's
 * limits (6, 20, 60) the blocks are 1, 2 and 7 calls.
 */
const LARGEST_BLOCK_SHARE = 1 / 8;

/** The outcome of one call against a caller's budget. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the budget has room again (when not allowed). */
  retryAfterSeconds: number;
  /** Seconds until the current window ends and the budget is full again. */
  resetSeconds: number;
}

/** What this process holds of one caller's budget in the current window. */
interface Allowance {
  expiresAt: number;
  /** Calls leased and not spent yet. */
  unspent: number;
  /** Calls asked of the window by every process, as of this process's last lease. */
  asked: number;
  /** The next lease asks for this many calls (doubling while this process is the caller's only one). */
  nextBlock: number;
  /** The last lease found the window spent: refuse without asking until it ends. */
  spent: boolean;
  leasing?: Promise<void>;
}

/**
 * Per-caller, per-tenant, per-tier budgets over one-minute windows, shared by every process on the
 * database. A process leases calls from the store in blocks and spends them in memory, so a caller
 * who stays with one process costs one statement per block (1, 2, 4, … calls, up to
 * LARGEST_BLOCK_SHARE of the limit), and a refused caller costs none until the minute ends. The store
 * never grants past the limit, whichever processes ask: a cluster never lets a caller over it; a
 * caller moving between processes may be refused early by the calls still leased to the others
 * (`docs/explanation/concurrency.md`, "A request's own statements").
 */
export class RateLimitService {
  private readonly limits: Record<Tier, number>;
  private readonly holder = randomUUID();
  private readonly allowances = new Map<string, Allowance>();
  private readonly fallback: LeaseStore;
  private readonly store: LeaseStore;

  constructor(
    options: { factor: number; store?: LeaseStore },
    private readonly clock: () => number = Date.now,
  ) {
    const limit = (tier: Tier) => Math.max(1, Math.round(TIER_LIMITS[tier] * options.factor));
    this.limits = { 1: limit(1), 2: limit(2), 3: limit(3) };
    this.fallback = new MemoryLeases(clock);
    this.store = options.store ?? this.fallback;
  }

  /** Spends one call of `callerId`'s budget in `tenantId` for `tier`. */
  async consume(tenantId: string, callerId: string, tier: Tier): Promise<RateDecision> {
    const limit = this.limits[tier];
    const key = `tier${tier}:${tenantId}:${callerId}`;
    for (;;) {
      const now = this.clock();
      let allowance = this.allowances.get(key);
      if (allowance && !allowance.leasing && allowance.expiresAt <= now) {
        this.allowances.delete(key);
        allowance = undefined;
      }
      if (allowance && allowance.unspent > 0) {
        allowance.unspent -= 1;
        const remaining = Math.max(0, limit - allowance.asked) + allowance.unspent;
        return decision(true, limit, remaining, allowance.expiresAt - now);
      }
      if (allowance?.spent) return decision(false, limit, 0, allowance.expiresAt - now);
      if (allowance?.leasing) {
        await allowance.leasing;
        continue;
      }
      allowance ??= this.track(key, now);
      const leasing = this.lease(key, allowance.nextBlock, limit).then((lease) =>
        grant(allowance, lease, limit),
      );
      allowance.leasing = leasing.finally(() => (allowance.leasing = undefined));
      await allowance.leasing;
    }
  }

  /** A lease from the shared store, or from this process's memory while the store does not answer. */
  private async lease(key: string, want: number, limit: number): Promise<Lease> {
    try {
      return await this.store.lease(key, want, limit, this.holder, WINDOW_MS);
    } catch {
      return this.fallback.lease(key, want, limit, this.holder, WINDOW_MS);
    }
  }

  private track(key: string, now: number): Allowance {
    if (this.allowances.size >= 10_000) {
      for (const [k, a] of this.allowances) if (!a.leasing && a.expiresAt <= now) this.allowances.delete(k);
    }
    const allowance: Allowance = { expiresAt: Infinity, unspent: 0, asked: 0, nextBlock: 1, spent: false };
    this.allowances.set(key, allowance);
    return allowance;
  }
}

/** Takes a lease into the allowance; the next block doubles what this one got, up to the largest. */
function grant(allowance: Allowance, lease: Lease, limit: number): void {
  allowance.expiresAt = lease.expiresAt;
  allowance.asked = lease.asked;
  allowance.unspent = lease.granted;
  allowance.spent = lease.asked >= limit;
  const largest = Math.max(1, Math.floor(limit * LARGEST_BLOCK_SHARE));
  allowance.nextBlock = Math.min(largest, Math.max(1, lease.granted) * 2);
}

function decision(allowed: boolean, limit: number, remaining: number, msLeft: number): RateDecision {
  const seconds = secondsOf(msLeft);
  return { allowed, limit, remaining, retryAfterSeconds: allowed ? 0 : seconds, resetSeconds: seconds };
}

/** Whole seconds, at least one, so a client never retries in the same instant. */
function secondsOf(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
