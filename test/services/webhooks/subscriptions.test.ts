import { EVENT_TYPES, eventPayloadModel, type Hook } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { NAMED, PEOPLE, suiteSteward } from '../../support/steward';
import { suiteReceiver } from '../../support/webhookReceiver';

const ENV = {
  STEWARD_JOB_POLL_MS: '50',
  STEWARD_WEBHOOK_RETRIES: '0',
  STEWARD_WEBHOOK_FAILURE_THRESHOLD: '1',
};

/** Per-event subscriptions: who may subscribe to whose events, and the way back for a failed hook. */
describe.each(databaseKinds)('webhook subscriptions on %s', (kind) => {
  const suite = suiteSteward(kind, {
    env: ENV,
    people: { alex: { id: PEOPLE.alex, name: 'Alex Wilber' }, isaiah: NAMED.isaiah },
  });
  const receiver = suiteReceiver();
  let manager: string;
  beforeAll(async () => {
    manager = await suite.app.appToken('flows-app', ['INTEGRATION_MANAGER']);
  });

  const subscribe = (token: string, event: string, callback: string, extra: Record<string, unknown> = {}) =>
    suite.app.call<Hook>('POST', `/api/v1.0/hooks/${event}`, {
      token,
      body: { config: { url: `${receiver.url}${callback}`, content_type: 'application/json' }, ...extra },
    });
  const provision = async (template: string, name: string) => {
    const job = await suite.app.call<{ id: string }>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: template }, team: { name } },
    });
    expect(job.status).toBe(201);
    return waitForJob(suite.app, suite.alex, job.body.id);
  };

  test('anyone subscribes to their own events; a template’s or the tenant’s need an integration role', async () => {
    expect((await subscribe(suite.alex, 'team_created', '/x', { scope: 'tenant' })).status).toBe(403);
    expect(
      (await subscribe(suite.alex, 'team_created', '/x', { scope: 'template', templateId: 'project' }))
        .status,
    ).toBe(403);
    expect((await subscribe(manager, 'team_created', '/x', { scope: 'mine' })).status).toBe(400);
    expect((await subscribe(manager, 'team_created', '/x', { scope: 'template' })).status).toBe(400);
    const unknown = await subscribe(manager, 'team_created', '/x', { scope: 'template', templateId: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: { details: [{ target: 'body.templateId' }] } });
    expect((await subscribe(manager, 'no_such_event', '/x', { scope: 'tenant' })).status).toBe(400);
    // POST /hooks stays as it was: for integration managers, in its own shape.
    const old = await suite.app.call('POST', '/api/v1.0/hooks', {
      token: manager,
      body: { name: 'flow', config: { url: `${receiver.url}/x`, content_type: 'application/json' } },
    });
    expect(old.status).toBe(400);
    const mine = await subscribe(suite.alex, 'team_created', '/x');
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ scope: 'mine', events: ['team_created'], active: true });
    const records = await suite.app.call<{
      value: Array<{ action: string; target: { id: string }; details: unknown }>;
    }>('GET', '/api/v1.0/audit_trails/webhooks/records', { token: suite.megan });
    expect(records.body.value.find((r) => r.target.id === mine.body.id)).toMatchObject({
      action: 'webhook_created',
      details: { scope: 'mine', events: ['team_created'] },
    });
    // Isaiah may not unsubscribe Alex (it is not his to see); an integration manager may.
    const location = `/api/v1.0/hooks/subscriptions/${mine.body.id}`;
    expect((await suite.app.call('DELETE', location, { token: suite.isaiah })).status).toBe(404);
    expect(
      (await suite.app.call('POST', `/api/v1.0/hooks/${mine.body.id}/activate`, { token: suite.isaiah }))
        .status,
    ).toBe(404);
    expect((await suite.app.call('DELETE', location, { token: manager })).status).toBe(200);
  });

  test('a plain user reads the hooks they made, and nobody else’s; the hook roles read every one', async () => {
    const alexHook = await subscribe(suite.alex, 'team_created', '/alex-own');
    const isaiahHook = await subscribe(suite.isaiah, 'team_created', '/isaiah-own');
    const tenantHook = await subscribe(manager, 'team_created', '/tenant-own', { scope: 'tenant' });
    const ids = async (token: string) =>
      (await suite.app.call<{ value: Hook[] }>('GET', '/api/v1.0/hooks', { token })).body.value.map(
        (h) => h.id,
      );
    expect(await ids(suite.alex)).toEqual([alexHook.body.id]);
    expect(await ids(suite.isaiah)).toEqual([isaiahHook.body.id]);
    for (const token of [manager, suite.megan]) {
      expect(await ids(token)).toEqual(
        expect.arrayContaining([alexHook.body.id, isaiahHook.body.id, tenantHook.body.id]),
      );
    }
    const own = await suite.app.call<Hook>('GET', `/api/v1.0/hooks/${alexHook.body.id}`, {
      token: suite.alex,
    });
    expect(own.status).toBe(200);
    expect(own.body).toEqual(alexHook.body);
    expect(
      (await suite.app.call('GET', `/api/v1.0/hooks/${alexHook.body.id}/deliveries`, { token: suite.alex }))
        .status,
    ).toBe(200);
    for (const other of [isaiahHook.body.id, tenantHook.body.id]) {
      expect((await suite.app.call('GET', `/api/v1.0/hooks/${other}`, { token: suite.alex })).status).toBe(
        404,
      );
      expect(
        (await suite.app.call('GET', `/api/v1.0/hooks/${other}/deliveries`, { token: suite.alex })).status,
      ).toBe(404);
    }
    // Reading is all a plain user gains: creating or deleting with POST /hooks stays the hook roles'.
    expect(
      (await suite.app.call('DELETE', `/api/v1.0/hooks/${alexHook.body.id}`, { token: suite.alex })).status,
    ).toBe(403);
    for (const hook of [alexHook, isaiahHook, tenantHook]) {
      await suite.app.call('DELETE', `/api/v1.0/hooks/subscriptions/${hook.body.id}`, { token: manager });
    }
  });

  test('a template’s subscription receives that template’s events, the tenant’s every one', async () => {
    const tenant = await subscribe(manager, 'team_provisioning_completed', '/tenant', { scope: 'tenant' });
    const engagement = await subscribe(manager, 'team_provisioning_completed', '/engagement', {
      scope: 'template',
      templateId: 'client-engagement',
    });
    const project = await subscribe(manager, 'team_provisioning_completed', '/project', {
      scope: 'template',
      templateId: 'project',
    });
    expect([tenant.status, engagement.status, project.status]).toEqual([201, 201, 201]);
    expect(engagement.body).toMatchObject({ scope: 'template', templateId: 'client-engagement' });
    await provision('project', 'Scoped project');
    await receiver.waitFor('/tenant', 1);
    await receiver.waitFor('/project', 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.at('/engagement')).toHaveLength(0);
    for (const hook of [tenant, engagement, project]) {
      await suite.app.call('DELETE', `/api/v1.0/hooks/subscriptions/${hook.body.id}`, { token: manager });
    }
  });

  test('a hook failed deliveries turned inactive comes back, audited, its failures forgotten', async () => {
    const hook = await subscribe(suite.alex, 'team_provisioning_completed', '/down');
    receiver.answer('/down', 500);
    await provision('project', 'Receiver down');
    await receiver.waitFor('/down', 1);
    const read = async () =>
      (await suite.app.call<Hook>('GET', `/api/v1.0/hooks/${hook.body.id}`, { token: manager })).body;
    for (let i = 0; (await read()).active && i < 100; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await read()).active).toBe(false);

    const activated = await suite.app.call<Hook>('POST', `/api/v1.0/hooks/${hook.body.id}/activate`, {
      token: suite.alex,
    });
    expect(activated.status).toBe(200);
    expect(activated.body.active).toBe(true);
    // Already active: answered as it is, not audited again.
    expect(
      (await suite.app.call('POST', `/api/v1.0/hooks/${hook.body.id}/activate`, { token: suite.alex }))
        .status,
    ).toBe(200);
    const records = (
      await suite.app.call<{
        value: Array<{ action: string; actor: { id: string }; target: { id: string }; details: unknown }>;
      }>('GET', '/api/v1.0/audit_trails/webhooks/records', { token: suite.megan })
    ).body.value.filter((r) => r.target.id === hook.body.id);
    expect(records.map((r) => r.action)).toEqual([
      'webhook_activated',
      'webhook_deactivated',
      'webhook_delivery_failed',
      'webhook_created',
    ]);
    expect(records[0]).toMatchObject({ actor: { id: PEOPLE.alex }, details: { consecutiveFailures: 1 } });
    const stored = await suite.app.steward.store.db
      .selectFrom('hooks')
      .select(['consecutive_failures', 'active'])
      .where('id', '=', hook.body.id)
      .executeTakeFirstOrThrow();
    expect([Number(stored.consecutive_failures), Number(stored.active)]).toEqual([0, 1]);

    await provision('project', 'Receiver back');
    await receiver.waitFor('/down', 2);
  });

  test('the OpenAPI document describes every event’s delivery in its webhooks section', async () => {
    const document = (
      await suite.app.call<{
        webhooks: Record<
          string,
          { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }
        >;
        components: { schemas: Record<string, unknown> };
      }>('GET', '/api/v1.0/openapi.json')
    ).body;
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const code of EVENT_TYPES) {
      const schema = document.webhooks[code]!.post.requestBody.content['application/json']!.schema;
      expect(schema.$ref).toBe(`#/components/schemas/${eventPayloadModel(code)}`);
      expect(document.components.schemas[eventPayloadModel(code)]).toBeDefined();
    }
  });
});
