import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest body the bot's endpoints read: activities and deliveries are far smaller. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Raised when a body is larger than {@link MAX_BODY_BYTES}. */
export class BodyTooLarge extends Error {}

/** The exact bytes of a request body (a signature is computed over them, not over re-encoded JSON). */
export async function readRawBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
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
