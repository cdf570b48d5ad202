import { loadConfig } from '../../src/config';
import { openStore } from '../../src/store/database';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases';
import { PEOPLE, startTestSteward, TEST_SECRET, type TestSteward } from '../support/steward';

const PER_MINUTE = 10;

describe.each(databaseKinds)('refused calls per source, on %s', (kind) => {
  let db: TestDatabase;
  let app: TestSteward;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    app = await startTestSteward(db, {
      STEWARD_RATE_LIMIT_FACTOR: '1',
      STEWARD_REFUSALS_PER_MINUTE: String(PER_MINUTE),
      STEWARD_TRUSTED_PROXIES: '127.0.0.2',
    });
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
  });

  const badToken = (headers: Record<string, string> = {}) =>
    app.call('GET', '/api/v1.0/users', { token: 'not.a.jwt', headers });

  /** Security records of the store, read after the server stopped (it writes its last counts then). */
  async function securityRecords(): Promise<
    { request_id: string | null; details: Record<string, unknown> }[]
  > {
    const config = loadConfig({
      STEWARD_DATABASE_URL: db.url,
      STEWARD_DATA_DIR: db.dataDir,
      STEWARD_AUTH_SECRET: TEST_SECRET,
    });
    const store = openStore(config.database);
    try {
      const rows = await store.db
        .selectFrom('audit_records')
        .select(['request_id', 'details'])
        .where('trail', '=', 'security')
        .orderBy('seq')
        .execute();
      return rows.map((r) => ({ request_id: r.request_id, details: JSON.parse(r.details ?? '{}') }));
    } finally {
      await store.close();
    }
  }

  test('a flood of bad tokens from one address: 401 up to the budget, then 429 for everyone from it', async () => {
    const answers = [];
    for (let i = 0; i < PER_MINUTE + 15; i++) answers.push((await badToken()).status);
    expect(answers.slice(0, PER_MINUTE)).toEqual(Array(PER_MINUTE).fill(401));
    expect(new Set(answers.slice(PER_MINUTE))).toEqual(new Set([429]));
    const blocked = await badToken();
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    // A forged X-Forwarded-For from an untrusted peer is ignored: the peer is still the source.
    expect((await badToken({ 'x-forwarded-for': '198.51.100.7' })).status).toBe(429);
    // Even a good token waits: the address is what is limited, before any token is looked at.
    const token = await app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    expect((await app.call('GET', '/api/v1.0/users', { token })).status).toBe(429);
  });

  test('the flood is recorded in aggregate: a few records one by one, then one record with the count', async () => {
    await app.close();
    const records = (await securityRecords()).filter((r) => r.details.path === '/api/v1.0/users');
    const single = records.filter((r) => r.details.count === 1);
    const aggregated = records.filter((r) => Number(r.details.count) > 1);
    // Five one by one per minute; the flood takes well under a second, but may straddle two minutes.
    expect(single.length === 5 || single.length === 10).toBe(true);
    expect(single.every((r) => r.request_id !== null && r.details.source === '127.0.0.1')).toBe(true);
    expect(aggregated.length).toBeLessThanOrEqual(2);
    expect(aggregated.every((r) => r.request_id === null && r.details.source === '127.0.0.1')).toBe(true);
    expect(aggregated[0]?.details).toMatchObject({ source: '127.0.0.1', status: 401 });
    // 429s are not refusals by the token check: they write nothing.
    const counted = aggregated.reduce((sum, r) => sum + Number(r.details.count), 0);
    expect(single.length + counted).toBe(PER_MINUTE);
  });
});

describe.each(databaseKinds)('refused calls behind a trusted proxy, on %s', (kind) => {
  let db: TestDatabase;
  let app: TestSteward;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    app = await startTestSteward(db, {
      STEWARD_RATE_LIMIT_FACTOR: '1',
      STEWARD_REFUSALS_PER_MINUTE: '3',
      STEWARD_TRUSTED_PROXIES: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
  });

  test('each forwarded client has its own budget when the peer is a trusted proxy', async () => {
    const from = async (client: string) =>
      (await app.call('GET', '/api/v1.0/users', { token: 'bad', headers: { 'x-forwarded-for': client } }))
        .status;
    const first = [];
    for (let i = 0; i < 4; i++) first.push(await from('198.51.100.1'));
    expect(first).toEqual([401, 401, 401, 429]);
    expect(await from('198.51.100.2')).toBe(401);
    // The nearest untrusted hop counts: a client cannot hide behind an address it writes itself.
    expect(await from('203.0.113.9, 198.51.100.1')).toBe(429);
  });
});
