import { createHmac } from 'node:crypto';
import type { Job } from '../../../src/contract';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { outboxTypes, waitForJob } from '../../support/jobs';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';
import { Receiver } from '../../support/webhookReceiver';

interface Delivery {
  id: string;
  event: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  responseTimeMs: number | null;
}

const ALL_EVENTS = [
  'team_created',
  'team_provisioning_completed',
  'team_provisioning_failed',
  'team_creation_approval_requested',
  'team_creation_approved',
  'team_creation_rejected',
  'team_archived',
  'team_unarchived',
  'team_deleted',
];
const SECRET = 'receiver-secret-0123456789';
const ENV = {
  STEWARD_JOB_POLL_MS: '50',
  STEWARD_WEBHOOK_RETRY_DELAY_MS: '300',
  STEWARD_WEBHOOK_FAILURE_THRESHOLD: '2',
};

describe.each(databaseKinds)('webhook deliveries on %s', (kind) => {
  let db: TestDatabase;
  let app: TestSteward;
  let receiver: Receiver;
  let manager: string;
  let admin: string;
  let alex: string;
  let adele: string;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    receiver = new Receiver();
    await receiver.start();
    app = await startTestSteward(db, ENV);
    manager = await app.appToken('teams-bot', ['INTEGRATION_MANAGER']);
    admin = await app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    alex = await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber', upn: 'alexw@example.com' });
    adele = await app.userToken(PEOPLE.adele, [], { name: 'Adele Vance', upn: 'adelev@example.com' });
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
    await db.drop();
  });

  const createHook = async (path: string, events: string[], secret: string | null = SECRET) => {
    const res = await app.call<{ id: string }>('POST', '/api/v1.0/hooks', {
      token: manager,
      body: { name: path, events, config: { url: `${receiver.url}${path}`, ...(secret ? { secret } : {}) } },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const deliveriesOf = async (hookId: string) =>
    (await app.call<{ value: Delivery[] }>('GET', `/api/v1.0/hooks/${hookId}/deliveries`, { token: manager }))
      .body.value;
  const waitForDeliveries = async (hookId: string, done: (d: Delivery[]) => boolean) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const deliveries = await deliveriesOf(hookId);
      if (done(deliveries)) return deliveries;
      if (Date.now() > deadline) throw new Error(`deliveries: ${JSON.stringify(deliveries)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const provision = async (template: string, name: string) =>
    (
      await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
        token: alex,
        body: { template: { id: template }, team: { name } },
      })
    ).body;

  test('a provisioning flow with approval: every event delivered exactly once, signed like generateHookSignature', async () => {
    const hookId = await createHook('/all', ALL_EVENTS);
    const onlyCreated = await createHook('/created', ['team_created'], null);
    const job = await provision('client-engagement', 'Webhooked');
    const approvalId = (job.data.approval as { id: string }).id;
    expect(
      (await app.call('POST', `/api/v1.0/approvals/${approvalId}/approve`, { token: adele, body: {} }))
        .status,
    ).toBe(200);
    expect((await waitForJob(app, alex, job.id)).status).toBe('completed');
    const expected = await outboxTypes(app, job.id);
    expect(expected).toEqual([
      'team_creation_approval_requested',
      'team_creation_approved',
      'team_created',
      'team_provisioning_completed',
    ]);
    await receiver.waitFor('/all', 4);
    await receiver.waitFor('/created', 1);
    // Nothing more arrives later: exactly once per event.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const all = receiver.at('/all');
    expect(all.map((r) => r.headers['x-steward-event']).sort()).toEqual([...expected].sort());
    expect(new Set(all.map((r) => r.headers['x-steward-delivery'])).size).toBe(4);
    // team_created and team_provisioning_completed of one job are no longer byte-identical bodies.
    expect(new Set(all.map((r) => r.body)).size).toBe(4);
    for (const request of all) {
      expect(request.headers).toMatchObject({
        'content-type': 'application/json',
        'x-steward-webhook': hookId,
        'user-agent': expect.stringMatching(/^Steward-Webhook\/\d+\.\d+\.\d+/),
      });
      const payload = JSON.parse(request.body) as {
        event: string;
        deliveryId: string;
        tenant: { id: string };
        provisioning?: { id: string };
      };
      // The body names its event and delivery, as the headers do.
      expect(payload.event).toBe(request.headers['x-steward-event']);
      expect(payload.deliveryId).toBe(request.headers['x-steward-delivery']);
      expect(Object.keys(payload).slice(0, 2)).toEqual(['event', 'deliveryId']);
      expect(payload.tenant.id).toBeDefined();
      expect(payload.provisioning?.id).toBe(job.id);
      const signature = await app.call<{ signature: string }>('POST', '/api/v1.0/hooks/signature', {
        token: alex,
        body: { secret: SECRET, payload },
      });
      expect(request.headers['x-steward-signature']).toBe(signature.body.signature);
      expect(request.headers['x-steward-signature']).toBe(
        createHmac('sha256', SECRET).update(request.body).digest('hex'),
      );
    }
    const created = receiver.at('/created');
    expect(created).toHaveLength(1);
    expect(created[0]!.headers['x-steward-event']).toBe('team_created');
    expect(created[0]!.headers['x-steward-signature']).toBeUndefined();

    const log = await waitForDeliveries(hookId, (d) => d.every((x) => x.status === 'delivered'));
    expect(log).toHaveLength(4);
    // @odata.count is the total across pages, not the page size.
    const firstPage = await app.call<{
      value: Delivery[];
      '@odata.count': number;
      '@odata.nextLink'?: string;
    }>('GET', `/api/v1.0/hooks/${hookId}/deliveries?$top=1`, { token: manager });
    expect(firstPage.body.value).toHaveLength(1);
    expect(firstPage.body['@odata.count']).toBe(4);
    expect(firstPage.body['@odata.nextLink']).toBeDefined();
    for (const delivery of log) {
      expect(delivery).toMatchObject({
        status: 'delivered',
        attempts: 1,
        lastStatusCode: 200,
        lastError: null,
      });
      expect(delivery.responseTimeMs).toEqual(expect.any(Number));
    }
    expect(log.map((d) => d.id).sort()).toEqual(all.map((r) => r.headers['x-steward-delivery']).sort());
    // Delivery jobs are Steward's own: not visible as provisioning jobs.
    expect((await app.call('GET', `/api/v1.0/jobs/${log[0]!.id}`, { token: admin })).status).toBe(404);
    await app.call('DELETE', `/api/v1.0/hooks/${hookId}`, { token: manager });
    await app.call('DELETE', `/api/v1.0/hooks/${onlyCreated}`, { token: manager });
  });

  test('a receiver answering 500 gets the same delivery again after the retry delay', async () => {
    const hookId = await createHook('/flaky', ['team_provisioning_completed']);
    receiver.answer('/flaky', 500);
    const job = await provision('project', 'Flaky receiver');
    const [first, second] = await receiver.waitFor('/flaky', 2);
    expect(second!.headers['x-steward-delivery']).toBe(first!.headers['x-steward-delivery']);
    expect(second!.body).toBe(first!.body);
    expect(JSON.parse(second!.body)).toMatchObject({ provisioning: { id: job.id } });
    const [delivery] = await waitForDeliveries(hookId, (d) => d[0]?.status === 'delivered');
    expect(delivery).toMatchObject({ attempts: 2, lastStatusCode: 200, lastError: null });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(receiver.at('/flaky')).toHaveLength(2);
    await app.call('DELETE', `/api/v1.0/hooks/${hookId}`, { token: manager });
  });

  test('a delivery waiting for its retry survives a restart of Steward', async () => {
    const hookId = await createHook('/restart', ['team_provisioning_completed']);
    receiver.answer('/restart', 503);
    await app.close();
    // A long retry delay, so the restart certainly falls between the two attempts.
    app = await startTestSteward(db, { ...ENV, STEWARD_WEBHOOK_RETRY_DELAY_MS: '1500' });
    const job = await provision('project', 'Restarted');
    const [first] = await receiver.waitFor('/restart', 1);
    await waitForDeliveries(hookId, (d) => d[0]?.status === 'retrying');
    await app.close();
    expect(receiver.at('/restart')).toHaveLength(1);
    app = await startTestSteward(db, ENV);
    const [, second] = await receiver.waitFor('/restart', 2);
    expect(second!.headers['x-steward-delivery']).toBe(first!.headers['x-steward-delivery']);
    expect(JSON.parse(second!.body)).toMatchObject({ provisioning: { id: job.id } });
    const [delivery] = await waitForDeliveries(hookId, (d) => d[0]?.status === 'delivered');
    expect(delivery).toMatchObject({ attempts: 2, lastStatusCode: 200 });
    await app.call('DELETE', `/api/v1.0/hooks/${hookId}`, { token: manager });
  });

  test('consecutive failed deliveries turn the hook inactive, with audit records; then it receives nothing', async () => {
    const hookId = await createHook('/down', ['team_created', 'team_provisioning_completed']);
    receiver.answer('/down', ...new Array<number>(6).fill(500));
    await provision('project', 'Receiver down');
    const log = await waitForDeliveries(
      hookId,
      (d) => d.length === 2 && d.every((x) => x.status === 'failed'),
    );
    for (const delivery of log) {
      expect(delivery).toMatchObject({
        attempts: 3,
        lastStatusCode: 500,
        lastError: 'The receiver answered HTTP 500.',
      });
    }
    expect(receiver.at('/down')).toHaveLength(6);
    const hook = await app.call<{ active: boolean }>('GET', `/api/v1.0/hooks/${hookId}`, { token: manager });
    expect(hook.body.active).toBe(false);
    const records = (
      await app.call<{
        value: Array<{ action: string; outcome: string; actor: { type: string }; target: { id: string } }>;
      }>('GET', '/api/v1.0/audit_trails/webhooks/records', { token: admin })
    ).body.value.filter((r) => r.target.id === hookId);
    expect(records.map((r) => r.action)).toEqual([
      'webhook_deactivated',
      'webhook_delivery_failed',
      'webhook_delivery_failed',
      'webhook_created',
    ]);
    expect(records[0]).toMatchObject({ outcome: 'success', actor: { type: 'system' } });
    expect(records[1]).toMatchObject({ outcome: 'failure', actor: { type: 'system' } });

    await provision('project', 'After the hook gave up');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.at('/down')).toHaveLength(6);
    expect(await deliveriesOf(hookId)).toHaveLength(2);
  });
});
