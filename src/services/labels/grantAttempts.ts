import type { KeptGrant } from '../../domain/delegation';
import { DelegationUnavailable, PlatformBusy, PlatformError } from '../../domain/errors';
import type { Platform } from '../../platform/port';

/** An access token this close to its end is renewed before it is used. */
const RENEW_BEFORE_MS = 60_000;

/**
 * Puts the label on with `attempt.grant`, renewing its token with its refresh token first when it
 * has lapsed, or once when Graph answers 401 (the token expired or was revoked early); the renewed
 * grant replaces `attempt.grant`. Undefined when applied; else why not, `final` when no other
 * person's grant would change it (the label itself was refused, not the person). `PlatformBusy`
 * passes through.
 */
export async function tryGrant(
  platform: Pick<Platform, 'delegation' | 'teams'>,
  teamId: string,
  labelId: string,
  attempt: { grant: KeptGrant },
  now: Date,
): Promise<{ reason: string; final?: boolean } | undefined> {
  if (attempt.grant.keptUntil.getTime() <= now.getTime())
    return { reason: 'The delegated grant was kept as long as it may be and has lapsed.' };
  let renewed = false;
  let renewNext = attempt.grant.expiresAt.getTime() - RENEW_BEFORE_MS <= now.getTime();
  for (;;) {
    try {
      if (renewNext) {
        renewNext = false;
        renewed = true;
        const fresh = await platform.delegation.refresh(attempt.grant);
        attempt.grant = { ...fresh, as: attempt.grant.as, keptUntil: attempt.grant.keptUntil };
      }
      await platform.teams.applyLabel(teamId, labelId, attempt.grant);
      return undefined;
    } catch (error) {
      if (error instanceof DelegationUnavailable) return { reason: error.message };
      if (error instanceof PlatformBusy || !(error instanceof PlatformError)) throw error;
      if (error.status === 401 && !renewed && attempt.grant.refreshToken) {
        renewNext = true;
        continue;
      }
      return {
        reason: `The platform refused it: ${error.message}`,
        final: error.status !== 401 && error.status !== 403,
      };
    }
  }
}

/**
 * The planned owners' grants first (Graph takes those), then an approver's (Graph takes it from a
 * groups administrator), then the rest, each kind in the order kept.
 */
export function ownersFirst(
  grants: readonly KeptGrant[],
  owners: readonly string[] | undefined,
): KeptGrant[] {
  const rank = (g: KeptGrant) => (owners?.includes(g.userId) ? 0 : g.as === 'approver' ? 1 : 2);
  return [...grants].sort((a, b) => rank(a) - rank(b));
}

/** Whose authority a grant carries, in a log's words. */
export function whose(grant: KeptGrant): string {
  return grant.as === 'approver'
    ? "The approver's authority"
    : grant.as === 'caller'
      ? "The caller's authority"
      : "The requester's authority";
}
