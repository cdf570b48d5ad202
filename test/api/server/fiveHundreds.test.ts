import { connect } from 'node:net';
import type { Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { suiteSteward } from '../../support/steward';
import { rowCount } from '../../support/rows';

type ErrorBody = { error: { code: string; details?: { code: string; target: string }[] } };

describe.each(databaseKinds)('inputs that used to give a 500, on %s', (kind) => {
  // A body's deadline shortened from its 10 s default, for the 408 below.
  const suite = suiteSteward(kind, {
    env: { STEWARD_WORKER_CONCURRENCY: '0', STEWARD_BODY_TIMEOUT_MS: '1000' },
  });

  const countJobs = () => rowCount(suite.app, 'jobs');
  const provision = (name: string, key?: string, extra: Record<string, unknown> = {}) =>
    suite.app.call<Job & ErrorBody>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'project' }, team: { name }, ...extra },
      headers: key ? { 'idempotency-key': key } : {},
    });

  describe('control characters', () => {
    test.each([
      ['a NUL in a team name', 'Apollo\u0000'],
      ['an escape sequence', 'Apollo\u001b[31m'],
      ['a backspace', 'Apoll\u0008o'],
    ])('%s is a 400 naming the field, and no job is created', async (_what, name) => {
      const before = await countJobs();
      const res = await provision(name);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([
        expect.objectContaining({ code: 'controlCharacter', target: 'body.team.name' }),
      ]);
      expect(await countJobs()).toBe(before);
    });

    test('a NUL in a metadata key or value, and in a hook name, is refused too', async () => {
      const meta = await suite.app.call<ErrorBody>('PUT', '/api/v1.0/teams/whatever/metadata/project', {
        token: suite.megan,
        body: { ['co\u0000de']: 'x' },
      });
      expect(meta.status).toBe(400);
      expect(meta.body.error.details?.[0]?.code).toBe('controlCharacter');
      const hook = await suite.app.call<ErrorBody>('POST', '/api/v1.0/hooks', {
        token: suite.megan,
        body: { name: 'Hook\u0000', url: 'https://example.com/hook', events: ['team_created'] },
      });
      expect(hook.status).toBe(400);
    });

    test('tab and line breaks stay allowed where text is multi-line', async () => {
      const res = await provision('Line breaks', undefined, {
        team: { name: 'Line breaks', description: 'First line\n\tsecond line\r\n' },
      });
      expect(res.status).toBe(201);
    });
  });

  describe('deep JSON', () => {
    const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    test.each([
      ['PUT', '/api/v1.0/teams/t1/metadata/project', (d: string) => d],
      ['PATCH', '/api/v1.0/teams/t1/metadata/project', (d: string) => d],
      ['POST', '/api/v1.0/metadata/project/query', (d: string) => d],
      ['POST', '/api/v1.0/hooks/signature', (d: string) => `{"payload":${d},"secret":"s3cret-s3cret"}`],
      [
        'POST',
        '/api/v1.0/teams/provisioning',
        (d: string) => `{"template":{"id":"project"},"team":{"name":"Deep"},"metadata":{"project":${d}}}`,
      ],
    ])('%s %s nested 5 000 deep is a 400, not a RangeError', async (method, path, wrap) => {
      const before = await countJobs();
      const res = await suite.app.call<ErrorBody>(method, path, {
        token: suite.megan,
        rawBody: wrap(deep(5_000)),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.details?.[0]?.code).toBe('nestingTooDeep');
      expect(await countJobs()).toBe(before);
    });
  });

  describe('Idempotency-Key', () => {
    test('20 concurrent requests with one key all get the same job, and one job exists', async () => {
      const before = await countJobs();
      const answers = await Promise.all(Array.from({ length: 20 }, () => provision('Concurrent', 'race-1')));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
      expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
      expect(await countJobs()).toBe(before + 1);
    });

    test('the same key with a different body is a 422 with a clear code', async () => {
      expect((await provision('First body', 'reused-1')).status).toBe(201);
      const res = await provision('Second body', 'reused-1');
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('idempotencyKeyReused');
    });
  });

  test('a body that stops arriving is a 408 once STEWARD_BODY_TIMEOUT_MS has passed, not a 500', async () => {
    const { hostname: host, port } = new URL(suite.app.url);
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host, port: Number(port) }, () => {
        socket.write(
          'POST /api/v1.0/teams/provisioning HTTP/1.1\r\n' +
            `Host: ${host}\r\nAuthorization: Bearer ${suite.alex}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"template":',
        );
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('requestTimeout');
    expect(answer).toContain('within 1 s');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  }, 20_000);

  test('a refusal answered before its body arrived closes the connection: a trickling caller holds nothing', async () => {
    const { hostname: host, port } = new URL(suite.app.url);
    let answeredAt = 0;
    const closedAt = await new Promise<number>((resolve, reject) => {
      const socket = connect({ host, port: Number(port) }, () => {
        // No token, and 99 bytes of the body still to come.
        socket.write(
          'POST /api/v1.0/teams/provisioning HTTP/1.1\r\n' +
            `Host: ${host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
        );
      });
      // A byte now and then, as a slow reader of the rules would: never the whole body.
      const drip = setInterval(() => socket.writable && socket.write(' '), 200);
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if (!answeredAt && /^HTTP\/1\.1 401/.test(text)) answeredAt = Date.now();
      });
      socket.on('close', () => {
        clearInterval(drip);
        expect(text).toMatch(/^HTTP\/1\.1 401/);
        expect(text.toLowerCase()).toContain('connection: close');
        resolve(Date.now());
      });
      socket.on('error', (error: NodeJS.ErrnoException) => {
        // Writing into a connection the server closed: the close follows.
        if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
      });
    });
    expect(answeredAt).toBeGreaterThan(0);
    expect(closedAt - answeredAt).toBeLessThan(1000);
  }, 20_000);

  test('a body read to its end keeps the connection for the next request', async () => {
    const { hostname: host, port } = new URL(suite.app.url);
    // Read, then refused for what it says: a 400, on a connection that stays open.
    const invalid =
      'POST /api/v1.0/teams/provisioning HTTP/1.1\r\n' +
      `Host: ${host}\r\nAuthorization: Bearer ${suite.alex}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}';
    const answers = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host, port: Number(port) }, () => socket.write(invalid));
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
        const count = text.match(/HTTP\/1\.1 400/g)?.length ?? 0;
        // The first answer in whole: the same connection carries a second request.
        if (count === 1 && text.endsWith('}}')) socket.write(invalid);
        if (count === 2 && text.endsWith('}}')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answers.match(/HTTP\/1\.1 400/g)).toHaveLength(2);
    expect(answers.toLowerCase()).not.toContain('connection: close');
  }, 20_000);
});
