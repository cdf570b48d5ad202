import type { Job } from '../../../src/contract';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';

/**
 * Platform failures during a job, injected with the embedded platform's fault knob: transient
 * ones (429, 503) delay and retry the job, honouring Retry-After; permanent ones (500) fail it
 * with a readable reason and a log that names what was created.
 */
describe.each(databaseKinds)('platform failures during provisioning (%s)', (kind) => {
  const withFaults = async (faults: string, work: (app: TestSteward, token: string) => Promise<void>) => {
    const db: TestDatabase = await createTestDatabase(kind);
    const app = await startTestSteward(db, { STEWARD_EMBEDDED_FAULTS: faults, STEWARD_JOB_POLL_MS: '50' });
    try {
      await work(app, await app.userToken(PEOPLE.alex));
    } finally {
      await app.close();
      await db.drop();
    }
  };
  const submit = async (app: TestSteward, token: string, name: string) => {
    const res = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token,
      body: { template: { id: 'project' }, team: { name } },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };

  test('a 503 delays the job, which is retried and completes with one team', async () => {
    await withFaults('1:503', async (app, token) => {
      const id = await submit(app, token, 'Flaky');
      const delayed = await waitForJob(app, token, id, ['delayed', 'completed', 'failed']);
      expect(delayed.status).toBe('delayed');
      const job = await waitForJob(app, token, id);
      expect(job.status).toBe('completed');
      expect(
        job.log.filter((line) => /^Attempt 1 failed: .*503.*Retrying in 1 s\.$/.test(line)),
      ).toHaveLength(1);
      const teams = await app.steward.store.db
        .selectFrom('platform_teams')
        .select('id')
        .where('provisioning_key', '=', id)
        .execute();
      expect(teams).toHaveLength(1);
    });
  });

  test('a 429 is retried no sooner than its Retry-After', async () => {
    await withFaults('2:429', async (app, token) => {
      const id = await submit(app, token, 'Throttled');
      const job = await waitForJob(app, token, id);
      expect(job.status).toBe('completed');
      const failedAt = job.log.findIndex((line) => line.startsWith('Attempt 1 failed'));
      expect(failedAt).toBeGreaterThan(-1);
      const row = await app.steward.store.db
        .selectFrom('jobs')
        .select(['created_at', 'completed_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      // The embedded platform asks for a 1 s wait on 429.
      expect(Date.parse(row.completed_at!) - Date.parse(row.created_at)).toBeGreaterThanOrEqual(1000);
    });
  });

  test('a 500 after the team exists fails the job with a readable reason naming the team', async () => {
    // Call 1 looks for an earlier team, call 2 creates it, call 3 lists channels: that one fails.
    await withFaults('3:500', async (app, token) => {
      const id = await submit(app, token, 'Broken');
      const job = await waitForJob(app, token, id);
      expect(job.status).toBe('failed');
      const team = await app.steward.store.db
        .selectFrom('platform_teams')
        .select('id')
        .where('provisioning_key', '=', id)
        .executeTakeFirstOrThrow();
      expect(job.failedReason).toContain('500');
      expect(job.failedReason).toContain(`The team ${team.id} was created before the failure.`);
      expect(job.log).toEqual(
        expect.arrayContaining([
          expect.stringContaining(`Created team "PRJ-Broken" (${team.id})`),
          expect.stringMatching(/^Attempt 1 failed: /),
          `Failed. The team ${team.id} was created before the failure.`,
        ]),
      );
      const events = await app.steward.store.db.selectFrom('outbox_events').select('type').execute();
      expect(events.map((e) => e.type)).toContain('team_provisioning_failed');
      expect(events.map((e) => e.type)).not.toContain('team_provisioning_completed');
    });
  });
});

/** The same platform failures on a direct API call: 503 with Retry-After when transient, 502 when not. */
describe('platform failures on direct API calls', () => {
  test.each([
    ['1:503', 503, 'serviceUnavailable'],
    ['1:429', 503, 'serviceUnavailable'],
    ['1:500', 502, 'platformError'],
  ])('a platform answering %s makes GET /teams/{id} answer %i (%s)', async (faults, status, code) => {
    const db = await createTestDatabase('sqlite');
    const app = await startTestSteward(db, { STEWARD_EMBEDDED_FAULTS: faults });
    try {
      const megan = await app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
      const res = await app.call('GET', '/api/v1.0/teams/any-team', { token: megan });
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ error: { code } });
      if (status === 503) expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The next call is not faulted: the team simply does not exist.
      expect((await app.call('GET', '/api/v1.0/teams/any-team', { token: megan })).status).toBe(404);
    } finally {
      await app.close();
      await db.drop();
    }
  });
});
