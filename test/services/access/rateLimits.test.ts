import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { recordStatements, type StatementLog } from '../../support/statementLog';
import { PEOPLE, startTestSteward, suiteSteward, type TestSteward } from '../../support/steward';

/** Budgets per caller, per tenant and per tier, at the contract's limits (factor 1). */
describe('rate limits', () => {
  const suite = suiteSteward('sqlite', { env: { STEWARD_RATE_LIMIT_FACTOR: '1' } });

  test('a tier-2 operation allows 20 calls a minute, counting down, then 429 with Retry-After', async () => {
    const token = await suite.app.userToken(PEOPLE.isaiah);
    for (let i = 1; i <= 20; i++) {
      const res = await suite.app.call('GET', '/api/v1.0/me/catalog/templates', { token });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('20');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(20 - i));
    }
    const refused = await suite.app.call('GET', '/api/v1.0/me/catalog/templates', { token });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: { code: 'tooManyRequests' } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');

    // Another tier has its own budget (getUsers is tier 3: 60 a minute)…
    const users = await suite.app.call('GET', '/api/v1.0/users?$top=1', { token });
    expect(users.status).toBe(200);
    expect(users.headers['x-ratelimit-limit']).toBe('60');
    // …and another caller is not affected.
    const other = await suite.app.call('GET', '/api/v1.0/me/catalog/templates', {
      token: await suite.app.userToken(PEOPLE.alex),
    });
    expect(other.status).toBe(200);
  });

  test('operations of one tier share the caller’s budget', async () => {
    const token = await suite.app.userToken(PEOPLE.patti, ['CATALOG_MANAGER']);
    for (let i = 0; i < 10; i++) await suite.app.call('GET', '/api/v1.0/catalog/templates', { token });
    const res = await suite.app.call('GET', '/api/v1.0/me/labels', { token });
    expect(res.headers['x-ratelimit-remaining']).toBe('9');
  });

  test('requests refused before authentication do not spend anyone’s budget', async () => {
    const token = await suite.app.userToken(PEOPLE.lynne);
    for (let i = 0; i < 25; i++)
      await suite.app.call('GET', '/api/v1.0/me/catalog/templates', { token: 'garbage' });
    const res = await suite.app.call('GET', '/api/v1.0/me/catalog/templates', { token });
    expect(res.headers['x-ratelimit-remaining']).toBe('19');
  });
});

/** Callers' budgets are shared by every process on the database: SQLite's file as PostgreSQL. */
describe.each(databaseKinds)('rate limits across API processes on %s', (kind) => {
  let db: TestDatabase;
  let first: TestSteward;
  let second: TestSteward;
  let log: StatementLog;

  beforeAll(async () => {
    log = recordStatements();
    db = await createTestDatabase(kind);
    first = await startTestSteward(db, { STEWARD_RATE_LIMIT_FACTOR: '1', STEWARD_ROLE: 'api' });
    second = await startTestSteward(db, { STEWARD_RATE_LIMIT_FACTOR: '1', STEWARD_ROLE: 'api' });
  });
  afterAll(async () => {
    log.restore();
    await first.close();
    await second.close();
    await db.drop();
  });

  test('alternating between two servers does not double a caller’s budget, and counts it exactly', async () => {
    const token = await first.userToken(PEOPLE.alex);
    const answers: Array<{ status: number; remaining: string }> = [];
    for (let i = 0; i < 30; i++) {
      const server = i % 2 === 0 ? first : second;
      const res = await server.call('GET', '/api/v1.0/me/catalog/templates', { token });
      answers.push({ status: res.status, remaining: res.headers['x-ratelimit-remaining']! });
    }
    expect(answers.slice(0, 20)).toEqual(
      Array.from({ length: 20 }, (_v, i) => ({ status: 200, remaining: String(19 - i) })),
    );
    expect(answers.slice(20).map((a) => a.status)).toEqual(Array(10).fill(429));
  });

  test('a caller who stays with one server is counted in blocks: a statement per block, none once refused', async () => {
    const token = await first.userToken(PEOPLE.isaiah);
    const remaining: string[] = [];
    const leases = await log.during(async () => {
      for (let i = 0; i < 20; i++) {
        const res = await first.call('GET', '/api/v1.0/me/catalog/templates', { token });
        expect(res.status).toBe(200);
        remaining.push(res.headers['x-ratelimit-remaining']!);
      }
    });
    expect(remaining).toEqual(Array.from({ length: 20 }, (_v, i) => String(19 - i)));
    // Blocks of 1 then 2 calls (the largest block at a limit of 20): 11 leases, not 20 statements.
    expect(leases.filter((s) => s.includes('rate_limits'))).toHaveLength(11);
    const refused = await log.during(async () => {
      for (let i = 0; i < 5; i++) {
        const res = await first.call('GET', '/api/v1.0/me/catalog/templates', { token });
        expect(res.status).toBe(429);
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
      }
    });
    expect(refused.filter((s) => s.includes('rate_limits'))).toEqual([]);
    // The other server finds the budget spent too.
    expect((await second.call('GET', '/api/v1.0/me/catalog/templates', { token })).status).toBe(429);
  });
});

describe.each(databaseKinds)('a burst spread over two API processes on %s', (kind) => {
  let db: TestDatabase;
  let first: TestSteward;
  let second: TestSteward;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    // Tier 2 at 200 calls a minute: blocks grow to 25 calls.
    first = await startTestSteward(db, { STEWARD_RATE_LIMIT_FACTOR: '10', STEWARD_ROLE: 'api' });
    second = await startTestSteward(db, { STEWARD_RATE_LIMIT_FACTOR: '10', STEWARD_ROLE: 'api' });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await db.drop();
  });

  test('never gets past the limit, and loses at most one block to the process it left', async () => {
    const token = await first.userToken(PEOPLE.adele);
    const call = (i: number) =>
      (i % 3 === 0 ? second : first).call('GET', '/api/v1.0/me/catalog/templates', { token });
    const statuses: number[] = [];
    // 300 calls, 20 at a time, two in three to the first server.
    for (let i = 0; i < 300; i += 20)
      statuses.push(
        ...(await Promise.all(Array.from({ length: 20 }, (_v, j) => call(i + j)))).map((r) => r.status),
      );
    const allowed = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(allowed).toBeLessThanOrEqual(200);
    expect(allowed).toBeGreaterThanOrEqual(200 - 24);
  });
});
