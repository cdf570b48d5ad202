import { parseRetryAfter } from '../../lib/retryAfter';
import { PlatformError } from '../port';
import type { GraphResponse } from './types';

// Graph says these mean "not processed, try again later" (throttling, overload, gateway timeout).
export const RETRYABLE_STATUS = new Set([429, 503, 504]);

/** A Graph error answer, with Graph's own error code and the request id support will ask for. */
export class GraphError extends PlatformError {
  constructor(
    message: string,
    status: number,
    transient: boolean,
    readonly code: string,
    readonly requestId: string | undefined,
    retryAfterMs?: number,
  ) {
    super(message, status, transient, retryAfterMs);
    this.name = 'GraphError';
  }
}

/** The GraphError of an error answer, transient (with its `Retry-After`) for throttling and outages. */
export function toGraphError(method: string, url: string, response: GraphResponse<unknown>): GraphError {
  const body = response.body as { error?: { code?: unknown; message?: unknown } } | undefined;
  const code = typeof body?.error?.code === 'string' ? body.error.code : `http${response.status}`;
  const detail = typeof body?.error?.message === 'string' ? body.error.message : 'no details';
  const requestId = response.headers['request-id'];
  const transient = RETRYABLE_STATUS.has(response.status);
  const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
  const message =
    `Microsoft Graph answered ${response.status} ${code} to ${method} ${displayPath(url)}: ${detail}` +
    (requestId ? ` (request-id ${requestId})` : '');
  return new GraphError(
    message,
    response.status,
    transient,
    code,
    requestId,
    transient ? retryAfterMs : undefined,
  );
}

/** The path and query of a Graph URL, for messages and logs (never the host's credentials, never a token). */
export function displayPath(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}
