import type { AuditTrailRecord, ODataCollection } from '../../../src/contract';
import { openStore } from '../../../src/store/database';
import { RefusalGuard } from '../../../src/services/access/refusals';
import { RefusalRepository } from '../../../src/store/access/refusals';
import {
  createTestDatabase,
  databaseKinds,
  storeOptionsOf,
  type TestDatabase,
} from '../../support/databases';
import { PEOPLE, startTestSteward, suiteSteward, type TestSteward } from '../../support/steward';

const PER_MINUTE = 10;

/** A clock the tests move by hand, so a flood falls in one minute (or the next) without waiting. */
function handClock(start: string) {
  let at = new Date(start);
  return { now: () => at, set: (iso: string) => (at = new Date(iso)) };
}

const NO_TOKEN = 'A bearer token is required (Authorization: Bearer <token>).';
const MALFORMED = 'The token is malformed or cannot be verified.';

/** `count` calls with a bad token (half without any) spread over `apps`, `parallel` at a time. */
async function flood(apps: TestSteward[], count: number, parallel = 25): Promise<number[]> {
  const statuses: number[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, (_, i) => start + i);
    const answers = await Promise.all(
      batch.map((n) =>
        apps[n % apps.length]!.call('GET', '/api/v1.0/users', { token: n % 4 < 2 ? 'not.a.jwt' : null }),
      ),
    );
    statuses.push(...answers.map((a) => a.status));
  }
  return statuses;
}

/** The security trail's records, read over HTTP as a governance manager. */
async function securityRecords(app: TestSteward): Promise<AuditTrailRecord[]> {
  const token = await app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER']);
  const res = await app.call<ODataCollection<AuditTrailRecord>>(
    'GET',
    '/api/v1.0/audit_trails/security/records?$top=100',
    { token },
  );
  expect(res.status).toBe(200);
  return res.body.value;
}

const fromLoopback = (records: AuditTrailRecord[]) =>
  records.filter((r) => (r.details as { source?: string } | null)?.source === '127.0.0.1');

const countOf = (record: AuditTrailRecord | undefined) => (record?.details as { count?: number })?.count;

