import type { Agent } from 'undici';
import { type Config, loadConfig } from '../../../src/config';
import type { GovernanceManagers } from '../../../src/contract';
import { createGraphPlatform, type GraphPlatformConfig } from '../../../src/platform/graph';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { EntraTokens } from '../../support/entraTokens';
import { FakeGraph } from '../../support/fakeGraph';
import { graphSettings, seedTenant } from '../../support/graphTenant';
import { PEOPLE, startTestSteward, TENANT, type TestSteward } from '../../support/steward';
import { DEMO_CHOICES } from '../../support/demoChoices';

/** Steward's API app registration in the tenant: tokens are issued for its Application ID URI. */
const API_APP_ID = '5e7a0d1c-3b2a-4c4d-9e8f-0a1b2c3d4e5f';
const AUDIENCE = 'api://steward-governance-test';
const BOT_APP = 'b0b0b0b0-0000-0000-0000-00000000b0b0';
const PATH = '/api/v1.0/lifecycle/governanceManagers';

/** Graph's requests since `mark` whose path matches `pattern`. */
const requestsTo = (fake: FakeGraph, mark: number, pattern: RegExp) =>
  fake
    .graphRequests()
    .slice(mark)
    .filter((r) => pattern.test(decodeURIComponent(r.path)));

/**
 * `GET /lifecycle/governanceManagers` with Entra ID tokens and Microsoft Graph (the simulator): the
 * people assigned Steward's governance app roles, directly or through groups (nested ones
 * included), read from the app registration's `appRoleAssignedTo` page by page; Graph's 403 and
 * outages answered as `listed: false` with the reason, never 500; and the configured list, which
 * takes precedence and reads no role assignment at all.
 */
