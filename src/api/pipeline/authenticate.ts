import type { Caller } from '../../domain/caller';
import { Forbidden } from '../../domain/errors';
import { bypassesCondition, isGranted, type OperationPolicy } from '../../domain/rbac';
import { type Authenticator, bearerTokenOf } from '../middleware/authenticate';
import type { SignedInPerson } from '../../domain/delegation';
import { actorOf } from '../../domain/audit';
import type { RequestState } from './state';

/** Who is calling, as the token says, before the operation's policy is applied. */
export type Identity = Omit<Caller, 'privileged'>;

/** What the authenticate stage establishes: the identity, and the caller the handler acts for. */
export interface Authenticated {
  identity: Identity;
  caller: Caller;
  /** A person caller's own sign-in (their bearer token), for operations that act on their behalf. */
  person?: SignedInPerson;
}

/**
 * Stage 1, authenticate: verifies the bearer token (401) and checks the operation's roles (403).
 * Answers nothing itself: it throws, and the error stage maps.
 */
export async function authenticate(
  authenticator: Authenticator,
  authorization: string | undefined,
  policy: OperationPolicy,
  state: RequestState,
): Promise<Authenticated> {
  return authorise(await authenticator.authenticate(authorization), authorization, policy, state);
}

/**
 * The authenticate stage for an identity its token was verified for already, in the same request
 * (an MCP request's tool call, whose endpoint verified the caller's token before reading the body):
 * the operation's roles (403), and the caller the handler acts for.
 */
export function authorise(
  identity: Identity,
  authorization: string | undefined,
  policy: OperationPolicy,
  state: RequestState,
): Authenticated {
  state.actor = actorOf(identity);
  if (!isGranted(policy, identity.roles)) {
    throw new Forbidden(`This operation needs one of these roles: ${policy.roles.join(', ')}.`);
  }
  const caller: Caller = {
    ...identity,
    privileged: bypassesCondition(policy, identity.roles),
    requestId: state.requestId,
  };
  state.caller = caller;
  return identity.kind === 'user'
    ? { identity, caller, person: { userId: identity.id, assertion: bearerTokenOf(authorization) } }
    : { identity, caller };
}
