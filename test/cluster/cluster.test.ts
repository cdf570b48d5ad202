import { Client } from 'pg';
import { request } from 'undici';
import { EmbeddedTokenIssuer } from '../../src/services/access/tokens';
import { alive, type RunningCluster, startCluster, WebhookReceiver } from '../support/cluster';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { call, oneLimitThrough, provisionOnceThrough, until } from '../support/deploymentChecks';
import { PEOPLE, TENANT, TEST_SECRET } from '../support/steward';

/**
 * `npm run start:cluster` for real: two API processes and two workers on one PostgreSQL database
 * behind the entry, 200 teams provisioned through it, then the store and a webhook receiver are
 * checked for work done once and only once; and the rate limits hold across the API processes.
 */
const issuer = new EmbeddedTokenIssuer(TEST_SECRET, TENANT);

const onPostgres = process.env.STEWARD_TEST_DATABASE_URL ? describe : describe.skip;
if (!process.env.STEWARD_TEST_DATABASE_URL) {
  process.stderr.write(
    '\n*** test/cluster SKIPPED: the multi-process deployment needs PostgreSQL. ' +
      'Set STEWARD_TEST_DATABASE_URL=postgres://… to run it. ***\n\n',
  );
}

onPostgres('the cluster on PostgreSQL (two API processes, two workers)', () => {
  let db: TestDatabase;
  let sql: Client;
  const receiver = new WebhookReceiver();
  const clusters: RunningCluster[] = [];
  const env = (factor: string) => ({
    STEWARD_DATABASE_URL: db.url,
    STEWARD_DATA_DIR: db.dataDir,
    STEWARD_AUTH_SECRET: TEST_SECRET,
    STEWARD_RATE_LIMIT_FACTOR: factor,
    STEWARD_LOG_LEVEL: 'info',
    STEWARD_JOB_POLL_MS: '200',
    STEWARD_WEBHOOK_ALLOW_LOOPBACK: 'true',
  });
  const rows = async <T>(text: string) => (await sql.query(text)).rows as T[];

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    await receiver.start();
  });
  afterAll(async () => {
    for (const cluster of clusters) cluster.kill();
    await sql?.end();
    await receiver.close();
    await db?.drop();
  });

  test('200 teams through the entry: every job done once, no duplicate team, each webhook delivered once', async () => {
    const cluster = await startCluster(['--api', '2', '--workers', '2', '--port', '0'], env('1000'));
    clusters.push(cluster);
    expect(cluster.processes.map((p) => p.role).sort()).toEqual(['api', 'api', 'worker', 'worker']);
    await provisionOnceThrough(cluster.url, rows, receiver);

    // SIGTERM stops the entry and every process.
    expect(await cluster.stop()).toBe(0);
    expect(cluster.processes.filter((p) => alive(p.pid))).toEqual([]);
  }, 200_000);

  test('one caller alternating between the API processes gets the tier limit once, not twice', async () => {
    // Production limits: tier 2 (the caller's templates) allows 20 calls a minute.
    const cluster = await startCluster(['--api', '2', '--workers', '0', '--port', '0'], env('1'));
    clusters.push(cluster);
    const [first, second] = cluster.processes.filter((p) => p.role === 'api');
    const isaiah = await issuer.mint({ id: PEOPLE.isaiah, roles: [] });
    const answers: Array<{ status: number; remaining: string }> = [];
    for (let i = 0; i < 30; i += 1) {
      const backend = i % 2 === 0 ? first! : second!;
      const res = await call(`${backend.url}/api/v1.0/me/catalog/templates`, 'GET', isaiah);
      answers.push({ status: res.status, remaining: String(res.headers['x-ratelimit-remaining']) });
    }
    expect(answers.slice(0, 20)).toEqual(
      Array.from({ length: 20 }, (_v, i) => ({ status: 200, remaining: String(19 - i) })),
    );
    expect(answers.slice(20).map((a) => a.status)).toEqual(Array(10).fill(429));

    // Through the entry (round-robin) the same holds for another caller.
    await oneLimitThrough(cluster.url);
    const alex = await issuer.mint({ id: PEOPLE.alex, roles: [] });

    // An API process that dies is restarted; meanwhile the entry sends everything to the other one.
    process.kill(first!.pid, 'SIGKILL');
    await until(
      'the exit to be noticed',
      async () =>
        cluster.logs().some((l) => l.msg === 'process exited unexpectedly; restarting it') || undefined,
      10_000,
    );
    for (let i = 0; i < 4; i += 1)
      expect((await call(`${cluster.url}/healthz`, 'GET', alex)).status).toBe(200);
    await until(
      'the restarted process to be ready',
      async () =>
        cluster
          .logs()
          .some((l) => l.msg === 'process ready' && l.process === 'api-1' && l.pid !== first!.pid) ||
        undefined,
      30_000,
    );
    expect((await call(`${first!.url}/readyz`, 'GET', alex)).status).toBe(200);

    expect(await cluster.stop()).toBe(0);
  }, 120_000);

  test('refused calls through the entry: each client is its own source, one record per minute with the summed count', async () => {
    const cluster = await startCluster(['--api', '2', '--workers', '0', '--port', '0'], env('1'));
    clusters.push(cluster);
    // 20 bad tokens from each of two clients, round-robin over both API processes: under each
    // client's budget of 30, so every one is a 401 (with the entry as the source, 40 would not be).
    const statuses: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      const client = i % 2 === 0 ? '198.51.100.7' : '198.51.100.8';
      const res = await request(`${cluster.url}/api/v1.0/users`, {
        headers: { authorization: 'Bearer not.a.jwt', 'x-forwarded-for': client },
      });
      await res.body.dump();
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual(Array(40).fill(401));
    const counted = await rows<{ source: string; minute: string; count: string }>(
      "select source, minute, count from refusal_counts where source like '198.51.100.%'",
    );
    for (const client of ['198.51.100.7', '198.51.100.8']) {
      const mine = counted.filter((r) => r.source === client);
      // One record per minute (the calls may straddle two), adding up to every refusal.
      expect(new Set(mine.map((r) => r.minute)).size).toBe(mine.length);
      expect(mine.reduce((sum, r) => sum + Number(r.count), 0)).toBe(20);
    }
    expect(await cluster.stop()).toBe(0);
  }, 120_000);
});
