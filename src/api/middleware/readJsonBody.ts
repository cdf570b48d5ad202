import type { IncomingMessage } from 'node:http';
import { ValidationFailed } from '../../domain/errors';
import { HttpError } from '../errors';
import { refusePrototypeKeys } from './prototypeKeys';

/** Bodies above this many bytes are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads and parses a JSON request body: 415 unless `Content-Type` is JSON, 413 past the size
 * limit (checked against `Content-Length` first, then while streaming), 400 for malformed JSON
 * and for `__proto__` keys.
 * An empty body reads as `undefined`.
 *
 * @example
 * const body = await readJsonBody(req); // unknown; validate it with the route's schema
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const declared = req.headers['content-length'];
  const hasBody =
    (declared !== undefined && declared !== '0') || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new HttpError(415, 'unsupportedMediaType', 'Send the request body as application/json.');
  }
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
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

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'payloadTooLarge', `The request body is larger than ${limit} bytes.`);
}
