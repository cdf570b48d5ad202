import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { ApiError } from '../../contract';
import { RateLimited } from '../../domain/errors';
import { clientAddress } from '../../lib/network';
import type { RefusalGuard } from '../../services/access/refusals';
import { toApiError } from '../errors';
import type { Route } from '../route';
import type { RequestState } from './state';

const NONE: ReadonlySet<string> = new Set();

/** An error as it is answered. */
export interface MappedError {
  status: number;
  body: ApiError;
  headers: Record<string, string>;
}

/** What the error stage needs of the server. */
export interface ErrorStageDeps {
  logger: Pick<Logger, 'error'>;
  refusals?: Pick<RefusalGuard, 'blockedFor' | 'refused'>;
  trustedProxies?: ReadonlySet<string>;
}

/**
 * Stage 5, map errors: any failure of the stages before becomes an ApiError (its status from the
 * error list). A 401 or 403 is counted against the caller's address, and an address past its
 * refusals is answered 429 instead, with nothing recorded; a 5xx is logged with its error.
 */
export async function mapError(
  error: unknown,
  route: Pick<Route, 'operationId'> | { operationId: string },
  req: IncomingMessage,
  state: RequestState,
  deps: ErrorStageDeps,
): Promise<MappedError> {
  const ids = { requestId: state.requestId, clientRequestId: state.clientRequestId };
  let mapped = toApiError(error, ids);
  const refused = mapped.status === 401 || mapped.status === 403;
  const source = refused ? sourceOf(req, deps.trustedProxies) : '';
  // A call whose token verifies and grants the operation is served whatever its address.
  const blocked = refused ? (deps.refusals?.blockedFor(source) ?? 0) : 0;
  if (blocked > 0)
    mapped = toApiError(
      new RateLimited('Too many refused calls from this address: wait before trying again.', blocked),
      ids,
    );
  if (mapped.status >= 500)
    deps.logger.error(
      { err: error, requestId: state.requestId, operation: route.operationId },
      'request failed',
    );
  if (mapped.status === 401 || mapped.status === 403) {
    await deps.refusals?.refused({
      source,
      status: mapped.status,
      operationId: route.operationId,
      method: req.method ?? '',
      path: new URL(req.url ?? '/', 'http://localhost').pathname,
      reason: mapped.body.error.message,
      requestId: state.requestId,
      actor: state.actor,
    });
  }
  return mapped;
}

/** The client's address: the peer, or the forwarded one when the peer is a trusted proxy. */
function sourceOf(req: IncomingMessage, trustedProxies: ReadonlySet<string> | undefined): string {
  return clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxies ?? NONE);
}
