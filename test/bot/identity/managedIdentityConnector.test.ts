import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { AuthenticationConstants, ClaimsIdentity } from 'botframework-connector';
import { botFrameworkAuthentication } from '../../../src/bot';
import { loadConfig } from '../../../src/config';
import { managedIdentityToken } from '../../../src/platform/managedIdentity';
import { APP_CERTIFICATE } from '../../support/fakeIdentity/appCertificate';
import { FakeIdentity } from '../../support/fakeIdentity/server';

/**
 * The bot as a user-assigned managed identity (`MicrosoftAppType=UserAssignedMSI`): the Bot
 * Framework authentication Steward builds from its settings gets its Bot Connector token from App
 * Service's managed identity endpoint (IDENTITY_ENDPOINT / IDENTITY_HEADER, which Azure sets and
 * the test sets to a local fake) and sends it to the Bot Connector as `Authorization: Bearer`.
 */

const APP_ID = 'c0c0c0c0-0000-0000-0000-00000000c0c0';
const TENANT = '11111111-2222-3333-4444-555555555555';
/** Steward's API as an Entra application (STEWARD_AUTH_AUDIENCE), which the bot calls as itself. */
const API_AUDIENCE = 'api://steward-api';

let identity: FakeIdentity;
let connector: Server;
let connectorUrl: string;
const seen: Array<{ path: string; authorization: string | undefined }> = [];
const saved = { endpoint: process.env.IDENTITY_ENDPOINT, header: process.env.IDENTITY_HEADER };

beforeAll(async () => {
  identity = await FakeIdentity.start({
    tenantId: TENANT,
    app: { clientId: APP_ID, certificate: APP_CERTIFICATE },
    managedIdentity: { clientId: APP_ID },
    issue: async (audience) => {
      if (audience === 'https://api.botframework.com')
        return `bot-connector-token-${randomBytes(16).toString('hex')}`;
      if (audience === API_AUDIENCE) return `steward-api-token-${randomBytes(16).toString('hex')}`;
      throw new Error(`no token for ${audience}`);
    },
  });
  // The Bot Connector's "create conversation" (POST /v3/conversations), as the bot's proactive messages use it.
  connector = createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'a:conversation-1', activityId: '1' }));
    });
  });
  await new Promise<void>((resolve) => connector.listen(0, '127.0.0.1', resolve));
  connectorUrl = `http://127.0.0.1:${(connector.address() as { port: number }).port}/teams/`;
  process.env.IDENTITY_ENDPOINT = identity.identityEndpoint;
  process.env.IDENTITY_HEADER = identity.identityHeader;
});

afterAll(async () => {
  for (const [name, value] of [
    ['IDENTITY_ENDPOINT', saved.endpoint],
    ['IDENTITY_HEADER', saved.header],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await identity?.close();
  connector?.closeAllConnections();
  await new Promise((resolve) => connector?.close(resolve));
});

test('UserAssignedMSI: the token comes from the managed identity endpoint and goes to the Bot Connector', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-msi-bot-'));
  try {
    const config = loadConfig(
      {
        STEWARD_AUTH_SECRET: 'a-secret-that-is-long-enough-for-hs256-0123456789',
        MicrosoftAppId: APP_ID,
        MicrosoftAppType: 'UserAssignedMSI',
        MicrosoftAppTenantId: TENANT,
      },
      dir,
    );
    const auth = botFrameworkAuthentication(config.bot);
    const bot = new ClaimsIdentity(
      [
        { type: AuthenticationConstants.AudienceClaim, value: APP_ID },
        { type: AuthenticationConstants.AppIdClaim, value: APP_ID },
      ],
      true,
    );
    const client = await auth
      .createConnectorFactory(bot)
      .create(connectorUrl, AuthenticationConstants.ToChannelFromBotOAuthScope);
    const created = await client.conversations.createConversation({
      isGroup: false,
      bot: { id: `28:${APP_ID}`, name: 'Steward' },
      members: [{ id: '29:someone', name: 'Someone' }],
      tenantId: TENANT,
      activity: { type: 'message', text: 'Hello' } as never,
      channelData: { tenant: { id: TENANT } },
    });
    expect(created.id).toBe('a:conversation-1');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(identity.managedIdentityRequests).toEqual([
    { resource: 'https://api.botframework.com', clientId: APP_ID, apiVersion: '2019-08-01' },
  ]);
  expect(identity.issued).toHaveLength(1);
  expect(seen).toEqual([{ path: '/teams/v3/conversations', authorization: `Bearer ${identity.issued[0]}` }]);
});

test('UserAssignedMSI: the bot’s own token for Steward’s API comes from the same endpoint, for the API’s audience', async () => {
  const before = identity.managedIdentityRequests.length;
  const token = await managedIdentityToken(APP_ID, `${API_AUDIENCE}/.default`)();
  expect(identity.managedIdentityRequests.slice(before)).toEqual([
    { resource: API_AUDIENCE, clientId: APP_ID, apiVersion: '2019-08-01' },
  ]);
  expect(token).toBe(identity.issued[identity.issued.length - 1]);
  expect(token).toMatch(/^steward-api-token-/);
});
