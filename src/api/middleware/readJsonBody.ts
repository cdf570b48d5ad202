import type { IncomingMessage } from 'node:http';
import { ValidationFailed } from '../../domain/errors';
import { excessiveNesting, MAX_JSON_DEPTH } from '../../lib/jsonDepth';
import { BodyTimeout, BodyTooLarge, readBody } from '../../lib/readBody';
import { HttpError } from '../errors';
import { refusePrototypeKeys } from './prototypeKeys';

/** Bodies above this many bytes are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads and parses a JSON request body: 415 unless `Content-Type` is JSON, 413 past the size
 * limit (checked against `Content-Length` first, then while streaming), 400 for malformed JSON
 * or JSON nested deeper than `MAX_JSON_DEPTH` (checked on the text, before anything walks it),
 * and for `__proto__` keys.
 * An empty body reads as `undefined`.
 *
 * @example
 * const body = await readJsonBody(req, config.bodyTimeoutMs); // unknown; validate it with the route's schema
 */
export async function readJsonBody(
  req: IncomingMessage,
  /** A body not fully received this long after it is asked for is a 408 (`STEWARD_BODY_TIMEOUT_MS`). */
  timeoutMs: number,
  limit = MAX_BODY_BYTES,
): Promise<unknown> {
  const declared = req.headers['content-length'];
  const hasBody =
    (declared !== undefined && declared !== '0') || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new HttpError('unsupportedMediaType', 'Send the request body as application/json.');
  }
  const text = (await readWithin(req, limit, timeoutMs)).toString('utf8');
  if (text.trim() === '') return undefined;
  const tooDeep = excessiveNesting(text);
  if (tooDeep >= 0) {
    throw new ValidationFailed('The request body is nested too deeply.', [
      {
        code: 'nestingTooDeep',
        target: 'body',
        message: `JSON may nest at most ${MAX_JSON_DEPTH} levels; level ${MAX_JSON_DEPTH + 1} opens at byte ${tooDeep}.`,
      },
    ]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ValidationFailed('The request body is not valid JSON.', [
      { code: 'malformedJson', target: 'body', message: (error as Error).message },
    ]);
  }
  refusePrototypeKeys(value, text);
  return value;
}

/**
 * The body's bytes, within `limit` bytes (413) and `timeoutMs` (408). A client that stops sending,
 * or goes away mid-body, is the client's failure (408), not the server's: the socket is closed
 * behind the answer.
 */
async function readWithin(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  try {
    return await readBody(req, limit, timeoutMs);
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new HttpError('payloadTooLarge', error.message);
    if (error instanceof BodyTimeout) throw new HttpError('requestTimeout', error.message);
    throw error;
  }
}
