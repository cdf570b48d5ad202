import { execFile } from 'node:child_process';
import path from 'node:path';
import type { Job } from '../../../src/contract';
import { type TestDatabase } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, suiteSteward } from '../../support/steward';

const QUEUE = path.join(__dirname, '..', '..', '..', 'dist', 'cli', 'queue.js');

/** Runs `npm run queue -- <command>`'s program against the test database; resolves with its output. */
const queueCommand = (db: TestDatabase, command: string) =>
  new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      [QUEUE, command],
      { env: { ...process.env, STEWARD_DATA_DIR: db.dataDir, STEWARD_DATABASE_URL: db.url } },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );

describe('pausing the job queue', () => {
  // No nightly lifecycle evaluation in the queue: the counts below are this test's jobs alone.
  const suite = suiteSteward('sqlite', {
    env: { STEWARD_JOB_POLL_MS: '50', STEWARD_LIFECYCLE_EVALUATION_AT: 'off' },
  });

  const queue = (command: string) => queueCommand(suite.db, command);

  test('a paused queue runs nothing and shows waiting jobs as paused; resuming runs them', async () => {
    expect(await queue('pause')).toMatch(/^queue paused;/);
    const token = await suite.app.userToken(PEOPLE.alex);
    const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token,
      body: { template: { id: 'project' }, team: { name: 'Paused' } },
    });
    expect(res.body.status).toBe('paused');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const still = await suite.app.call<Job>('GET', `/api/v1.0/jobs/${res.body.id}`, { token });
    expect(still.body).toMatchObject({ status: 'paused', progress: 0 });
    expect(await queue('status')).toMatch(/^queue paused; jobs: waiting 1\n$/);
    expect(await queue('resume')).toMatch(/^queue running;/);
    expect((await waitForJob(suite.app, token, res.body.id)).status).toBe('completed');
    expect(await queue('status')).toBe('queue running; jobs: completed 1\n');
  });
});

describe('the queue status of a deployment with a nightly evaluation', () => {
  const suite = suiteSteward('sqlite', { env: { STEWARD_LIFECYCLE_EVALUATION_AT: '02:00' } });

  test('the nightly evaluation shows as scheduled for its time, not as waiting', async () => {
    const status = await queueCommand(suite.db, 'status');
    expect(status).toMatch(
      /^queue running; jobs: scheduled 1 \(next: LifecycleEvaluation at \d{4}-\d{2}-\d{2} 02:00 UTC\)\n$/,
    );
  });
});
