import {
  StewardApiError,
  StewardClient,
  type StewardClientOptions,
  StewardNetworkError,
  StewardResponseError,
} from '../../src/client';
import { apiError, drop, empty, hang, json, type Reply, startFakeApi } from './fakeApi';

const JOB = {
  id: 'job-1',
  type: 'ProvisioningRequest',
  status: 'waiting',
  progress: 0,
  log: [],
  data: {},
  createdDateTime: '2025-01-01T00:00:00.000Z',
  lastModifiedDateTime: '2025-01-01T00:00:00.000Z',
  failedReason: null,
};
const REQUEST = { template: { id: 'project' }, team: { name: 'Apollo' } };

describe('retries and failures against a fake API on loopback', () => {
  let opened: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const close of opened.reverse()) await close();
    opened = [];
  });

  /** A client of `baseUrl`, closed after the test. */
  function clientOf(options: StewardClientOptions): StewardClient {
    const client = new StewardClient(options);
    opened.push(() => client.close());
    return client;
  }

  /** A fake answering `replies` in turn, and a client of it with short waits. */
  async function serve(replies: Reply[], options: Partial<StewardClientOptions> = {}) {
    const fake = await startFakeApi(replies);
    opened.push(() => fake.close());
    const client = clientOf({
      baseUrl: fake.url,
      token: 'token-1',
      retry: { maxRetries: 3, baseDelayMs: 20, maxDelayMs: 2_000 },
      ...options,
    });
    return { fake, client };
  }

  /** The error a call rejects with. */
  async function failure(call: Promise<unknown>): Promise<unknown> {
    return call.then(
      () => {
        throw new Error('expected the call to fail');
      },
      (error: unknown) => error,
    );
  }

  test('a GET waits out 429 Retry-After, then retries a 503, and gets its answer', async () => {
    const { fake, client } = await serve([
      apiError(429, 'tooManyRequests', { 'retry-after': '1' }),
      apiError(503, 'serviceUnavailable'),
      json(200, { id: 'team-1' }),
    ]);
    await expect(client.getTeam('team-1')).resolves.toEqual({ id: 'team-1' });
    expect(fake.seen.map((r) => `${r.method} ${r.url}`)).toEqual(Array(3).fill('GET /api/v1.0/teams/team-1'));
    const [first, second, third] = fake.seen;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(990);
    expect(third!.at - second!.at).toBeLessThan(500);
    const ids = fake.seen.map((r) => r.headers['client-request-id']);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(1);
  });

  test('every request carries the bearer token, client-request-id, user agent and JSON headers', async () => {
    let calls = 0;
    const { fake, client } = await serve([json(201, { id: 'm' })], {
      token: async () => `token-${++calls}`,
      userAgent: 'steward-bot/1.0',
    });
    await client.addTeamMember('t', { user: { id: 'u' }, role: 'owner' }, { clientRequestId: 'bot-42' });
    await client.as('someone-else').getTeam('t');
    await client.getTeam('t', { token: 'per-call' });
    expect(fake.seen.map((r) => r.headers.authorization)).toEqual([
      'Bearer token-1',
      'Bearer someone-else',
      'Bearer per-call',
    ]);
    const [post, get] = fake.seen;
    expect(post!.headers).toMatchObject({
      'client-request-id': 'bot-42',
      'user-agent': 'steward-bot/1.0',
      accept: 'application/json',
      'content-type': 'application/json',
    });
    expect(JSON.parse(post!.body)).toEqual({ user: { id: 'u' }, role: 'owner' });
    expect(get!.headers['content-type']).toBeUndefined();
    expect(get!.headers['client-request-id']).not.toBe('bot-42');
  });

  test('a dropped connection is retried for a GET', async () => {
    const { fake, client } = await serve([drop, drop, json(200, [])]);
    await expect(client.getTeamChannels('t')).resolves.toEqual([]);
    expect(fake.seen).toHaveLength(3);
  });

  test('provisioning is retried under one idempotency key and one client-request-id', async () => {
    const { fake, client } = await serve([apiError(503, 'serviceUnavailable'), drop, json(201, JOB)]);
    await expect(client.createTeamProvisioningJob(REQUEST)).resolves.toEqual(JOB);
    expect(fake.seen).toHaveLength(3);
    const keys = fake.seen.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(fake.seen.map((r) => r.headers['client-request-id'])).size).toBe(1);
    expect(new Set(fake.seen.map((r) => r.body)).size).toBe(1);

    await client.createTeamProvisioningJob(REQUEST, { idempotencyKey: 'mine-1' });
    expect(fake.seen[3]!.headers['idempotency-key']).toBe('mine-1');
    await client.createTeamProvisioningJob(REQUEST);
    expect(fake.seen[4]!.headers['idempotency-key']).not.toBe(keys[0]);
  });

  test.each([
    ['approveTeamCreation', (c: StewardClient) => c.approveTeamCreation('a-1')],
    ['addTeamMember', (c: StewardClient) => c.addTeamMember('t', { user: { id: 'u' } })],
    ['createTeamChannel', (c: StewardClient) => c.createTeamChannel('t', { displayName: 'X' })],
    ['archiveTeam', (c: StewardClient) => c.archiveTeam('t')],
  ])(
    '%s, a POST without an idempotency key, is sent once on 503 and on a dropped connection',
    async (_name, call) => {
      const { fake, client } = await serve([apiError(503, 'serviceUnavailable', { 'retry-after': '0' })]);
      expect(await failure(call(client))).toMatchObject({ status: 503, attempts: 1 });
      expect(fake.seen).toHaveLength(1);

      const dropping = await serve([drop]);
      const error = await failure(call(dropping.client));
      expect(error).toBeInstanceOf(StewardNetworkError);
      expect(error).toMatchObject({ attempts: 1 });
      expect(dropping.fake.seen).toHaveLength(1);
    },
  );

  test('4xx answers other than 429, and 500, are not retried', async () => {
    for (const [status, code] of [
      [400, 'validationFailed'],
      [401, 'unauthorized'],
      [404, 'notFound'],
      [409, 'conflict'],
      [500, 'internalServerError'],
    ] as const) {
      const { fake, client } = await serve([apiError(status, code)]);
      const error = await failure(client.getTeam('t'));
      expect(error).toBeInstanceOf(StewardApiError);
      expect(error).toMatchObject({ status, code, attempts: 1, requestId: 'fake-request-id' });
      expect(fake.seen).toHaveLength(1);
    }
  });

  test('retries stop after maxRetries with the last answer as the error', async () => {
    const { fake, client } = await serve([apiError(504, 'gatewayTimeout')], {
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
    });
    expect(await failure(client.getTeam('t'))).toMatchObject({
      status: 504,
      code: 'gatewayTimeout',
      attempts: 3,
    });
    expect(fake.seen).toHaveLength(3);
    expect(await failure(client.getTeam('t', { retry: false }))).toMatchObject({ attempts: 1 });
    expect(fake.seen).toHaveLength(4);
  });

  test('a Retry-After beyond maxDelayMs is not waited for; the error carries it', async () => {
    const { fake, client } = await serve([apiError(429, 'tooManyRequests', { 'retry-after': '120' })]);
    const error = await failure(client.getTeam('t'));
    expect(error).toMatchObject({ status: 429, retryAfterMs: 120_000, attempts: 1 });
    expect(fake.seen).toHaveLength(1);
  });

  test('a Retry-After that is not delay-seconds or an HTTP-date is ignored: the retry backs off', async () => {
    // An ISO 8601 date-time is no HTTP-date (RFC 9110), however far ahead it says.
    const { fake, client } = await serve([
      apiError(503, 'serviceUnavailable', { 'retry-after': '2999-01-01T00:00:00Z' }),
      json(200, { id: 't' }),
    ]);
    await expect(client.getTeam('t')).resolves.toEqual({ id: 't' });
    expect(fake.seen).toHaveLength(2);
    expect(fake.seen[1]!.at - fake.seen[0]!.at).toBeLessThan(1_000);
  });

  // The waits' bounds (full jitter below the exponential ceiling) are the policy's, tested on
  // backoffDelay itself (policy.test.ts); here, over real connections, a loaded machine fires timers
  // late, so only a gross error (seconds where milliseconds were meant) is caught by the clock.
  test("backoff waits between dropped connections, within the policy's milliseconds", async () => {
    const { fake, client } = await serve([drop, drop, drop, drop, json(200, {})], {
      retry: { maxRetries: 4, baseDelayMs: 40, maxDelayMs: 100 },
    });
    await client.getTeam('t');
    expect(fake.seen).toHaveLength(5);
    const gaps = fake.seen.slice(1).map((r, i) => r.at - fake.seen[i]!.at);
    for (const gap of gaps) expect(gap).toBeLessThan(5_000);
  });

  test('an abort signal ends the call during a wait between attempts', async () => {
    const { fake, client } = await serve([apiError(503, 'serviceUnavailable', { 'retry-after': '1' })]);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('user gave up')), 100);
    await expect(client.getTeam('t', { signal: controller.signal })).rejects.toThrow('user gave up');
    expect(Date.now() - started).toBeLessThan(800);
    expect(fake.seen).toHaveLength(1);
  });

  test('an attempt that times out is retried when idempotent, reported as a timeout when not', async () => {
    const { fake, client } = await serve([hang, json(200, { id: 't' })], { timeoutMs: 150 });
    await expect(client.getTeam('t')).resolves.toEqual({ id: 't' });
    expect(fake.seen).toHaveLength(2);

    const hanging = await serve([hang], { timeoutMs: 150 });
    const error = await failure(hanging.client.createTeamChannel('t', { displayName: 'X' }));
    expect(error).toBeInstanceOf(StewardNetworkError);
    expect(error).toMatchObject({ code: 'timeout', attempts: 1 });
  });

  test('a refused connection is a network error after the retries', async () => {
    const { fake } = await serve([json(200, {})]);
    const url = fake.url;
    await fake.close();
    const client = clientOf({ baseUrl: url, retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 } });
    const error = await failure(client.getMyLabels());
    expect(error).toBeInstanceOf(StewardNetworkError);
    expect(error).toMatchObject({ code: 'ECONNREFUSED', attempts: 3, operationId: 'getMyLabels' });
  });

  test('answers that are not what they claim become typed errors', async () => {
    const html: Reply = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    };
    const text: Reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello');
    };
    const broken: Reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"value": [');
    };
    const notApiError = json(418, { message: 'teapot' });
    const { client } = await serve([html, text, broken, notApiError, json(200, { big: 'x'.repeat(500) })], {
      retry: { maxRetries: 0 },
      maxResponseBytes: 200,
    });
    expect(await failure(client.getTeam('t'))).toMatchObject({
      status: 502,
      code: 'unexpectedResponse',
      message: expect.stringContaining('Bad gateway'),
    });
    const notJson = await failure(client.getTeam('t'));
    expect(notJson).toBeInstanceOf(StewardResponseError);
    expect(notJson).toMatchObject({ status: 200, code: 'notJson' });
    expect(await failure(client.getTeam('t'))).toMatchObject({ code: 'invalidJson' });
    expect(await failure(client.getTeam('t'))).toMatchObject({ status: 418, code: 'unexpectedResponse' });
    expect(await failure(client.getTeam('t'))).toMatchObject({ code: 'responseTooLarge' });
  });

  test('empty answers resolve to undefined; archive answers the job and its Location', async () => {
    const accepted = json(
      202,
      { ...JOB, id: 'job-9', type: 'TeamArchiveRequest' },
      { location: 'http://x/api/v1.0/jobs/job-9' },
    );
    const { client } = await serve([empty(204), empty(200), accepted]);
    await expect(client.deleteTeam('t')).resolves.toBeUndefined();
    await expect(client.approveTeamCreation('a')).resolves.toBeUndefined();
    await expect(
      client.archiveTeam('t', { shouldSetSpoSiteReadOnlyForMembers: true }),
    ).resolves.toMatchObject({
      jobId: 'job-9',
      location: 'http://x/api/v1.0/jobs/job-9',
      job: { type: 'TeamArchiveRequest' },
    });
  });

  test('path segments are percent-encoded, queries built safely, next links followed on our own host', async () => {
    const page = (next?: string) =>
      json(200, {
        '@odata.context': 'c',
        '@odata.count': 3,
        value: [1],
        ...(next ? { '@odata.nextLink': next } : {}),
      });
    const { fake, client } = await serve([
      json(200, []),
      json(200, {}),
      page('https://elsewhere.example.com/prefix/api/v1.0/users?$top=1&$skip=1'),
      page('http://127.0.0.2/api/v1.0/users?$top=1&$skip=2'),
      page(),
    ]);
    await client.getTeamChannelTabs('a b/c?d#e', 'ü%');
    await client.getAuditTrailRecords('security', {
      top: 2,
      from: new Date('2025-01-02T03:04:05Z'),
      to: '2025-02-01',
    });
    const items: unknown[] = [];
    for await (const item of client.followNextLinks(await client.getUsers({ top: 1, search: 'a&b=c' }))) {
      items.push(item);
    }
    expect(items).toEqual([1, 1, 1]);
    expect(fake.seen.map((r) => r.url)).toEqual([
      '/api/v1.0/teams/a%20b%2Fc%3Fd%23e/channels/%C3%BC%25/tabs',
      '/api/v1.0/audit_trails/security/records?%24top=2&from=2025-01-02T03%3A04%3A05.000Z&to=2025-02-01',
      '/api/v1.0/users?%24top=1&%24search=a%26b%3Dc',
      '/api/v1.0/users?$top=1&$skip=1',
      '/api/v1.0/users?$top=1&$skip=2',
    ]);
    expect(fake.seen.every((r) => r.headers.authorization === 'Bearer token-1')).toBe(true);
    await expect(client.nextPage({ '@odata.nextLink': 'https://evil.example.com/steal' })).rejects.toThrow(
      TypeError,
    );
    await expect(client.nextPage({})).resolves.toBeUndefined();
  });

  test('a base URL with a path prefix, or ending in /api/v1.0, is understood', async () => {
    const { fake } = await serve([json(200, {})]);
    for (const baseUrl of [`${fake.url}/steward/`, `${fake.url}/steward/api/v1.0`]) {
      await clientOf({ baseUrl }).getMyLabels();
    }
    expect(fake.seen.map((r) => r.url)).toEqual([
      '/steward/api/v1.0/me/labels',
      '/steward/api/v1.0/me/labels',
    ]);
    expect(() => new StewardClient({ baseUrl: 'file:///etc/passwd' })).toThrow(TypeError);
  });

  test('no error message or property carries the token', async () => {
    const { client } = await serve([apiError(401, 'unauthorized'), drop]);
    const errors = [
      await failure(client.getTeam('t', { retry: false })),
      await failure(client.addTeamMember('t', { user: { id: 'u' } })),
    ];
    for (const error of errors) {
      expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain(
        'token-1',
      );
    }
  });
});
