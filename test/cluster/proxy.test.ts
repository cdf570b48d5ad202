import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { request } from 'undici';
import { IDLE_CONNECTION_MS } from '../../src/api/idleConnections';
import {
  type Backend,
  BackendPool,
  createEntryProxy,
  IDLE_BACKEND_SOCKET_MS,
  routeOf,
} from '../../src/cluster/proxy';

/** What the echo backends and the proxy's own errors answer with. */
interface Answer {
  name: string;
  url: string;
  body: string;
  forwardedFor?: string;
  connection?: string;
  error: { code: string };
}

/** A backend that answers with its name, the request's path, body and forwarding headers. */
async function echoBackend(name: string): Promise<{ server: Server; backend: Backend }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(req.url?.startsWith('/api/v1.0/missing') ? 404 : 200, {
        'content-type': 'application/json',
        'set-cookie': ['a=1', 'b=2'],
        'x-backend': name,
      });
      res.end(
        JSON.stringify({
          name,
          url: req.url,
          body: Buffer.concat(chunks).toString('utf8'),
          forwardedFor: req.headers['x-forwarded-for'],
          connection: req.headers.connection,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, backend: { name, port: (server.address() as AddressInfo).port, ready: true } };
}

describe('the entry proxy', () => {
  const servers: Server[] = [];
  const api = new BackendPool('api');
  const bot = new BackendPool('bot');
  let entry: Server;
  let url: string;
  let down: Backend;

  beforeAll(async () => {
    for (const name of ['api-1', 'api-2']) {
      const { server, backend } = await echoBackend(name);
      servers.push(server);
      api.add(backend);
    }
    // A process that is marked ready but has died: its port refuses connections.
    const { server, backend } = await echoBackend('bot-1');
    await new Promise((resolve) => server.close(resolve));
    down = backend;
    bot.add(down);
    entry = createEntryProxy({ api, bot, log: pino({ level: 'silent' }) });
    await new Promise<void>((resolve) => entry.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(entry.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    entry.closeAllConnections();
    await new Promise((resolve) => entry.close(resolve));
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  const get = async (path: string, init: Parameters<typeof request>[1] = {}) => {
    const res = await request(`${url}${path}`, init);
    return {
      status: res.statusCode,
      headers: res.headers,
      body: (await res.body.json()) as Answer,
    };
  };

  test('routes API, report, viewer and health paths to the API processes and bot paths to the bots', () => {
    expect(
      ['/api/v1.0', '/api/v1.0/users?$search=a', '/reports/x', '/platform/teams', '/healthz', '/readyz'].map(
        routeOf,
      ),
    ).toEqual(Array(6).fill('api'));
    expect(['/api/messages', '/api/notifications'].map(routeOf)).toEqual(['bot', 'bot']);
    expect(['/', '/metrics', '/api/v1.0x', '/api'].map(routeOf)).toEqual(Array(4).fill(undefined));
  });

  test('takes the API processes in turn, passing status, headers, bodies and X-Forwarded-For', async () => {
    const names: string[] = [];
    for (let i = 0; i < 4; i += 1) names.push((await get('/api/v1.0/x')).body.name);
    expect(names).toEqual(['api-1', 'api-2', 'api-1', 'api-2']);

    const body = 'x'.repeat(200_000);
    const posted = await get('/api/v1.0/echo?q=1', {
      method: 'POST',
      body,
      headers: { 'x-forwarded-for': '10.0.0.1' },
    });
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({
      url: '/api/v1.0/echo?q=1',
      body,
      forwardedFor: '10.0.0.1, 127.0.0.1',
    });
    expect(posted.body.connection).not.toBe('close');
    expect(posted.headers['set-cookie']).toEqual(['a=1', 'b=2']);

    const missing = await get('/api/v1.0/missing');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-backend']).toMatch(/^api-/);
  });

  test('skips a process that is not ready', async () => {
    api.backends[0]!.ready = false;
    try {
      const names = [];
      for (let i = 0; i < 3; i += 1) names.push((await get('/healthz')).body.name);
      expect(names).toEqual(['api-2', 'api-2', 'api-2']);
    } finally {
      api.backends[0]!.ready = true;
    }
  });

  test('answers 502 with an ApiError when the process does not answer, 404 for paths it does not serve', async () => {
    const refused = await get('/api/messages', {
      method: 'POST',
      body: '{}',
      headers: { 'client-request-id': 'abc' },
    });
    expect(refused.status).toBe(502);
    expect(refused.body).toEqual({
      error: {
        code: 'badGateway',
        message: expect.any(String),
        innerError: {
          date: expect.any(String),
          'request-id': expect.any(String),
          'client-request-id': 'abc',
        },
      },
    });
    down.ready = false;
    expect((await get('/api/notifications')).status).toBe(502);
    const unknown = await get('/metrics');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('notFound');
  });
});

/**
 * The proxy reuses backend connections; a backend closes one that stays idle past its keep-alive,
 * and a request sent on it at that moment fails (a 502 for the caller). The proxy closes idle
 * backend connections first, however long the backend would keep them.
 */
describe('the entry proxy’s idle backend connections', () => {
  test('are closed by the proxy after its idle time, not left to the backend', async () => {
    const { server, backend } = await echoBackend('api-idle');
    server.keepAliveTimeout = 10 * 60_000;
    const closed: number[] = [];
    server.on('connection', (socket) => socket.on('close', () => closed.push(Date.now())));
    const pool = new BackendPool('api');
    pool.add(backend);
    const entry = createEntryProxy({
      api: pool,
      bot: new BackendPool('bot'),
      log: pino({ level: 'silent' }),
      idleBackendSocketMs: 200,
    });
    await new Promise<void>((resolve) => entry.listen(0, '127.0.0.1', resolve));
    try {
      const res = await request(`http://127.0.0.1:${(entry.address() as AddressInfo).port}/healthz`);
      expect(res.statusCode).toBe(200);
      await res.body.json();
      // The backend would keep the connection ten minutes; the proxy lets it go once idle.
      const deadline = Date.now() + 20_000;
      while (closed.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(closed).toHaveLength(1);
    } finally {
      entry.closeAllConnections();
      await new Promise((resolve) => entry.close(resolve));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a slow answer, longer than the idle time, still gets through', async () => {
    const server = createServer((_req, res) => {
      setTimeout(() => res.end(JSON.stringify({ slow: true })), 1000);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const pool = new BackendPool('api');
    pool.add({ name: 'api-slow', port: (server.address() as AddressInfo).port, ready: true });
    const entry = createEntryProxy({
      api: pool,
      bot: new BackendPool('bot'),
      log: pino({ level: 'silent' }),
      idleBackendSocketMs: 200,
    });
    await new Promise<void>((resolve) => entry.listen(0, '127.0.0.1', resolve));
    try {
      const res = await request(`http://127.0.0.1:${(entry.address() as AddressInfo).port}/healthz`);
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({ slow: true });
    } finally {
      entry.closeAllConnections();
      await new Promise((resolve) => entry.close(resolve));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('by default well before a Steward backend would', () => {
    expect(IDLE_BACKEND_SOCKET_MS).toBeLessThan(IDLE_CONNECTION_MS - 5000);
  });
});
