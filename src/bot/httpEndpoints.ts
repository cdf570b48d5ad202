import type { IncomingMessage, ServerResponse } from 'node:http';
import { type BodyTimeout, readBody } from '../lib/readBody';

/** Largest body the bot's endpoints read: activities and deliveries are far smaller. */
export const MAX_BODY_BYTES = 1024 * 1024;

export { BodyTimeout, BodyTooLarge } from '../lib/readBody';

/**
 * The exact bytes of a request body (a signature is computed over them, not over re-encoded JSON),
 * within `limit` bytes and `timeoutMs` (`STEWARD_BODY_TIMEOUT_MS`, as for the API); rejects with
 * BodyTooLarge or BodyTimeout.
 */
export function readRawBody(
  req: IncomingMessage,
  timeoutMs: number,
  limit = MAX_BODY_BYTES,
): Promise<Buffer> {
  return readBody(req, limit, timeoutMs);
}

/** Answers 408 and closes the connection: the rest of the body is never read. */
export function answerTimeout(res: ServerResponse, timeout: BodyTimeout): void {
  res.setHeader('connection', 'close');
  answer(res, 408, errorBody('requestTimeout', timeout.message));
}

/** Answers with a JSON body (or none). */
export function answer(res: ServerResponse, status: number, body?: unknown): void {
  if (res.headersSent) return;
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...(text ? { 'content-type': 'application/json; charset=utf-8' } : {}),
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** A short JSON error body, in the API's error shape. */
export function errorBody(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}
