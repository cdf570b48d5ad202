import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Agent } from 'undici';
import type { StoredJob } from '../../../src/domain/jobs';
import type { Job } from '../../../src/contract';
import { createGraphPlatform } from '../../../src/platform/graph';
import { toJob } from '../../../src/store/jobs/jobRows';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { FAKE_GRAPH_CERT, FakeGraph } from '../../support/fakeGraph';
import { BOT, seedTenant, graphSettings } from '../../support/graphTenant';
import { type Process, spawnMain } from '../../support/mainProcess';
import { PEOPLE, startTestSteward, TEST_SECRET, type TestSteward } from '../../support/steward';
import { DEMO_CHOICES } from '../../support/demoChoices';

const PROJECT_CHANNELS = ['Deliverables', 'General', 'Planning'];
/**
 * How long a wait for the jobs' state may take: it includes a worker process's start-up, which takes
 * seconds on a loaded two-core machine. A bound against a hang, not a speed target.
 */
const WAIT_MS = 60_000;
jest.setTimeout(3 * WAIT_MS);

/**
 * Worker processes killed with SIGKILL against the Graph simulator, while their jobs are parked
 * (Graph creating the teams) and while jobs are in the middle of a step: after other workers start,
 * every job completes once, with exactly one team, and no duplicate member, channel or tab.
 */
