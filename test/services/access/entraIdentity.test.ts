import type { Agent } from 'undici';
import { type Config, loadConfig } from '../../../src/config';
import type { CatalogTemplate } from '../../../src/contract';
import { createGraphPlatform, type GraphPlatformConfig } from '../../../src/platform/graph';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { EntraTokens } from '../../support/entraTokens';
import { FakeGraph } from '../../support/fakeGraph';
import { graphSettings, seedTenant } from '../../support/graphTenant';
import { PEOPLE, startTestSteward, TENANT, type TestSteward } from '../../support/steward';
import { DEMO_CHOICES } from '../../support/demoChoices';

const AUDIENCE = 'api://steward-identity-test';
/** An application of the tenant nobody assigned a role: what Entra ID gives it carries no `roles`. */
const STRANGER_APP = '7d1e4c2a-5b6f-4a8e-9c0d-1e2f3a4b5c6d';
const AUTOMATION_APP = 'c1c1ef3e-b884-4269-b408-0abab5f156f1';
/** A person whose object id has letters, so that another casing is another string. */
const CASEY = { id: 'cafe0f0e-0a0b-4c0d-8e0f-0a0b0c0d0e0f', name: 'Casey Hexley' };

/**
 * Who a token makes the caller in Entra ID mode, with Microsoft Graph (the simulator) as the
 * directory: an application gets exactly the app roles its token carries, and a person is known by
 * the object id exactly as the directory spells it.
 */
describe.each(databaseKinds)('Entra ID callers, on %s', (kind) => {
  let fake: FakeGraph;
  let dispatcher: Agent;
  let entra: EntraTokens;
  let db: TestDatabase;
  let app: TestSteward;

  beforeAll(async () => {
    fake = await FakeGraph.start();
    dispatcher = fake.dispatcher();
    seedTenant(fake);
    fake.addUser({ id: CASEY.id, displayName: CASEY.name, userPrincipalName: 'casey@example.com' });
    entra = await EntraTokens.start(TENANT, AUDIENCE);
    const settings = { ...DEMO_CHOICES, ...graphSettings(fake), ...entra.settings() };
    const config: Config = loadConfig(settings);
    const platform = createGraphPlatform(config.platform as GraphPlatformConfig, {
      dispatcher,
      retry: { maxAttempts: 2, baseDelayMs: 1 },
    });
    db = await createTestDatabase(kind);
    app = await startTestSteward(
      db,
      { ...settings, STEWARD_LIFECYCLE_EVALUATION_AT: 'off', STEWARD_WORKER_CONCURRENCY: '0' },
      { platform },
    );
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await dispatcher?.close();
    await entra?.close();
    await fake?.close();
  });

  test('an application token without roles reads no audit trail and rewrites no template', async () => {
    const stranger = await entra.app(STRANGER_APP);
    const automation = await entra.app(AUTOMATION_APP, ['AUTHORIZED_APP']);
    const template = await app.call<CatalogTemplate>('GET', '/api/v1.0/catalog/templates/project', {
      token: automation,
    });
    expect(template.status).toBe(200);
    const refused = [
      await app.call('GET', '/api/v1.0/audit_trails/events', { token: stranger }),
      await app.call('GET', '/api/v1.0/audit_trails/catalog/records', { token: stranger }),
      await app.call('GET', '/api/v1.0/catalog/templates', { token: stranger }),
      await app.call('PUT', '/api/v1.0/catalog/templates/project', {
        token: stranger,
        body: {
          ...template.body,
          templateConfiguration: { ...template.body.templateConfiguration, name: 'Taken' },
        },
      }),
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    const after = await app.call<CatalogTemplate>('GET', '/api/v1.0/catalog/templates/project', {
      token: automation,
    });
    expect(after.body).toEqual(template.body);
    // The role, once assigned and carried, is what grants the same calls.
    expect((await app.call('GET', '/api/v1.0/audit_trails/events', { token: automation })).status).toBe(200);
  });

  test("a person is known by the directory's exact object id: another casing or a NUL is a 401", async () => {
    const own = await entra.user(CASEY.id, CASEY.name);
    expect((await app.call('GET', '/api/v1.0/me/catalog/templates', { token: own })).status).toBe(200);
    for (const oid of [CASEY.id.toUpperCase(), `${PEOPLE.alex}\u0000`, `${PEOPLE.alex}\ud800`]) {
      const res = await app.call('GET', '/api/v1.0/me/catalog/templates', {
        token: await entra.user(oid, 'Someone'),
      });
      expect([oid, res.status]).toEqual([oid, 401]);
    }
  });
});
