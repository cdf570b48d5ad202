import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases';
import { PEOPLE, startTestSteward, type TestSteward } from '../support/steward';

/** Budgets per caller, per tenant and per tier, at the contract's limits (factor 1). */
describe('rate limits', () => {
  let db: TestDatabase;
  let app: TestSteward;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    app = await startTestSteward(db, { STEWARD_RATE_LIMIT_FACTOR: '1' });
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
  });

  test('a tier-2 operation allows 20 calls a minute, counting down, then 429 with Retry-After', async () => {
    const token = await app.userToken(PEOPLE.isaiah);
    for (let i = 1; i <= 20; i++) {
      const res = await app.call('GET', '/api/v1.0/me/catalog/templates', { token });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('20');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(20 - i));
    }
    const refused = await app.call('GET', '/api/v1.0/me/catalog/templates', { token });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: { code: 'tooManyRequests' } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');

    // Another tier has its own budget (getUsers is tier 3: 60 a minute)…
    const users = await app.call('GET', '/api/v1.0/users?$top=1', { token });
    expect(users.status).toBe(200);
    expect(users.headers['x-ratelimit-limit']).toBe('60');
    // …and another caller is not affected.
    const other = await app.call('GET', '/api/v1.0/me/catalog/templates', {
      token: await app.userToken(PEOPLE.alex),
    });
    expect(other.status).toBe(200);
  });

  test('operations of one tier share the caller’s budget', async () => {
    const token = await app.userToken(PEOPLE.patti, ['CATALOG_MANAGER']);
    for (let i = 0; i < 10; i++) await app.call('GET', '/api/v1.0/catalog/templates', { token });
    const res = await app.call('GET', '/api/v1.0/me/labels', { token });
    expect(res.headers['x-ratelimit-remaining']).toBe('9');
  });

  test('requests refused before authentication do not spend anyone’s budget', async () => {
    const token = await app.userToken(PEOPLE.lynne);
    for (let i = 0; i < 25; i++)
      await app.call('GET', '/api/v1.0/me/catalog/templates', { token: 'garbage' });
    const res = await app.call('GET', '/api/v1.0/me/catalog/templates', { token });
    expect(res.headers['x-ratelimit-remaining']).toBe('19');
  });
});

const onPostgres = databaseKinds.includes('postgres') ? describe : describe.skip;

onPostgres('rate limits across API processes on PostgreSQL', () => {
  let db: TestDatabase;
  let first: TestSteward;
  let second: TestSteward;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    first = await startTestSteward(db, { STEWARD_RATE_LIMIT_FACTOR: '1' });
    second = await startTestSteward(db, { STEWARD_RATE_LIMIT_FACTOR: '1' });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await db.drop();
  });

  test('alternating between two servers does not double a caller’s budget', async () => {
    const token = await first.userToken(PEOPLE.alex);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const server = i % 2 === 0 ? first : second;
      statuses.push((await server.call('GET', '/api/v1.0/me/catalog/templates', { token })).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
  });
});
