import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../../../src/config';
import type { Job } from '../../../src/contract';
import { startSteward, type Steward } from '../../../src/main';
import { JobRepository } from '../../../src/store/jobs/jobs';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { waitForJob, suiteJobSteward } from '../../support/jobs';
import { PEOPLE, TEST_SECRET } from '../../support/steward';

/** Each job says which of its steps ran, had nothing to do, failed or were rejected (`Job.steps`). */
describe.each(databaseKinds)('job steps on %s', (kind) => {
  const suite = suiteJobSteward(kind);

  const statuses = (job: Job) => Object.fromEntries(job.steps.map((step) => [step.name, step.status]));

  test('a request with no welcome message and no metadata: those steps skipped, the others done', async () => {
    const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'project' }, team: { name: 'Quiet', welcomeMessage: '' } },
    });
    expect(res.status).toBe(201);
    expect(res.body.steps.map((step) => step.name)).toEqual([
      'team',
      'settings',
      'channels',
      'tabs',
      'members',
      'welcome',
      'files',
      'metadata',
      'finish',
    ]);
    const job = await waitForJob(suite.app, suite.alex, res.body.id);
    expect(job.status).toBe('completed');
    expect(job.progress).toBe(100);
    expect(statuses(job)).toEqual({
      team: 'done',
      settings: 'done',
      channels: 'done',
      tabs: 'done',
      files: 'skipped',
      members: 'done',
      welcome: 'skipped',
      metadata: 'skipped',
      finish: 'done',
    });
    expect(job.steps.find((step) => step.name === 'welcome')?.title).toBe('Post the welcome message');
  });

  test('a request waiting for approval shows the approval running; a rejection marks it rejected and skips the rest', async () => {
    const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'client-engagement' }, team: { name: 'Refused' } },
    });
    expect(res.body.steps[0]).toEqual({ name: 'approval', title: 'Approval', status: 'running' });
    expect(res.body.steps.slice(1).every((step) => step.status === 'pending')).toBe(true);
    const approvalId = (res.body.data.approval as { id: string }).id;
    const reject = await suite.app.call('POST', `/api/v1.0/approvals/${approvalId}/reject`, {
      token: suite.adele,
      body: { message: 'No' },
    });
    expect(reject.status).toBe(200);
    const job = await waitForJob(suite.app, suite.alex, res.body.id);
    expect(job.status).toBe('failed');
    expect(job.steps[0]?.status).toBe('rejected');
    expect(job.steps.slice(1).map((step) => step.status)).toEqual(job.steps.slice(1).map(() => 'skipped'));
  });
});

/**
 * Jobs that cannot run as their type says fail with a typed error (`JobCannotRun`): a readable
 * reason on the job, and not the "failed unexpectedly" error log kept for bugs.
 */
describe.each(databaseKinds)('jobs that cannot run on %s', (kind) => {
  let db: TestDatabase;
  let steward: Steward;
  const lines: Array<{ msg?: string; jobId?: string }> = [];

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    const config = loadConfig({
      STEWARD_PORT: '0',
      STEWARD_DATA_DIR: db.dataDir,
      STEWARD_DATABASE_URL: db.url,
      STEWARD_AUTH_SECRET: TEST_SECRET,
      STEWARD_BOT_ENABLED: 'false',
      STEWARD_JOB_POLL_MS: '50',
    });
    const stream = { write: (line: string) => lines.push(JSON.parse(line) as { msg?: string }) };
    steward = await startSteward(config, pino({ level: 'warn' }, stream));
  });
  afterAll(async () => {
    await steward.close();
    await db.drop();
  });

  async function runToEnd(type: 'ProvisioningRequest' | 'TeamArchiveRequest', data: Record<string, unknown>) {
    const jobs = new JobRepository(steward.store.db);
    const id = randomUUID();
    await jobs.insert({ id, type, queued: true, data, log: [], requesterId: PEOPLE.alex }, new Date());
    for (let waited = 0; waited < 15_000; waited += 25) {
      const job = await jobs.get(id);
      if (job?.status === 'failed' || job?.status === 'completed') return job;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`job ${id} did not end`);
  }

  test('data that does not parse as its type fails the job, naming the field', async () => {
    const job = await runToEnd('TeamArchiveRequest', { action: 'archive', team: { id: 't1' } });
    expect(job.status).toBe('failed');
    expect(job.failedReason).toMatch(
      /^The job's data is not a valid TeamArchiveRequest at team\.displayName: /,
    );
    expect(lines.filter((line) => line.jobId === job.id && line.msg === 'job failed unexpectedly')).toEqual(
      [],
    );
  });

  test('a plan whose tab names a channel the team does not have fails with the tab named', async () => {
    const plan = {
      displayName: 'Misconfigured',
      description: '',
      welcomeMessage: '',
      mailNickname: 'misconfigured',
      visibility: 'private',
      sensitivityLabelId: null,
      members: [{ id: PEOPLE.alex, role: 'owner' }],
      clone: null,
      channels: [],
      tabs: [
        {
          channel: 'Nowhere',
          displayName: 'Lost',
          teamsAppId: 'com.microsoft.teamspace.tab.web',
          configuration: {},
        },
      ],
    };
    const job = await runToEnd('ProvisioningRequest', {
      request: {
        template: { id: 'project' },
        team: { name: 'Misconfigured', membership: { owners: [], members: [] } },
      },
      template: {
        id: 'project',
        name: 'Project team',
        approvers: [],
        permanentMembership: { owners: [], members: [] },
      },
      requester: { id: PEOPLE.alex, displayName: 'Alex Wilber', mail: null },
      plan,
    });
    expect(job.status).toBe('failed');
    expect(job.failedReason).toMatch(/^The tab "Lost" names a channel "Nowhere" the team does not have\./);
    expect(lines.filter((line) => line.jobId === job.id && line.msg === 'job failed unexpectedly')).toEqual(
      [],
    );
  });
});
