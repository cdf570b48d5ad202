import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../../src/lib/readBody';

/** A loopback server that reads each body with `read` and answers what came of it. */
async function serve(read: (req: IncomingMessage) => Promise<Buffer>) {
  const server = http.createServer((req, res) => {
    read(req).then(
      (body) => res.end(`read ${body.length}: ${body.toString('utf8')}`),
      (error: Error) => {
        res.setHeader('connection', 'close');
        res.end(`${error.name}: ${error.message}`);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Sends `chunks` (a pause between them), with `headers`; resolves with the answer's body. */
function send(
  port: number,
  chunks: string[],
  headers: Record<string, string> = {},
  pauseMs = 0,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    void (async () => {
      for (const chunk of chunks) {
        if (req.destroyed) return;
        req.write(chunk);
        if (pauseMs) await new Promise((wait) => setTimeout(wait, pauseMs));
      }
      if (!req.destroyed) req.end();
    })();
  });
}

/** Posts on one kept-alive connection of `agent`: the answer's text and the socket it came on. */
function postOn(agent: http.Agent, port: number) {
  return (body: string, headers: Record<string, string> = {}) =>
    new Promise<{ text: string; socket: unknown }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', agent, headers });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ text, socket: req.socket }));
      });
      req.on('error', reject);
      req.end(body);
    });
}

/** A server that reads each body after `pause`, failing the read when it set a deadline timer. */
async function serveTimed(pause: () => Promise<unknown>, limit: number, complete: boolean[]) {
  const timers = jest.spyOn(global, 'setTimeout');
  const server = await serve(async (req) => {
    await pause();
    complete.push(req.complete);
    const before = timers.mock.calls.length;
    const body = await readBody(req, limit, 5_000);
    if (timers.mock.calls.length !== before) throw new Error('a deadline was set');
    return body;
  });
  return { ...server, restore: () => timers.mockRestore() };
}

describe('readBody on a loopback server', () => {
  test('the exact bytes of a body within the limit, chunked or not', async () => {
    const server = await serve((req) => readBody(req, 16, 5_000));
    try {
      expect(await send(server.port, ['{"a":', '"é"}'])).toBe('read 10: {"a":"é"}');
      expect(await send(server.port, ['0123456789abcdef'], { 'content-length': '16' })).toBe(
        'read 16: 0123456789abcdef',
      );
      expect(await send(server.port, [])).toBe('read 0: ');
    } finally {
      await server.close();
    }
  });

  test('a body received with its head is read from the buffer, no timer set; the connection goes on', async () => {
    const whole: boolean[] = [];
    // Read as the API reads it, after the handler awaited something: the body has arrived by then.
    const server = await serveTimed(() => new Promise((resolve) => setImmediate(resolve)), 16, whole);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const post = postOn(agent, server.port);
      const first = await post('{"a":"é"}');
      const second = await post('0123456789abcdef');
      const third = await post('0123456789abcdefg', { 'transfer-encoding': 'chunked' });
      expect([first.text, second.text, third.text]).toEqual([
        'read 10: {"a":"é"}',
        'read 16: 0123456789abcdef',
        'BodyTooLarge: The request body is larger than 16 bytes.',
      ]);
      expect(whole).toEqual([true, true, true]);
      // Read to its end, each request left its connection to the next one.
      expect(second.socket).toBe(first.socket);
    } finally {
      server.restore();
      agent.destroy();
      await server.close();
    }
  });

  test('a body whose declared bytes all came is read at once, before the parser marks it complete', async () => {
    const complete: boolean[] = [];
    // After one microtask (an identity already verified): the bytes are buffered, the message not
    // yet marked complete.
    const server = await serveTimed(() => Promise.resolve(), 64, complete);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const post = postOn(agent, server.port);
      const first = await post('{"jsonrpc":"2.0","id":1}', { 'content-length': '24' });
      const second = await post('{"jsonrpc":"2.0","id":2}', { 'content-length': '24' });
      expect([first.text, second.text]).toEqual([
        'read 24: {"jsonrpc":"2.0","id":1}',
        'read 24: {"jsonrpc":"2.0","id":2}',
      ]);
      expect(complete).toContain(false);
      expect(second.socket).toBe(first.socket);
    } finally {
      server.restore();
      agent.destroy();
      await server.close();
    }
  });

  test('a body past the limit is BodyTooLarge: by its Content-Length, or while it streams', async () => {
    const server = await serve((req) => readBody(req, 16, 5_000));
    try {
      const refused = 'BodyTooLarge: The request body is larger than 16 bytes.';
      expect(await send(server.port, ['x'.repeat(17)], { 'content-length': '17' })).toBe(refused);
      expect(await send(server.port, ['x'.repeat(10), 'x'.repeat(10)])).toBe(refused);
    } finally {
      await server.close();
    }
  });

  test('a body that trickles past the deadline is BodyTimeout', async () => {
    const server = await serve((req) => readBody(req, 1_000, 100));
    try {
      const started = Date.now();
      const answer = await send(server.port, ['a', 'b', 'c', 'd', 'e', 'f'], {}, 60);
      expect(answer).toBe('BodyTimeout: The request body did not arrive completely within 0.1 s.');
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await server.close();
    }
  });
});