describe.each(databaseKinds)('refused calls per source, on %s', (kind) => {
  const clock = handClock('2026-11-23T10:00:05.000Z');

  const suite = suiteSteward(kind, {
    env: {
      STEWARD_RATE_LIMIT_FACTOR: '1',
      STEWARD_REFUSALS_PER_MINUTE: String(PER_MINUTE),
      STEWARD_TRUSTED_PROXIES: '127.0.0.2',
    },
    overrides: { now: clock.now },
  });

  const badToken = (headers: Record<string, string> = {}) =>
    suite.app.call('GET', '/api/v1.0/users', { token: 'not.a.jwt', headers });

  test('a flood of bad tokens from one address: 401 up to the budget, then 429 for whatever it would be refused', async () => {
    const answers = [];
    for (let i = 0; i < PER_MINUTE + 15; i++) answers.push((await badToken()).status);
    expect(answers.slice(0, PER_MINUTE)).toEqual(Array(PER_MINUTE).fill(401));
    expect(new Set(answers.slice(PER_MINUTE))).toEqual(new Set([429]));
    const blocked = await badToken();
    // The minute ends 55 s after the clock's time.
    expect(blocked.headers['retry-after']).toBe('55');
    // A forged X-Forwarded-For from an untrusted peer is ignored: the peer is still the source.
    expect((await badToken({ 'x-forwarded-for': '198.51.100.7' })).status).toBe(429);
  });

  test('a valid token from the flooding address is served, and the flood stays refused and unrecorded', async () => {
    expect((await badToken()).status).toBe(429);
    // A governance manager behind the same address (a NAT, a proxy not listed as trusted).
    const lynne = await suite.app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER']);
    const served = await suite.app.call('GET', '/api/v1.0/audit_trails/events', { token: lynne });
    expect(served.status).toBe(200);
    expect(served.headers['x-ratelimit-limit']).toBeDefined();
    // A valid token without the role is refused as the flood is: 429, not recorded.
    const alex = await suite.app.userToken(PEOPLE.alex);
    expect((await suite.app.call('GET', '/api/v1.0/audit_trails/events', { token: alex })).status).toBe(429);
    // The flood goes on being answered 429, interleaved with the valid caller's calls.
    const statuses = [];
    for (let i = 0; i < 10; i++) {
      statuses.push((await badToken()).status);
      statuses.push((await suite.app.call('GET', '/api/v1.0/users', { token: lynne })).status);
    }
    expect(statuses).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 429 : 200)));
  });

  test('the flood is one record with the count of the 401s; the 429s write nothing', async () => {
    clock.set('2026-11-23T10:01:00.000Z');
    const records = fromLoopback(await securityRecords(suite.app));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      action: 'authentication_failed',
      outcome: 'denied',
      date: '2026-11-23T10:00:05.000Z',
      details: { status: 401, reason: MALFORMED, source: '127.0.0.1', count: PER_MINUTE },
    });
    // The record names the first refused call, which an investigator can follow.
    expect(records[0]!['request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('the next minute is a new record and a new budget', async () => {
    clock.set('2026-11-23T10:01:30.000Z');
    expect((await badToken()).status).toBe(401);
    const records = fromLoopback(await securityRecords(suite.app));
    expect(records.map((r) => [r.date, countOf(r)])).toEqual([
      ['2026-11-23T10:01:30.000Z', 1],
      ['2026-11-23T10:00:05.000Z', PER_MINUTE],
    ]);
  });

  test('a count can only grow: the database refuses to lower it, rewrite a row or delete one', async () => {
    const store = openStore(storeOptionsOf(suite.db));
    try {
      // A row of its own, so the test does not depend on what the server wrote or when.
      const refusal = {
        tenantId: 'tenant-of-this-test',
        source: '198.51.100.200',
        status: 401,
        reason: 'test',
        actor: { id: 'anonymous', type: 'anonymous' as const },
        action: 'authentication_failed',
        target: { type: 'operation', id: 'getUsers' },
        requestId: 'r-1',
        details: {},
      };
      expect(await new RefusalRepository(store.db).add(refusal, new Date('2026-11-23T10:05:00Z'))).toBe(1);
      const row = store.db.updateTable('refusal_counts').where('tenant_id', '=', refusal.tenantId);
      await expect(row.set({ count: 0 }).execute()).rejects.toThrow(/only grow/);
      await expect(row.set({ source: '198.51.100.9' }).execute()).rejects.toThrow(/only grow/);
      const remove = store.db.deleteFrom('refusal_counts').where('tenant_id', '=', refusal.tenantId);
      await expect(remove.execute()).rejects.toThrow(/only grow/);
      await expect(row.set((eb) => ({ count: eb('count', '+', 1) })).execute()).resolves.toBeDefined();
    } finally {
      await store.close();
    }
  });
});

describe('the sources a minute counts', () => {
  test('past the most sources a minute counts, another address is refused 429 and recorded nowhere', async () => {
    const at = new Date('2026-11-23T14:00:00.000Z');
    const guard = new RefusalGuard({
      perMinute: 5,
      tenantId: 't',
      onError: () => undefined,
      now: () => at,
      maxSources: 3,
    });
    const refusal = (source: string) => ({
      source,
      status: 401,
      operationId: 'getUsers',
      method: 'GET',
      path: '/api/v1.0/users',
      reason: MALFORMED,
      requestId: 'r',
    });
    for (const source of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      expect(guard.blockedFor(source)).toBe(0);
      await guard.refused(refusal(source));
    }
    // The three counted keep their budgets; a fourth address is not counted, so it is held at 429.
    expect(guard.blockedFor('198.51.100.1')).toBe(0);
    expect(guard.blockedFor('198.51.100.4')).toBe(60);
    // The next minute starts empty.
    at.setTime(Date.parse('2026-11-23T14:01:00.000Z'));
    expect(guard.blockedFor('198.51.100.4')).toBe(0);
  });
});

