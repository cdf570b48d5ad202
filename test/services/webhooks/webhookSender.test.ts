import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DeliveryFailed,
  type HostResolver,
  WebhookSender,
} from '../../../src/services/webhooks/webhookSender';

/**
 * The HTTP side of deliveries, against loopback servers only: redirects are not followed, an
 * attempt has a deadline, the answer is read up to a cap, and host names connect to the address
 * the check approved (resolved once, by the check itself).
 */
describe('webhook sender', () => {
  let server: Server;
  let port: number;
  const hits: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      req.resume();
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/target` });
        res.end();
      } else if (req.url === '/hang') {
        // Never answers.
      } else if (req.url === '/flood') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 1);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      } else {
        res.writeHead(202);
        res.end('accepted');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => hits.splice(0));

  const sender = (options: { allowLoopback?: boolean; timeoutMs?: number; resolve?: HostResolver } = {}) =>
    new WebhookSender({
      policy: { allowLoopback: options.allowLoopback ?? true },
      timeoutMs: options.timeoutMs ?? 2000,
      maxResponseBytes: 1024,
      resolve: options.resolve,
    });
  const failure = async (promise: Promise<unknown>): Promise<DeliveryFailed> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DeliveryFailed);
    return error as DeliveryFailed;
  };

  test('answers with the status and the time it took', async () => {
    const s = sender();
    const sent = await s.send(`http://127.0.0.1:${port}/ok`, { 'content-type': 'application/json' }, '{}');
    expect(sent.statusCode).toBe(202);
    expect(sent.responseMs).toBeGreaterThanOrEqual(0);
    await s.close();
  });

  test('a redirect is an answer like any other, never followed', async () => {
    const s = sender();
    const sent = await s.send(`http://127.0.0.1:${port}/redirect`, {}, '{}');
    expect(sent.statusCode).toBe(302);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hits).toEqual(['/redirect']);
    await s.close();
  });

  test('an attempt that gets no answer in time fails, retryably', async () => {
    const s = sender({ timeoutMs: 300 });
    const started = Date.now();
    const error = await failure(s.send(`http://127.0.0.1:${port}/hang`, {}, '{}'));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('No answer within 300 ms.');
    await s.close();
  });

  test('an endless answer is read up to the cap, then dropped', async () => {
    const s = sender({ timeoutMs: 5000 });
    const started = Date.now();
    const sent = await s.send(`http://127.0.0.1:${port}/flood`, {}, '{}');
    expect(sent.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);
    await s.close();
  });

  test('a refused connection fails retryably', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const s = sender();
    const error = await failure(s.send(`http://127.0.0.1:${freePort}/`, {}, '{}'));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/ECONNREFUSED/);
    await s.close();
  });

  test('a host name connects to the address its one resolution approved', async () => {
    const lookups: string[] = [];
    const s = sender({
      resolve: async (host) => {
        lookups.push(host);
        return ['127.0.0.1'];
      },
    });
    expect((await s.send(`http://localhost:${port}/named`, {}, '{}')).statusCode).toBe(202);
    expect(lookups).toEqual(['localhost']);
    expect(hits).toEqual(['/named']);
    await s.close();
  });

  test.each([
    ['a private address', ['10.0.0.7'], /private address/],
    ['a metadata endpoint', ['169.254.169.254'], /metadata endpoint/],
    ['one forbidden address among public ones', ['93.184.216.34', '192.168.1.1'], /private address/],
    ['a mapped IPv6 loopback, loopback not allowed', ['::ffff:127.0.0.1'], /loopback/],
    ['no address at all', [], /no address/],
  ])('a name resolving to %s is refused before connecting, for good', async (_name, addresses, message) => {
    const s = sender({ allowLoopback: false, resolve: async () => addresses });
    const error = await failure(s.send('https://receiver.example.com/in', {}, '{}'));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(message);
    await s.close();
  });

  test('a URL the policy refuses is never tried', async () => {
    const s = sender({ allowLoopback: false });
    for (const url of [
      `http://127.0.0.1:${port}/`,
      'https://10.0.0.1/',
      'ftp://example.com/',
      'https://a:b@x.y/',
    ]) {
      const error = await failure(s.send(url, {}, '{}'));
      expect(error.retryable).toBe(false);
    }
    expect(hits).toEqual([]);
    await s.close();
  });
});
