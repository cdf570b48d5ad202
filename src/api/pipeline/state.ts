import type { IncomingMessage } from 'node:http';
import type { Caller } from '../../domain/caller';
import type { AuditActor } from '../../domain/audit';

/**
 * What the stages learn about one request as it goes through them; the error and log stages read
 * it, so a refusal still names who was refused and the log says who called.
 */
export interface RequestState {
  readonly requestId: string;
  readonly clientRequestId: string | undefined;
  /** When the request reached the server (`process.hrtime.bigint()`). */
  readonly started: bigint;
  /** Who the token names, once it verified (before the roles are checked). */
  actor?: AuditActor;
  /** The caller the handler acts for, once authorised. */
  caller?: Caller;
  /** The person the bot called for (`X-Steward-On-Behalf-Of`). */
  onBehalfOf?: string;
  /** The status answered (500 until one is). */
  status: number;
  /**
   * Headers the stages give the answer, as a flat list of names and values: written with the
   * answer's own in one `writeHead`, which costs less than a `setHeader` each.
   */
  readonly headers: string[];
}

/** A new request's state, with its ids. */
export function requestState(requestId: string, clientRequestId: string | undefined): RequestState {
  const headers = ['request-id', requestId];
  if (clientRequestId) headers.push('client-request-id', clientRequestId);
  return { requestId, clientRequestId, started: process.hrtime.bigint(), status: 500, headers };
}

/** `client-request-id` is echoed when it is a reasonable id (1–128 visible ASCII characters). */
export function clientRequestIdOf(req: IncomingMessage): string | undefined {
  const value = req.headers['client-request-id'];
  if (typeof value !== 'string' || value.length === 0 || value.length > 128) return undefined;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x21 || c > 0x7e) return undefined;
  }
  return value;
}
