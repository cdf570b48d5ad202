import type { Hook, HookDelivery, Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, suiteSteward } from '../../support/steward';
import { Receiver } from '../../support/webhookReceiver';

const ENV = { STEWARD_JOB_POLL_MS: '50', STEWARD_WEBHOOK_RETRIES: '0' };
/** Past the directory's cache of a person (`DirectoryService`, 30 s). */
const PAST_CACHE_MS = 31_000;

/**
 * A hook's scope checked again at each delivery: what its maker could read through the API when the
 * event was recorded may be gone by the time the delivery's turn comes.
 */
describe.each(databaseKinds)('deliveries to subscribers who lost access, on %s', (kind) => {
  let offset = 0;
  const receiver = new Receiver();
  beforeAll(() => receiver.start());
  afterAll(() => receiver.close());
  const suite = suiteSteward(kind, {
    env: ENV,
    overrides: { clock: () => Date.now() + offset },
    people: { adele: { id: PEOPLE.adele, name: 'Adele Vance' } },
  });
  let manager: string;
  beforeAll(async () => {
    manager = await suite.app.appToken('flows-app', ['INTEGRATION_MANAGER']);
  });

  const directory = () => suite.app.steward.store.db.updateTable('directory_users');
  const subscribe = async (
    token: string,
    event: string,
    path: string,
    extra: Record<string, unknown> = {},
  ) => {
    const res = await suite.app.call<Hook>('POST', `/api/v1.0/hooks/${event}`, {
      token,
      body: { config: { url: `${receiver.url}${path}` }, ...extra },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const deliveriesOf = async (hookId: string, done: (d: HookDelivery[]) => boolean) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await suite.app.call<{ value: HookDelivery[] }>(
        'GET',
        `/api/v1.0/hooks/${hookId}/deliveries`,
        {
          token: suite.megan,
        },
      );
      if (done(res.body.value)) return res.body.value;
      if (Date.now() > deadline) throw new Error(`deliveries: ${JSON.stringify(res.body.value)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const ended = (d: HookDelivery[]) => d.length > 0 && d.every((x) => x.completedDateTime !== null);
  const skippedRecords = async (hookId: string) =>
    (
      await suite.app.call<{
        value: Array<{ action: string; outcome: string; target: { id: string }; details: object }>;
      }>('GET', '/api/v1.0/audit_trails/webhooks/records', { token: suite.megan })
    ).body.value.filter((r) => r.target.id === hookId && r.action === 'webhook_delivery_skipped');
  const hookOf = async (id: string) =>
    (await suite.app.call<Hook>('GET', `/api/v1.0/hooks/${id}`, { token: suite.megan })).body;

  test('a person removed from the directory gets none of their own events: skipped, with the reason', async () => {
    const mine = await subscribe(suite.alex, 'team_creation_approved', '/alex');
    const job = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'client-engagement' }, team: { name: 'Removed requester' } },
    });
    expect(job.status).toBe(201);
    // Alex leaves the company: the directory no longer has him, and the API would refuse his token.
    const [saved] = await suite.app.steward.store.db
      .selectFrom('directory_users')
      .selectAll()
      .where('id', '=', PEOPLE.alex)
      .execute();
    await suite.app.steward.store.db.deleteFrom('directory_users').where('id', '=', PEOPLE.alex).execute();
    try {
      offset += PAST_CACHE_MS;
      expect((await suite.app.call('GET', '/api/v1.0/me/jobs', { token: suite.alex })).status).toBe(401);
      const approvalId = (job.body.data.approval as { id: string }).id;
      const approved = await suite.app.call('POST', `/api/v1.0/approvals/${approvalId}/approve`, {
        token: suite.adele,
        body: {},
      });
      expect(approved.status).toBe(200);
      const [delivery] = await deliveriesOf(mine.id, ended);
      expect(delivery).toMatchObject({
        event: 'team_creation_approved',
        status: 'skipped',
        attempts: 0,
        lastError: 'The subscriber is no longer a person of the directory.',
      });
      expect(receiver.at('/alex')).toHaveLength(0);
      expect(await skippedRecords(mine.id)).toEqual([
        expect.objectContaining({
          outcome: 'denied',
          details: expect.objectContaining({ subscriber: PEOPLE.alex, event: 'team_creation_approved' }),
        }),
      ]);
      // Not the hook's failure: it stays active.
      expect((await hookOf(mine.id)).active).toBe(true);
    } finally {
      await suite.app.steward.store.db.insertInto('directory_users').values(saved!).execute();
      offset += PAST_CACHE_MS;
    }
    await waitForJob(suite.app, suite.alex, job.body.id);
  });

  test('a demoted integration manager’s template and tenant hooks stop; an app’s and an admin’s go on', async () => {
    const isaiahId = PEOPLE.isaiah;
    await directory().set({ app_roles: '["INTEGRATION_MANAGER"]' }).where('id', '=', isaiahId).execute();
    const isaiah = await suite.app.userToken(isaiahId, ['INTEGRATION_MANAGER'], { name: 'Isaiah Langer' });
    const tenant = await subscribe(isaiah, 'team_created', '/isaiah-tenant', { scope: 'tenant' });
    const template = await subscribe(isaiah, 'team_created', '/isaiah-template', {
      scope: 'template',
      templateId: 'project',
    });
    const fromApp = await subscribe(manager, 'team_created', '/app', { scope: 'tenant' });
    const fromAdmin = await subscribe(suite.megan, 'team_created', '/megan', { scope: 'tenant' });
    // Before: everyone receives the team.
    const first = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'project' }, team: { name: 'Before the demotion' } },
    });
    await waitForJob(suite.app, suite.alex, first.body.id);
    for (const path of ['/isaiah-tenant', '/isaiah-template', '/app', '/megan'])
      await receiver.waitFor(path, 1);
    // Every delivery closed before the clock moves past the jobs' lease (30 s): a delivery job
    // still running then would be taken over and run again, after the demotion.
    for (const hook of [tenant, template, fromApp, fromAdmin]) await deliveriesOf(hook.id, ended);
    // Isaiah is no longer an integration manager; his token of an hour ago still says he is.
    await directory().set({ app_roles: '[]' }).where('id', '=', isaiahId).execute();
    offset += PAST_CACHE_MS;
    const second = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'project' }, team: { name: 'After the demotion' } },
    });
    await waitForJob(suite.app, suite.alex, second.body.id);
    await receiver.waitFor('/app', 2);
    await receiver.waitFor('/megan', 2);
    for (const hook of [tenant, template]) {
      const deliveries = await deliveriesOf(hook.id, (d) => d.length === 2 && ended(d));
      expect(deliveries.map((d) => d.status)).toEqual(['skipped', 'delivered']);
      expect(deliveries[0]!.lastError).toMatch(/no longer holds a role/);
      expect(await skippedRecords(hook.id)).toHaveLength(1);
      expect((await hookOf(hook.id)).active).toBe(true);
    }
    expect(receiver.at('/isaiah-tenant')).toHaveLength(1);
    expect(receiver.at('/isaiah-template')).toHaveLength(1);
    for (const hook of [tenant, template, fromApp, fromAdmin]) {
      await suite.app.call('DELETE', `/api/v1.0/hooks/subscriptions/${hook.id}`, { token: suite.megan });
    }
  });
});
