import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { request } from 'undici';
import { EmbeddedTokenIssuer } from '../src/services/access/tokens';
import { createTestDatabase, type TestDatabase } from './support/databases';
import { type LogLine, type Process, spawnMain } from './support/mainProcess';
import { PEOPLE, TENANT, TEST_SECRET } from './support/steward';

/** Starts Steward and returns it with its base URL, taken from the "Steward is listening" log line. */
async function startMain(env: Record<string, string>): Promise<Process & { url: string }> {
  const main = spawnMain(env);
  const listening = await main.waitForLog('Steward is listening');
  expect(listening.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  return { ...main, url: listening.url as string };
}

/** Resolves with the error code of a fresh TCP connection attempt, or 'connected'. */
function connect(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

/** Every line on stderr: no warning is filtered out, deprecations included. */
const warningsIn = (stderr: string): string[] => stderr.split('\n').filter(Boolean);

const within = <T>(ms: number, promise: Promise<T>, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms).unref(),
    ),
  ]);

/**
 * How long a wait for a state (a log line, an exit) may take: a child's start-up and exit take
 * seconds on a loaded two-core machine. The tests' own claims about time are stated apart.
 */
const WAIT_MS = 45_000;

describe('node dist/main.js', () => {
  // Several children start and stop per test, each taking up to WAIT_MS on a loaded machine.
  jest.setTimeout(120_000);
  let database: TestDatabase;
  let env: Record<string, string>;
  const running: ChildProcess[] = [];
  const issuer = new EmbeddedTokenIssuer(TEST_SECRET, TENANT);

  beforeEach(async () => {
    // Its data dir holds a copy of the migrated template as `steward.db`, the file Steward opens
    // there by default: each start skips the migrations, not what the tests watch.
    database = await createTestDatabase('sqlite');
    env = {
      STEWARD_DATA_DIR: database.dataDir,
      STEWARD_AUTH_SECRET: TEST_SECRET,
      STEWARD_PORT: '0',
      STEWARD_HOST: '127.0.0.1',
      STEWARD_LOG_LEVEL: 'info',
    };
  });
  afterEach(async () => {
    // A test that failed half-way must not leave its server running.
    for (const child of running.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await database.drop();
  });

  const start = async (extra: Record<string, string> = {}) => {
    const main = await startMain({ ...env, ...extra });
    running.push(main.child);
    return main;
  };

  test('SIGTERM after serving requests (with idle keep-alive connections) exits 0 promptly and logs stopped', async () => {
    const main = await start();
    const token = await issuer.mint({ id: PEOPLE.alex });
    const health = await request(`${main.url}/healthz`);
    expect(health.statusCode).toBe(200);
    expect(await health.body.json()).toEqual({ status: 'ok' });
    const catalog = await request(`${main.url}/api/v1.0/me/catalog/templates`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(catalog.statusCode).toBe(200);
    await catalog.body.json();

    const signalled = Date.now();
    main.child.kill('SIGTERM');
    const exit = await within(WAIT_MS, main.exited, 'exit after SIGTERM');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(WAIT_MS);
    const messages = main.logs.map((line) => line.msg);
    expect(messages).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
    expect(messages.indexOf('stopped')).toBeGreaterThan(messages.indexOf('shutting down'));
    expect(main.logs.find((line) => line.msg === 'shutting down')?.signal).toBe('SIGTERM');
    expect(warningsIn(main.stderr())).toEqual([]);
    expect(await connect(main.url)).toBe('ECONNREFUSED');
    // The token never reaches the logs.
    expect(JSON.stringify(main.logs)).not.toContain(token);
  });

  test('SIGINT stops it the same way', async () => {
    const main = await start();
    expect((await request(`${main.url}/healthz`)).statusCode).toBe(200);
    main.child.kill('SIGINT');
    expect(await within(WAIT_MS, main.exited, 'exit after SIGINT')).toEqual({ code: 0, signal: null });
    expect(main.logs.find((line) => line.msg === 'shutting down')?.signal).toBe('SIGINT');
    expect(main.logs.map((line) => line.msg)).toContain('stopped');
  });

  /**
   * Sends the headers and half the body of a template PUT, so that its handler is still waiting for
   * the rest when SIGTERM arrives; `finish` sends the rest.
   */
  const holdRequest = async (url: string, token: string, id: string, agent: http.Agent | false) => {
    const body = JSON.stringify({
      templateConfiguration: { name: 'Finished during shutdown' },
      newTeam: { namingConvention: 'SD-<%= request.team.name %>' },
    });
    const put = http.request({
      host: '127.0.0.1',
      port: Number(new URL(url).port),
      method: 'PUT',
      path: `/api/v1.0/catalog/templates/${id}`,
      agent,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
    });
    const response = new Promise<{ status: number; connection: string | undefined; text: string }>(
      (resolve, reject) => {
        put.once('response', (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => {
            text += chunk;
          });
          res.once('end', () =>
            resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }),
          );
        });
        put.once('error', reject);
      },
    );
    // A test that stops the process before `finish` sees the connection reset: not a failure there.
    response.catch(() => {});
    const half = Math.floor(body.length / 2);
    put.write(body.slice(0, half));
    await new Promise<void>((resolve) => put.once('socket', (socket) => socket.once('connect', resolve)));
    // Give the server time to route the request to its handler.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return {
      finish: () => {
        put.end(body.slice(half));
        return within(WAIT_MS, response, 'the in-flight response');
      },
    };
  };

  /** Retries a connection for up to a second, until the listener is gone. */
  const refusedSoon = async (url: string) => {
    let outcome = '';
    for (let attempt = 0; attempt < 50 && outcome !== 'ECONNREFUSED'; attempt += 1) {
      outcome = await connect(url);
      if (outcome !== 'ECONNREFUSED') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return outcome;
  };

  test('a request in flight at SIGTERM completes and is committed; new connections are refused meanwhile', async () => {
    const main = await start();
    const token = await issuer.mint({ id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] });
    const held = await holdRequest(main.url, token, 'shutdown-survivor', false);

    main.child.kill('SIGTERM');
    await within(WAIT_MS, main.waitForLog('shutting down'), '"shutting down" log');
    // Listening has stopped, but the process waits for the request in flight.
    expect(await refusedSoon(main.url)).toBe('ECONNREFUSED');
    expect(main.child.exitCode).toBeNull();
    expect(main.logs.map((line) => line.msg)).not.toContain('stopped');

    const res = await held.finish();
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({
      templateConfiguration: { id: 'shutdown-survivor', name: 'Finished during shutdown' },
    });
    expect(await within(WAIT_MS, main.exited, 'exit after the last response')).toEqual({
      code: 0,
      signal: null,
    });
    expect(main.logs.map((line) => line.msg)).toContain('stopped');
    expect(
      main.logs.find((line) => line.msg === 'request' && line.operation === 'setPlatformTeamTemplate'),
    ).toMatchObject({ status: 200 });

    // The write made during the shutdown is in the store.
    const again = await start();
    const read = await request(`${again.url}/api/v1.0/catalog/templates/shutdown-survivor`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(read.statusCode).toBe(200);
    expect(await read.body.json()).toMatchObject({
      templateConfiguration: { name: 'Finished during shutdown' },
    });
    again.child.kill('SIGTERM');
    expect(await within(WAIT_MS, again.exited, 'second exit')).toEqual({ code: 0, signal: null });
  });

  // A keep-alive connection whose response finishes during the shutdown must not hold the process
  // until the keep-alive timeout: idle connections are closed as they become idle.
  test('a keep-alive request in flight at SIGTERM does not hold the exit after its response', async () => {
    const main = await start();
    const token = await issuer.mint({ id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] });
    const agent = new http.Agent({ keepAlive: true });
    try {
      const held = await holdRequest(main.url, token, 'keep-alive-survivor', agent);
      main.child.kill('SIGTERM');
      await within(WAIT_MS, main.waitForLog('shutting down'), '"shutting down" log');
      const res = await held.finish();
      expect(res.status).toBe(200);
      const answered = Date.now();
      // Held by the idle connection, it would exit 1 at the shutdown deadline (10 s), well before
      // the connection's own keep-alive (over a minute): exiting 0 is what shows it was not held.
      expect(await within(WAIT_MS, main.exited, 'exit after the last response')).toEqual({
        code: 0,
        signal: null,
      });
      expect(Date.now() - answered).toBeLessThan(10_000);
    } finally {
      agent.destroy();
    }
  });

  test('a request that outlives STEWARD_SHUTDOWN_TIMEOUT_MS makes it exit 1 at the deadline', async () => {
    const main = await start({ STEWARD_SHUTDOWN_TIMEOUT_MS: '500' });
    const token = await issuer.mint({ id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] });
    const { port } = new URL(main.url);
    const put = http.request({
      host: '127.0.0.1',
      port: Number(port),
      method: 'PUT',
      path: '/api/v1.0/catalog/templates/never-finished',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': '1000',
      },
    });
    put.on('error', () => {});
    put.write('{"templateConfiguration":');
    await new Promise<void>((resolve) => put.once('socket', (socket) => socket.once('connect', resolve)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalled = Date.now();
    main.child.kill('SIGTERM');
    expect(await within(WAIT_MS, main.exited, 'exit at the deadline')).toEqual({ code: 1, signal: null });
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(400);
    expect(main.logs.map((line) => line.msg)).not.toContain('stopped');
    expect(main.logs.find((line) => line.level === 40)?.msg).toMatch(/shutdown deadline/);
    put.destroy();
  });

  // Container platforms and process managers stop a process whose log collector is gone this way.
  test('SIGTERM with stdout and stderr closed by their reader exits 0 promptly', async () => {
    const main = await start();
    main.child.stdout!.destroy();
    main.child.stderr!.destroy();
    // Lines written after the reader left meet a broken pipe.
    expect((await request(`${main.url}/healthz`)).statusCode).toBe(200);
    main.child.kill('SIGTERM');
    expect(await within(WAIT_MS, main.exited, 'exit after SIGTERM with closed pipes')).toEqual({
      code: 0,
      signal: null,
    });
  });

  test('SIGTERM with a log reader that stopped reading exits within the deadline', async () => {
    const main = await start({ STEWARD_SHUTDOWN_TIMEOUT_MS: '2000' });
    main.child.stdout!.pause();
    // Each request logs a line: enough of them fill the pipe and the reader's buffer.
    const token = await issuer.mint({ id: PEOPLE.alex });
    for (let i = 0; i < 60; i += 1) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const res = await request(`${main.url}/api/v1.0/me/catalog/templates?filler=${'x'.repeat(500)}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          await res.body.dump();
        }),
      );
    }
    const signalled = Date.now();
    main.child.kill('SIGTERM');
    const exit = await within(WAIT_MS, main.exited, 'exit after SIGTERM with a stalled reader');
    expect(exit.signal).toBeNull();
    expect(Date.now() - signalled).toBeLessThan(2500);
  });

  test('a second signal during a graceful shutdown exits at once', async () => {
    const main = await start({ STEWARD_SHUTDOWN_TIMEOUT_MS: '600000' });
    const token = await issuer.mint({ id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] });
    await holdRequest(main.url, token, 'second-signal', false);
    main.child.kill('SIGTERM');
    await within(WAIT_MS, main.waitForLog('shutting down'), '"shutting down" log');
    expect(main.child.exitCode).toBeNull();
    const signalled = Date.now();
    main.child.kill('SIGTERM');
    // 143 is the second signal's exit (the deadline's is 1, a graceful stop's 0), long before the
    // ten-minute deadline however slowly a loaded machine runs the child.
    expect(await within(WAIT_MS, main.exited, 'exit after the second SIGTERM')).toEqual({
      code: 143,
      signal: null,
    });
    expect(Date.now() - signalled).toBeLessThan(WAIT_MS);
  });

  test('a bad configuration exits 1 with a message naming the variable', async () => {
    const main = spawnMain({ ...env, STEWARD_PORT: 'abc' });
    running.push(main.child);
    expect(await within(WAIT_MS, main.exited, 'exit')).toEqual({ code: 1, signal: null });
    expect(main.stderr()).toMatch(/^Steward cannot start: STEWARD_PORT: .*"abc"/);
    expect(main.logs).toEqual([]);
  });

  const withBusyPort = async <T>(work: (port: number) => Promise<T>): Promise<T> => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      return await work((blocker.address() as net.AddressInfo).port);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  };

  /** One start on a port already in use, read by the two tests below: its exit, stderr and log. */
  let onBusyPort: Promise<{ exit: unknown; stderr: string; logs: LogLine[] }> | undefined;
  const startOnBusyPort = () =>
    (onBusyPort ??= withBusyPort(async (port) => {
      const main = spawnMain({ ...env, STEWARD_PORT: String(port) });
      running.push(main.child);
      const exit = await within(WAIT_MS, main.exited, 'exit');
      return { exit, stderr: main.stderr(), logs: main.logs };
    }));

  test('a port already in use exits 1 naming EADDRINUSE', async () => {
    const { exit, stderr, logs } = await startOnBusyPort();
    expect(exit).toEqual({ code: 1, signal: null });
    expect(stderr).toContain('EADDRINUSE');
    expect(logs.map((line) => line.msg)).not.toContain('Steward is listening');
  });

  // restify re-emits listen errors on itself: they must reach main()'s one-line message, not crash.
  test('a port already in use is reported as one "Steward failed to start" line', async () => {
    const { exit, stderr } = await startOnBusyPort();
    expect(exit).toEqual({ code: 1, signal: null });
    expect(warningsIn(stderr)).toEqual([expect.stringMatching(/^Steward failed to start: .*EADDRINUSE/)]);
  });
});
