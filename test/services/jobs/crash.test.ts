import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { Job } from '../../../src/contract';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, startTestSteward, TEST_SECRET, type TestSteward } from '../../support/steward';

const MAIN = path.join(__dirname, '..', '..', '..', 'dist', 'main.js');
/**
 * How long a wait for the jobs' state may take: it includes a worker process's start-up, which takes
 * seconds on a loaded two-core machine. A bound against a hang, not a speed target.
 */
const WAIT_MS = 60_000;

/**
 * A worker process killed with SIGKILL in the middle of a provisioning job: after another worker
 * starts, the job completes with exactly one team and no duplicated member.
 */
describe.each(databaseKinds)('a worker killed mid-job (%s)', (kind) => {
  let db: TestDatabase;
  let api: TestSteward;
  const workers: ChildProcess[] = [];

  const env = (database: TestDatabase) => ({
    ...process.env,
    STEWARD_ROLE: 'worker',
    STEWARD_PORT: '0',
    STEWARD_HOST: '127.0.0.1',
    STEWARD_DATA_DIR: database.dataDir,
    STEWARD_DATABASE_URL: database.url,
    STEWARD_AUTH_SECRET: TEST_SECRET,
    STEWARD_LOG_LEVEL: 'warn',
    STEWARD_EMBEDDED_LATENCY_MS: '150',
    STEWARD_JOB_LEASE_MS: '1500',
    STEWARD_JOB_POLL_MS: '100',
    STEWARD_WORKER_CONCURRENCY: '2',
  });
  const startWorker = () => {
    const child = spawn(process.execPath, [MAIN], {
      env: env(db),
      stdio: 'ignore',
    });
    workers.push(child);
    return child;
  };

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    // The API alone: jobs are left to the worker processes.
    api = await startTestSteward(db, { STEWARD_ROLE: 'api' });
  });
  afterAll(async () => {
    for (const child of workers) child.kill('SIGKILL');
    await api.close();
    await db.drop();
  });

  test.each([
    ['after the team was created', /Created team/],
    ['while creating channels or tabs', /Created channels/],
  ])(
    'killed %s: resumed by a new worker, one team, no duplicate member',
    async (_when, marker) => {
      const alex = await api.userToken(PEOPLE.alex);
      const res = await api.call<Job>('POST', '/api/v1.0/teams/provisioning', {
        token: alex,
        body: {
          template: { id: 'project' },
          team: {
            name: `Crash ${marker.source}`,
            membership: { members: [{ id: PEOPLE.isaiah }, { id: PEOPLE.lynne }] },
          },
        },
      });
      expect(res.status).toBe(201);
      const first = startWorker();
      // Wait until the job has passed the marker but is not finished, then kill the worker outright.
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const job = (await api.call<Job>('GET', `/api/v1.0/jobs/${res.body.id}`, { token: alex })).body;
        if (marker.test(job.log.join('\n')) && job.status === 'active') break;
        if (job.status === 'completed' || Date.now() > deadline)
          throw new Error(`could not catch the job mid-way: ${job.log.join(' | ')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      first.kill('SIGKILL');
      await new Promise((resolve) => first.once('exit', resolve));

      startWorker();
      const job = await waitForJob(api, alex, res.body.id, ['completed', 'failed'], WAIT_MS);
      // On failure, show the job's story rather than just its status.
      expect({ status: job.status, failedReason: job.failedReason, log: job.log }).toMatchObject({
        status: 'completed',
      });
      const store = api.steward.store.db;
      const teams = await store
        .selectFrom('platform_teams')
        .selectAll()
        .where('provisioning_key', '=', job.id)
        .execute();
      expect(teams).toHaveLength(1);
      const members = await store
        .selectFrom('platform_members')
        .select(['user_id', 'role'])
        .where('team_id', '=', teams[0]!.id)
        .execute();
      expect(members.map((m) => m.user_id).sort()).toEqual([PEOPLE.alex, PEOPLE.isaiah, PEOPLE.lynne].sort());
      expect(members.find((m) => m.user_id === PEOPLE.alex)?.role).toBe('owner');
      const channels = await store
        .selectFrom('platform_channels')
        .select('display_name')
        .where('team_id', '=', teams[0]!.id)
        .execute();
      expect(channels.map((c) => c.display_name).sort()).toEqual(['Deliverables', 'General', 'Planning']);
      // The job's log tells the story of both workers.
      expect(job.log.filter((line) => line.startsWith('Created team'))).toHaveLength(1);
    },
    3 * WAIT_MS,
  );
});