describe.each(databaseKinds)('worker processes killed while Graph works (%s)', (kind) => {
  let fake: FakeGraph;
  let dispatcher: Agent;
  let db: TestDatabase;
  let api: TestSteward;
  let alex: string;
  const workers: Process[] = [];

  const graphEnv = (): Record<string, string> => ({
    ...DEMO_CHOICES,
    ...graphSettings(fake),
    // Graph's pace (31 s, then 1.5 times longer) at a hundredth, as the simulator's latencies.
    STEWARD_GRAPH_TIME_SCALE: '0.01',
  });

  const startWorker = (): Process => {
    const worker = spawnMain({
      ...graphEnv(),
      STEWARD_ROLE: 'worker',
      STEWARD_PORT: '0',
      STEWARD_HOST: '127.0.0.1',
      STEWARD_DATA_DIR: db.dataDir,
      STEWARD_DATABASE_URL: db.url,
      STEWARD_AUTH_SECRET: TEST_SECRET,
      STEWARD_LOG_LEVEL: 'warn',
      STEWARD_JOB_LEASE_MS: '1500',
      STEWARD_JOB_POLL_MS: '50',
      STEWARD_WORKER_CONCURRENCY: '2',
      // The worker trusts the simulator's certificate as it would a real CA's.
      NODE_EXTRA_CA_CERTS: path.join(db.dataDir, 'fake-graph.pem'),
    });
    workers.push(worker);
    return worker;
  };

  const kill = async (worker: Process) => {
    worker.child.kill('SIGKILL');
    expect((await worker.exited).signal).toBe('SIGKILL');
  };

  beforeAll(async () => {
    fake = await FakeGraph.start({ bot: BOT, latency: { minMs: 1000, maxMs: 1500 }, replicationMs: 200 });
    dispatcher = fake.dispatcher();
    seedTenant(fake);
    db = await createTestDatabase(kind);
    writeFileSync(path.join(db.dataDir, 'fake-graph.pem'), FAKE_GRAPH_CERT);
    // The API alone (people are resolved in the simulator's directory); jobs are left to the workers.
    const platform = createGraphPlatform(fake.config(), { dispatcher });
    api = await startTestSteward(db, { ...graphEnv(), STEWARD_ROLE: 'api' }, { platform });
    alex = await api.userToken(PEOPLE.alex);
  });

  afterEach(() => fake.clearFaults());

  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGKILL');
    await api?.close();
    await dispatcher?.close();
    await fake?.close();
    await db?.drop();
  });

  const request = async (name: string): Promise<string> => {
    const res = await api.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: alex,
      body: {
        template: { id: 'project' },
        team: { name, membership: { members: [{ id: PEOPLE.isaiah }, { id: PEOPLE.lynne }] } },
      },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };

  const storedJobs = async (ids: string[]): Promise<StoredJob[]> => {
    const rows = await api.steward.store.db.selectFrom('jobs').selectAll().where('id', 'in', ids).execute();
    return rows.map(toJob);
  };

  const until = async (what: string, ids: string[], done: (jobs: StoredJob[]) => boolean, ms = WAIT_MS) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const jobs = await storedJobs(ids);
      if (done(jobs)) return jobs;
      if (Date.now() > deadline) {
        throw new Error(`${what}: ${JSON.stringify(jobs.map((j) => [j.status, j.checkpoint, j.log]))}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  /** Each job completed once, with one team that has its people, channels and tabs once each. */
  const expectEachOnce = async (ids: string[]) => {
    const jobs = await until('jobs did not all complete', ids, (all) =>
      all.every((j) => j.status === 'completed' || j.status === 'failed'),
    );
    for (const job of jobs) {
      expect({ id: job.id, status: job.status, failedReason: job.failedReason, log: job.log }).toMatchObject({
        status: 'completed',
      });
      const groups = [...fake.groups.values()].filter((g) => g.uniqueName === `steward-${job.id}`);
      expect(groups).toHaveLength(1);
      const name = groups[0]!.displayName;
      expect([...fake.groups.values()].filter((g) => g.displayName === name)).toHaveLength(1);
      const team = fake.teams.get(groups[0]!.id)!;
      expect(job.teamId).toBe(team.id);
      const people = team.members.map((m) => m.userId).sort();
      expect(people).toEqual([PEOPLE.alex, PEOPLE.isaiah, PEOPLE.lynne].sort());
      expect(team.members.find((m) => m.userId === PEOPLE.alex)?.roles).toEqual(['owner']);
      expect(team.channels.map((c) => c.displayName).sort()).toEqual(PROJECT_CHANNELS);
      expect(team.channels.flatMap((c) => c.tabs.map((t) => `${c.displayName}/${t.displayName}`))).toEqual([
        'Planning/Project charter',
      ]);
      expect(job.log.filter((line) => line.startsWith('Created team'))).toHaveLength(1);
    }
    // Completed once: one completion in the audit trail and one event each.
    const store = api.steward.store.db;
    const completions = await store
      .selectFrom('audit_records')
      .select('target')
      .where('action', '=', 'job_completed')
      .execute();
    const completed = completions.map((r) => (JSON.parse(r.target) as { id: string }).id);
    for (const id of ids) expect(completed.filter((c) => c === id)).toHaveLength(1);
    const events = await store
      .selectFrom('outbox_events')
      .select('payload')
      .where('type', '=', 'team_provisioning_completed')
      .execute();
    const provisioned = events.map(
      (e) => (JSON.parse(e.payload) as { provisioning: { id: string } }).provisioning.id,
    );
    for (const id of ids) expect(provisioned.filter((p) => p === id)).toHaveLength(1);
  };

  test('killed while its jobs are parked: two new workers finish them, one team each, each created once', async () => {
    const ids = [];
    for (let n = 0; n < 4; n++) ids.push(await request(`Parked crash ${kind} ${n}`));
    const postsBefore = fake
      .graphRequests()
      .filter((r) => r.method === 'POST' && r.path === '/v1.0/teams').length;
    const first = startWorker();
    // Every job has handed its team to Graph and parked; none is finished.
    await until('the jobs did not all park', ids, (jobs) =>
      jobs.every((j) => j.status === 'parked' && j.checkpoint.pending?.location),
    );
    await kill(first);

    startWorker();
    startWorker();
    await expectEachOnce(ids);
    // Back from their park, the jobs followed the operations they had started.
    const posts = fake.graphRequests().filter((r) => r.method === 'POST' && r.path === '/v1.0/teams').length;
    expect(posts - postsBefore).toBe(ids.length);
  });

  test('killed in the middle of steps (a channel made, the next one refused for a while): resumed without duplicates', async () => {
    const ids = [];
    for (let n = 0; n < 4; n++) ids.push(await request(`Mid-step crash ${kind} ${n}`));
    // Graph makes a first channel, then is unavailable for a while: jobs stay in the middle of their
    // channels step while the client honours Retry-After.
    const channelPosts = () =>
      fake.graphRequests().filter((r) => r.method === 'POST' && /\/channels$/.test(r.path)).length;
    const mark = channelPosts();
    const first = startWorker();
    await until('no job made a channel', ids, () => channelPosts() > mark);
    fake.fail({ method: 'POST', path: /\/channels$/, times: 1000, status: 503, retryAfter: '1' });
    await until('no job is in the middle of its channels', ids, (jobs) =>
      jobs.some(
        (j) =>
          j.status === 'active' &&
          j.checkpoint.done.includes('team') &&
          !j.checkpoint.done.includes('channels'),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await kill(first);
    fake.clearFaults();

    startWorker();
    await expectEachOnce(ids);
  });
});