describe.each(databaseKinds)('a thousand refused calls on %s', (kind) => {
  let db: TestDatabase;
  const clock = handClock('2026-11-23T11:00:00.000Z');
  const apps: TestSteward[] = [];
  const start = async () => {
    // A budget larger than the flood: every call is a refusal the trail must count.
    const env = { STEWARD_RATE_LIMIT_FACTOR: '1', STEWARD_REFUSALS_PER_MINUTE: '100000' };
    const app = await startTestSteward(db, env, { now: clock.now });
    apps.push(app);
    return app;
  };

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await db.drop();
  });

  test('1 000 bad-token calls in one minute: exactly one record per reason, with its count', async () => {
    const app = await start();
    const statuses = await flood([app], 1000);
    expect(statuses.filter((s) => s === 401)).toHaveLength(1000);
    const records = fromLoopback(await securityRecords(app));
    expect(records).toHaveLength(2);
    const byReason = new Map(records.map((r) => [(r.details as { reason: string }).reason, r]));
    expect(countOf(byReason.get(MALFORMED))).toBe(500);
    expect(countOf(byReason.get(NO_TOKEN))).toBe(500);
  });

  test('two API instances on one database: still one record per reason, with the summed count', async () => {
    clock.set('2026-11-23T11:01:10.000Z');
    const second = await start();
    const statuses = await flood([apps[0]!, second], 600, 40);
    expect(statuses.filter((s) => s === 401)).toHaveLength(600);
    const minute = fromLoopback(await securityRecords(second)).filter((r) => r.date >= '2026-11-23T11:01');
    expect(minute.map((r) => [(r.details as { reason: string }).reason, countOf(r)]).sort()).toEqual([
      [NO_TOKEN, 300],
      [MALFORMED, 300],
    ]);
  });
});

describe.each(databaseKinds)('the refusal budget across API instances on %s', (kind) => {
  let db: TestDatabase;
  const apps: TestSteward[] = [];
  const clock = handClock('2026-11-23T12:00:00.000Z');

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    const env = { STEWARD_RATE_LIMIT_FACTOR: '1', STEWARD_REFUSALS_PER_MINUTE: String(PER_MINUTE) };
    for (let i = 0; i < 2; i++) apps.push(await startTestSteward(db, env, { now: clock.now }));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await db.drop();
  });

  test('a source that alternates between instances gets the budget, at most one more per other instance', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3 * PER_MINUTE; i++) {
      statuses.push((await apps[i % 2]!.call('GET', '/api/v1.0/users', { token: 'bad' })).status);
    }
    const refused = statuses.filter((s) => s === 401).length;
    expect(refused).toBeGreaterThanOrEqual(PER_MINUTE);
    expect(refused).toBeLessThanOrEqual(PER_MINUTE + 1);
    expect(statuses.slice(refused)).toEqual(Array(3 * PER_MINUTE - refused).fill(429));
    // The record counts exactly the calls that were refused with 401 (read in the next minute,
    // when the address may call again).
    clock.set('2026-11-23T12:01:00.000Z');
    const [record] = fromLoopback(await securityRecords(apps[0]!));
    expect(countOf(record)).toBe(refused);
  });
});

describe.each(databaseKinds)('refused calls behind a trusted proxy, on %s', (kind) => {
  const suite = suiteSteward(kind, {
    env: {
      STEWARD_RATE_LIMIT_FACTOR: '1',
      STEWARD_REFUSALS_PER_MINUTE: '3',
      STEWARD_TRUSTED_PROXIES: '127.0.0.1',
    },
    // One fixed minute: a budget that renews mid-test would let a blocked client through.
    overrides: { now: () => new Date('2026-11-23T13:00:00.000Z') },
  });

  test('each forwarded client has its own budget when the peer is a trusted proxy', async () => {
    const from = async (client: string) =>
      (
        await suite.app.call('GET', '/api/v1.0/users', {
          token: 'bad',
          headers: { 'x-forwarded-for': client },
        })
      ).status;
    const first = [];
    for (let i = 0; i < 4; i++) first.push(await from('198.51.100.1'));
    expect(first).toEqual([401, 401, 401, 429]);
    expect(await from('198.51.100.2')).toBe(401);
    // The nearest untrusted hop counts: a client cannot hide behind an address it writes itself.
    expect(await from('203.0.113.9, 198.51.100.1')).toBe(429);
  });

  test('whatever a trusted proxy forwards as the address, the refusal is recorded', async () => {
    const long = `client-${'x'.repeat(300)}`;
    expect(
      (await suite.app.call('GET', '/api/v1.0/users', { token: 'bad', headers: { 'x-forwarded-for': long } }))
        .status,
    ).toBe(401);
    const records = (await securityRecords(suite.app)).filter(
      (r) => (r.details as { source?: string }).source === long,
    );
    expect(records.map(countOf)).toEqual([1]);
  });
});
