import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake API received. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How the fake answers one request. */
export type Reply = (req: IncomingMessage, res: ServerResponse) => void;

/** A `node:http` server on 127.0.0.1 answering requests with `replies` in turn (the last one repeats). */
export interface FakeApi {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a fake API on a loopback port. */
export async function startFakeApi(replies: Reply[]): Promise<FakeApi> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const reply = replies[Math.min(seen.length, replies.length) - 1];
      reply?.(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers `status` with `body` as JSON. */
export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };

/** Answers an ApiError, as Steward does. */
export const apiError = (status: number, code: string, headers: Record<string, string> = {}): Reply =>
  json(
    status,
    {
      error: {
        code,
        message: `fake ${code}`,
        innerError: { date: new Date().toISOString(), 'request-id': 'fake-request-id' },
      },
    },
    { 'request-id': 'fake-request-id', ...headers },
  );

/** Answers with an empty body. */
export const empty =
  (status: number): Reply =>
  (_req, res) => {
    res.writeHead(status, { 'content-length': '0' });
    res.end();
  };

/** Drops the connection without answering. */
export const drop: Reply = (req) => req.socket.destroy();

/** Never answers. */
export const hang: Reply = () => undefined;
