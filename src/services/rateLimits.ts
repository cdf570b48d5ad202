import type { Pool } from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { TIER_LIMITS } from '../domain/rbac';

type Tier = 1 | 2 | 3;

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

interface Limiter {
  consume(key: string): Promise<RateLimiterRes>;
}

/**
 * Per-caller, per-tenant, per-tier budgets over one-minute windows. Counters live in memory for a
 * single process, or in PostgreSQL so that every API process spends from the same budget.
 */
export class RateLimitService {
  private readonly limiters: Record<Tier, Limiter>;
  private readonly limits: Record<Tier, number>;

  constructor(options: { factor: number; pgPool?: Pool }) {
    const limit = (tier: Tier) => Math.max(1, Math.round(TIER_LIMITS[tier] * options.factor));
    this.limits = { 1: limit(1), 2: limit(2), 3: limit(3) };
    const make = (tier: Tier): Limiter => {
      const common = { points: this.limits[tier], duration: 60, keyPrefix: `tier${tier}` };
      if (!options.pgPool) return new RateLimiterMemory(common);
      return new RateLimiterPostgres({
        ...common,
        storeClient: options.pgPool,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: true,
        // If PostgreSQL is briefly unreachable, count in this process rather than fail the call.
        insuranceLimiter: new RateLimiterMemory(common),
      });
    };
    this.limiters = { 1: make(1), 2: make(2), 3: make(3) };
  }

  /** Spends one call of `callerId`'s budget in `tenantId` for `tier`. */
  async consume(tenantId: string, callerId: string, tier: Tier): Promise<RateDecision> {
    const limit = this.limits[tier];
    try {
      const res = await this.limiters[tier].consume(`${tenantId}:${callerId}`);
      return {
        allowed: true,
        limit,
        remaining: res.remainingPoints,
        retryAfterSeconds: 0,
        resetSeconds: secondsOf(res.msBeforeNext),
      };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return {
        allowed: false,
        limit,
        remaining: 0,
        retryAfterSeconds: secondsOf(rejection.msBeforeNext),
        resetSeconds: secondsOf(rejection.msBeforeNext),
      };
    }
  }
}

/** Whole seconds, at least one, so a client never retries in the same instant. */
function secondsOf(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
