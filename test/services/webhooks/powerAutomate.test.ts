import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { connectorSchemaValidator } from '../../support/powerPlatform';
import { NAMED, PEOPLE, suiteSteward } from '../../support/steward';
import { suiteReceiver } from '../../support/webhookReceiver';

type Schema = Record<string, unknown>;
interface Connector {
  basePath: string;
  paths: Record<string, Schema & { post?: Schema }>;
  definitions: Schema;
}
interface BodyProperty {
  default?: unknown;
  'x-ms-notification-url'?: boolean;
  properties?: Record<string, BodyProperty>;
}

/** The committed connector: what a maker imports into Power Automate. */
const connector = JSON.parse(
  readFileSync(path.resolve(__dirname, '../../../connector/apiDefinition.swagger.json'), 'utf8'),
) as Connector;
const EVENT = 'team_creation_approval_requested';
const SECRET = 'flow-secret-0123456789';

/**
 * What Power Automate sends when a flow with a trigger is saved: the trigger's body with every
 * default filled in, its own callback where `x-ms-notification-url` says, and the maker's choices.
 */
function subscriptionBody(trigger: Schema, callback: string, choices: Record<string, unknown>): unknown {
  const body = (trigger.parameters as Array<{ in: string; schema: BodyProperty }>).find(
    (p) => p.in === 'body',
  )!;
  const fill = (schema: BodyProperty): unknown => {
    if (schema['x-ms-notification-url']) return callback;
    if (schema.properties) {
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties)) {
        const value = fill(property);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    return schema.default;
  };
  const filled = fill(body.schema) as Record<string, Record<string, unknown>>;
  const { secret, ...top } = choices;
  return { ...filled, ...top, config: { ...filled.config, ...(secret ? { secret } : {}) } };
}

/**
 * Power Automate played end to end over loopback, with the committed connector's trigger: subscribe
 * (201 and a Location), an approval is asked, the flow's callback receives a payload its declared
 * schema accepts, signed; DELETE on the Location, and nothing more arrives.
 */
describe.each(databaseKinds)('a Power Automate trigger on %s', (kind) => {
  const suite = suiteSteward(kind, {
    env: { STEWARD_JOB_POLL_MS: '50' },
    people: {
      adele: { id: PEOPLE.adele, name: 'Adele Vance', upn: 'adelev@example.com' },
      isaiah: NAMED.isaiah,
    },
  });
  const flows = suiteReceiver();

  const subscribe = async (token: string, callback: string, choices: Record<string, unknown> = {}) => {
    const item = connector.paths[`/hooks/${EVENT}`]!;
    const body = subscriptionBody(item.post!, `${flows.url}${callback}`, choices);
    return suite.app.call<{ id: string; scope: string }>('POST', `${connector.basePath}/hooks/${EVENT}`, {
      token,
      body,
    });
  };
  const request = async (name: string) =>
    (
      await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
        token: suite.alex,
        body: { template: { id: 'client-engagement' }, team: { name } },
      })
    ).body;

  test('subscribe, receive what the trigger declares, unsubscribe', async () => {
    const subscribed = await subscribe(suite.alex, '/alex', { secret: SECRET });
    expect(subscribed.status).toBe(201);
    expect(subscribed.body.scope).toBe('mine');
    const location = subscribed.headers.location!;
    expect(location).toBe(`${suite.app.url}/api/v1.0/hooks/subscriptions/${subscribed.body.id}`);
    // Adele decides the request, Isaiah has nothing to do with it: each subscribes to the same event.
    expect((await subscribe(suite.adele, '/adele')).status).toBe(201);
    expect((await subscribe(suite.isaiah, '/isaiah')).status).toBe(201);

    const job = await request('Flow-followed engagement');
    const [delivered] = await flows.waitFor('/alex', 1);
    await flows.waitFor('/adele', 1);
    const payload = JSON.parse(delivered!.body) as { event: string; provisioning: { id: string } };
    expect(payload).toMatchObject({ event: EVENT, provisioning: { id: job.id } });
    expect(delivered!.headers['x-steward-signature']).toBe(
      createHmac('sha256', SECRET).update(delivered!.body).digest('hex'),
    );

    // The payload is what the trigger's x-ms-notification-content declares, and what the API's
    // OpenAPI document says in its webhooks section.
    const declared = connector.paths[`/hooks/${EVENT}`]!['x-ms-notification-content'] as { schema: Schema };
    const asFlow = connectorSchemaValidator(connector.definitions, declared.schema);
    expect([asFlow(payload), asFlow.errors ?? null]).toEqual([true, null]);
    const document = (await suite.app.call<Schema>('GET', '/api/v1.0/openapi.json')).body as {
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Schema }> } } }>;
      components: Schema;
    };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const documented = ajv.compile({
      ...document.webhooks[EVENT]!.post.requestBody.content['application/json']!.schema,
      components: document.components,
    });
    expect([documented(payload), documented.errors ?? null]).toEqual([true, null]);
    // Both schemas can refuse: a payload of another event is not this one's.
    expect(asFlow({ ...payload, event: 'team_created' })).toBe(false);

    // Unsubscribing: DELETE on the Location, as Power Automate does when the flow is turned off.
    const deleted = await suite.app.call('DELETE', new URL(location).pathname, { token: suite.alex });
    expect(deleted.status).toBe(200);
    expect((await suite.app.call('DELETE', new URL(location).pathname, { token: suite.alex })).status).toBe(
      404,
    );
    await request('Second engagement');
    await flows.waitFor('/adele', 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(flows.at('/alex')).toHaveLength(1);
    // Isaiah is neither the requester nor an approver: nothing reached him.
    expect(flows.at('/isaiah')).toHaveLength(0);
  });
});
