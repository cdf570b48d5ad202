import type { IncomingMessage } from 'node:http';
import { withDeadline } from './deadline';

/** A request body larger than the reader's limit (said by `Content-Length`, or found while reading). */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes.`);
    this.name = 'BodyTooLarge';
  }
}

/** A request body not received completely within its deadline, or cut off by a client that hung up. */
export class BodyTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The request body did not arrive completely within ${timeoutMs / 1000} s.`);
    this.name = 'BodyTimeout';
  }
}

/**
 * The exact bytes of a request body, within `limit` bytes and `timeoutMs`: a `Content-Length`
 * above the limit is refused before anything is read, and a client that trickles its body cannot
 * hold the server until Node's own request timeout. Rejects with BodyTooLarge or BodyTimeout only.
 */
export async function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw new BodyTooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  const read = (async () => {
    for await (const chunk of req as AsyncIterable<Buffer | string>) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size > limit) throw new BodyTooLarge(limit);
      chunks.push(buffer);
    }
  })();
  try {
    await withDeadline(read, timeoutMs, () => new BodyTimeout(timeoutMs));
    return Buffer.concat(chunks);
  } catch (error) {
    // The stream failed ("aborted", a reset): the client hung up before its body was complete.
    throw error instanceof BodyTooLarge ? error : new BodyTimeout(timeoutMs);
  }
}
