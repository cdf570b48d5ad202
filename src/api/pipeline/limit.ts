import { RateLimited } from '../../domain/errors';
import type { OperationPolicy } from '../../domain/rbac';
import type { RateLimitService } from '../../services/access/rateLimits';
import type { Authenticator } from '../middleware/authenticate';
import { isChargedTurn } from '../middleware/chargedTurn';
import { budgetHolderOf, type OnBehalfOfPolicy } from '../middleware/onBehalfOf';
import type { Identity } from './authenticate';
import type { RequestState } from './state';

/** The headers the limit stage reads. */
export interface LimitHeaders {
  onBehalfOf?: string | string[];
  chargedTurn?: string | string[];
}

/**
 * Stage 2, limit: spends one call of the budget (the caller's, or the person's the bot calls for,
 * `X-Steward-On-Behalf-Of`: 403 or 400 when that header is not allowed), gives the answer the
 * `X-RateLimit-*` headers, and throws a 429 when the budget is spent. A call of a turn the bot
 * already charged to the person (`X-Steward-Charged-Turn`, carrying the bot's app token) spends
 * nothing and carries no `X-RateLimit-*` headers.
 */
export async function limit(
  deps: {
    rateLimits: RateLimitService;
    tenantId: string;
    onBehalfOf?: OnBehalfOfPolicy;
    authenticator: Authenticator;
  },
  identity: Identity,
  headers: LimitHeaders,
  policy: OperationPolicy,
  state: RequestState,
): Promise<void> {
  if (
    await isChargedTurn(
      identity,
      headers.chargedTurn,
      headers.onBehalfOf,
      deps.authenticator,
      deps.onBehalfOf,
    )
  )
    return;
  const holder = await budgetHolderOf(identity, headers.onBehalfOf, deps.onBehalfOf);
  state.onBehalfOf = holder.onBehalfOf;
  const decision = await deps.rateLimits.consume(deps.tenantId, holder.id, policy.tier);
  state.headers.push(
    'X-RateLimit-Limit',
    String(decision.limit),
    'X-RateLimit-Remaining',
    String(decision.remaining),
    'X-RateLimit-Reset',
    String(decision.resetSeconds),
  );
  if (!decision.allowed) {
    throw new RateLimited(
      `Too many calls: ${decision.limit} a minute are allowed for this operation.`,
      decision.retryAfterSeconds,
    );
  }
}