describe.each(databaseKinds)('governance managers from Entra ID app roles, on %s', (kind) => {
  let fake: FakeGraph;
  let dispatcher: Agent;
  let entra: EntraTokens;
  const started: Array<{ app: TestSteward; db: TestDatabase }> = [];

  beforeAll(async () => {
    // Two items a page: every list below spans several pages, followed by @odata.nextLink.
    fake = await FakeGraph.start({ pageSize: 2 });
    dispatcher = fake.dispatcher();
    seedTenant(fake);
    entra = await EntraTokens.start(TENANT, AUDIENCE);
    const sp = fake.addServicePrincipal({
      appId: API_APP_ID,
      displayName: 'Steward API',
      servicePrincipalNames: [AUDIENCE],
      appRoles: ['GOVERNANCE_MANAGER', 'TEAMS_SERVICE_ADMIN', 'GLOBAL_ADMIN', 'CATALOG_MANAGER'].map(
        (value) => ({ value }),
      ),
    });
    const board = fake.addGroup({
      displayName: 'Governance board',
      mailNickname: 'govboard',
      memberIds: [PEOPLE.adele],
    });
    const deputies = fake.addGroup({
      displayName: 'Board deputies',
      mailNickname: 'deputies',
      memberIds: [PEOPLE.isaiah, PEOPLE.adele, PEOPLE.alex],
    });
    fake.nestGroup(board, deputies);
    fake.assignAppRole(sp, 'GOVERNANCE_MANAGER', { type: 'User', id: PEOPLE.lynne });
    fake.assignAppRole(sp, 'GOVERNANCE_MANAGER', { type: 'Group', id: board });
    fake.assignAppRole(sp, 'GLOBAL_ADMIN', { type: 'User', id: PEOPLE.megan });
    fake.assignAppRole(sp, 'TEAMS_SERVICE_ADMIN', { type: 'User', id: PEOPLE.adele });
    // Not a governance role, and an app: neither is listed.
    fake.assignAppRole(sp, 'CATALOG_MANAGER', { type: 'User', id: PEOPLE.patti });
    const automation = fake.addServicePrincipal({ appId: BOT_APP, displayName: 'Automation', appRoles: [] });
    fake.assignAppRole(sp, 'GOVERNANCE_MANAGER', { type: 'ServicePrincipal', id: automation.id });
  });
  afterAll(async () => {
    for (const { app, db } of started) {
      await app.close();
      await db.drop();
    }
    await dispatcher?.close();
    await entra?.close();
    await fake?.close();
  });
  afterEach(() => {
    fake.clearFaults();
    for (const permission of ['Application.Read.All', 'GroupMember.Read.All', 'Group.ReadWrite.All'])
      fake.granted.add(permission);
  });

  /** A Steward in Entra ID mode whose platform is Graph as `env` configures it (the roles app included). */
  const start = async (env: Record<string, string> = {}) => {
    const settings = { ...DEMO_CHOICES, ...graphSettings(fake), ...entra.settings(), ...env };
    const config: Config = loadConfig(settings);
    const platform = createGraphPlatform(config.platform as GraphPlatformConfig, {
      dispatcher,
      retry: { maxAttempts: 2, baseDelayMs: 1 },
    });
    const db = await createTestDatabase(kind);
    const app = await startTestSteward(
      db,
      { ...settings, STEWARD_LIFECYCLE_EVALUATION_AT: 'off' },
      { platform },
    );
    started.push({ app, db });
    return app;
  };
  const ask = async (app: TestSteward) => {
    const res = await app.call<GovernanceManagers>('GET', PATH, {
      token: await entra.app(BOT_APP, ['INTEGRATION_MANAGER']),
    });
    expect(res.status).toBe(200);
    return res.body;
  };

  describe('read from Graph, without a cache', () => {
    let app: TestSteward;
    beforeAll(async () => {
      app = await start({ STEWARD_GOVERNANCE_MANAGERS_CACHE_SECONDS: '0' });
    });

    test('users and groups assigned, nested groups included, page by page; other roles and apps left out', async () => {
      const mark = fake.graphRequests().length;
      const answer = await ask(app);
      expect(answer).toMatchObject({ listed: true, source: 'appRoleAssignments' });
      expect(answer.reason).toBeUndefined();
      expect(answer.value.map((p) => [p.displayName, p.roles])).toEqual([
        ['Adele Vance', ['GOVERNANCE_MANAGER', 'TEAMS_SERVICE_ADMIN']],
        ['Alex Wilber', ['GOVERNANCE_MANAGER']],
        ['Isaiah Langer', ['GOVERNANCE_MANAGER']],
        ['Lynne Robbins', ['GOVERNANCE_MANAGER']],
        ['Megan Bowen', ['GLOBAL_ADMIN']],
      ]);
      expect(answer.value[3]).toMatchObject({ id: PEOPLE.lynne, userPrincipalName: expect.any(String) });
      // The service principal was found by the token audience, its six assignments read over three pages.
      expect(
        requestsTo(fake, mark, /servicePrincipalNames\/any\(n:n eq 'api:\/\/steward-governance-test'\)/),
      ).toHaveLength(1);
      const pages = requestsTo(fake, mark, /\/appRoleAssignedTo/);
      expect(pages.length).toBe(3);
      expect(pages.slice(1).every((r) => r.path.includes('skiptoken'))).toBe(true);
      // The group's three users, through the nested group, as an advanced query over two pages.
      const members = requestsTo(fake, mark, /\/transitiveMembers\/microsoft\.graph\.user/);
      expect(members.length).toBe(2);
      expect(members[0]!.headers.consistencylevel).toBe('eventual');
    });

    test('with the bot’s or a governance manager’s token only', async () => {
      const alex = await entra.user(PEOPLE.alex, 'Alex Wilber');
      expect((await app.call('GET', PATH, { token: alex })).status).toBe(403);
      const lynne = await entra.user(PEOPLE.lynne, 'Lynne Robbins', ['GOVERNANCE_MANAGER']);
      expect((await app.call('GET', PATH, { token: lynne })).status).toBe(200);
    });

    test('Graph refuses the app registration’s assignments (403): listed false, naming the permission', async () => {
      fake.granted.delete('Application.Read.All');
      const answer = await ask(app);
      expect(answer).toMatchObject({ listed: false, source: 'appRoleAssignments', value: [] });
      expect(answer.reason).toMatch(/Application\.Read\.All/);
      expect(answer.reason).toMatch(/403 Authorization_RequestDenied/);
      expect(answer.reason).toMatch(/STEWARD_GOVERNANCE_MANAGERS/);
      expect(answer.reason).not.toMatch(/eyJ[\w-]+\.eyJ|Bearer|client-secret/i);
    });

    test('Graph refuses the groups’ members (403): listed false, naming that permission', async () => {
      fake.granted.delete('GroupMember.Read.All');
      fake.granted.delete('Group.ReadWrite.All');
      const answer = await ask(app);
      expect(answer).toMatchObject({ listed: false, value: [] });
      expect(answer.reason).toMatch(/GroupMember\.Read\.All/);
    });

    test('Graph fails (503 after retries): listed false with the reason, not a 500', async () => {
      fake.fail({ path: /appRoleAssignedTo/, times: 10, status: 503 });
      const answer = await ask(app);
      expect(answer).toMatchObject({ listed: false, value: [] });
      expect(answer.reason).toMatch(/503/);
    });
  });

  test('no service principal for the configured app registration: listed false, saying which', async () => {
    const app = await start({ STEWARD_GRAPH_ROLES_APP: '9d9d9d9d-0000-4000-8000-000000000009' });
    const answer = await ask(app);
    expect(answer).toMatchObject({ listed: false, value: [] });
    expect(answer.reason).toMatch(/9d9d9d9d-0000-4000-8000-000000000009/);
  });

  test('the answer is reused for the cache time: the bot’s lookups do not reach Graph each time', async () => {
    const app = await start({ STEWARD_GRAPH_ROLES_APP: API_APP_ID });
    const mark = fake.graphRequests().length;
    const first = await ask(app);
    expect(first.listed).toBe(true);
    // Found by its client id this time: `/servicePrincipals(appId='…')`.
    expect(requestsTo(fake, mark, new RegExp(`servicePrincipals\\(appId='${API_APP_ID}'\\)`))).toHaveLength(
      1,
    );
    const reads = requestsTo(fake, mark, /servicePrincipals|transitiveMembers|\/users/).length;
    const again = await Promise.all([ask(app), ask(app), ask(app)]);
    expect(again).toEqual([first, first, first]);
    expect(requestsTo(fake, mark, /servicePrincipals|transitiveMembers|\/users/)).toHaveLength(reads);
  });

  test('STEWARD_GOVERNANCE_MANAGERS takes precedence: those people, and no app-role assignment read', async () => {
    fake.granted.delete('Application.Read.All');
    const app = await start({ STEWARD_GOVERNANCE_MANAGERS: `${PEOPLE.isaiah}, ${PEOPLE.patti}` });
    const mark = fake.graphRequests().length;
    const answer = await ask(app);
    expect(answer).toMatchObject({ listed: true, source: 'configuration' });
    expect(answer.value.map((p) => [p.id, p.displayName, p.roles])).toEqual([
      [PEOPLE.isaiah, 'Isaiah Langer', ['GOVERNANCE_MANAGER']],
      [PEOPLE.patti, 'Patti Fernandez', ['GOVERNANCE_MANAGER']],
    ]);
    expect(requestsTo(fake, mark, /servicePrincipals/)).toEqual([]);
  });
});
