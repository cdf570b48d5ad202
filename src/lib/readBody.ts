import type { IncomingMessage } from 'node:http';

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

/** Requests whose every body byte was taken from the buffer before their stream said it ended. */
const readWhole = new WeakSet<IncomingMessage>();

/**
 * Whether the request's body was read to its end: its stream ended, or `readBody` took every byte
 * its `Content-Length` declares (the stream's end may come after the answer, with nothing left to read).
 */
export function bodyReadWhole(req: IncomingMessage): boolean {
  return req.readableEnded || readWhole.has(req);
}

/**
 * The exact bytes of a request body, within `limit` bytes and `timeoutMs`: a `Content-Length`
 * above the limit is refused before anything is read, and a client that trickles its body cannot
 * hold the server until Node's own request timeout. Rejects with BodyTooLarge or BodyTimeout only.
 * Read from the stream's events with one timer: an async iterator and a race of promises cost every
 * request with a body more than its read does. A body received whole already is taken at once.
 */
export function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(new BodyTooLarge(limit));
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  // Whole already: the message ended, or every byte its `Content-Length` declares is buffered (a
  // small body's bytes are handed over, and the awaiting handler resumed, before the parser marks
  // the message complete).
  const whole = req.complete || (declared !== undefined && req.readableLength === Number(declared));
  if (whole && !req.readableFlowing) return received(req, limit);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error?: Error): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onFailure);
      req.off('close', onFailure);
      if (error) {
        // Nothing more is read: the answer goes out and the connection closes behind it.
        req.pause();
        reject(error);
      } else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer | string): void => {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size > limit) finish(new BodyTooLarge(limit));
      else chunks.push(buffer);
    };
    const onEnd = (): void => finish();
    // The stream failed ("aborted", a reset) or closed unended: the client hung up mid-body.
    const onFailure = (): void => finish(new BodyTimeout(timeoutMs));
    const timer = setTimeout(onFailure, timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onFailure);
    req.on('close', onFailure);
  });
}

/**
 * A body the server has received whole already (it came with the request's head, as a small body
 * does, and the head's handling awaited something first): taken from the stream's buffer at once,
 * with no deadline to keep nor events to wait for. Rejects with BodyTooLarge past `limit`.
 */
function received(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (req.readableLength > limit) return Promise.reject(new BodyTooLarge(limit));
  readWhole.add(req);
  // Everything buffered in one piece (a paused stream's `read()`), and the stream's end after it.
  const data = req.read() as Buffer | string | null;
  return Promise.resolve(data === null ? Buffer.alloc(0) : Buffer.isBuffer(data) ? data : Buffer.from(data));
}
