import type { Agent } from 'undici';
import { createGraphPlatform, type GraphPlatform } from '../../../src/platform/graph';
import { FakeGraph } from '../../support/fakeGraph';

/** The welcome as the bot in a national cloud: the Bot Connector address and token scope it follows. */

const BOT = {
  appId: 'b0b0b0b0-0000-0000-0000-000000000002',
  secret: 'bot-secret',
  teamsAppId: '5e7a1c2d-3b4f-4a6e-9c8d-000000000002',
};
const OWNER = '00000000-0000-0000-0000-000000000301';

let fake: FakeGraph;
let dispatcher: Agent;

function start(
  config: Partial<ReturnType<FakeGraph['config']>> & { botConnectorScope?: string },
): GraphPlatform {
  return createGraphPlatform(
    { ...fake.config(), ...config },
    {
      dispatcher,
      sleep: async () => {},
      bot: { appId: BOT.appId, appPassword: BOT.secret, appTenantId: fake.tenantId },
    },
  );
}

async function newTeam(platform: GraphPlatform, key: string): Promise<string> {
  const team = await platform.teams.createTeam({
    displayName: `Cloud ${key}`,
    description: 'A team',
    visibility: 'private',
    mailNickname: `cloud${key}`,
    settings: {},
    ownerId: OWNER,
    provisioningKey: `cloud-${key}`,
  });
  return team.id;
}

beforeAll(async () => {
  fake = await FakeGraph.start({ bot: BOT });
  dispatcher = fake.dispatcher();
  fake.addUser({ id: OWNER, displayName: 'Owner', userPrincipalName: 'owner@contoso.example' });
});

afterAll(async () => {
  await dispatcher.close();
  await fake.close();
});

test('without a Bot Connector address (China documents none) the welcome is skipped, naming the setting, before anything is installed', async () => {
  const platform = start({ botServiceUrl: undefined });
  const teamId = await newTeam(platform, 'china');
  const mark = fake.requests.length;
  const outcome = await platform.teams.welcome(teamId, 'Hello');
  await platform.close();
  expect(outcome).toEqual({ skipped: expect.stringContaining('STEWARD_BOT_SERVICE_URL') });
  expect(fake.requests.slice(mark)).toEqual([]);
});

test('the bot asks Entra ID for a Bot Connector token of its cloud’s scope', async () => {
  const platform = start({ botConnectorScope: 'https://api.botframework.us/.default' });
  const teamId = await newTeam(platform, 'usgov');
  const mark = fake.requests.length;
  const outcome = await platform.teams.welcome(teamId, 'Hello');
  await platform.close();
  const tokenRequests = fake.requests
    .slice(mark)
    .filter((r) => r.path.split('?')[0]!.endsWith('/oauth2/v2.0/token'))
    .map((r) => r.body as Record<string, string>);
  expect(tokenRequests.find((form) => form.client_id === BOT.appId)?.scope).toBe(
    'https://api.botframework.us/.default',
  );
  // The simulator is the public cloud's Entra ID: it refuses that scope, and the welcome says why.
  expect(outcome).toEqual({ skipped: expect.stringContaining('invalid_scope') });
});
