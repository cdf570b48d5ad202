import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Agent, request } from 'undici';
import { EmbeddedTokenIssuer } from '../../../src/services/access/tokens';
import { FakeGraph, FAKE_GRAPH_CERT } from '../../support/fakeGraph';
import { APP_CERTIFICATE, APP_KEY } from '../../support/fakeIdentity/appCertificate';
import { FakeIdentity } from '../../support/fakeIdentity/server';
import { type Process, spawnMain } from '../../support/mainProcess';

/**
 * Steward's Graph credentials without a secret, end to end: `node dist/main.js` configured only by
 * its environment gets its token from a local Entra ID (a certificate's signed assertion) or a local
 * App Service managed identity endpoint, and sends that token to the Graph simulator. The process
 * trusts the fakes' TLS certificate through NODE_EXTRA_CA_CERTS, as a deployment behind an
 * inspecting proxy would.
 */

const SECRET = 'a-secret-that-is-long-enough-for-hs256-0123456789';
const PERSON = '00000000-0000-0000-0000-000000000501';

let graph: FakeGraph;
let dispatcher: Agent;
let identity: FakeIdentity;
let dir: string;

/** A token the Graph simulator accepts, as Entra ID would issue one for Graph. */
async function graphToken(audience: string): Promise<string> {
  if (audience !== 'https://graph.microsoft.com') throw new Error(`no token for ${audience}`);
  const config = graph.config();
  const res = await request(`${config.authorityHost}/${graph.tenantId}/oauth2/v2.0/token`, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: config.clientId,
      client_secret: config.clientSecret,
      scope: 'https://graph.microsoft.com/.default',
    }).toString(),
  });
  return ((await res.body.json()) as { access_token: string }).access_token;
}

beforeAll(async () => {
  graph = await FakeGraph.start();
  dispatcher = graph.dispatcher();
  graph.addUser({ id: PERSON, displayName: 'Pat Doe', userPrincipalName: 'pat@contoso.example' });
  identity = await FakeIdentity.start({
    tenantId: graph.tenantId,
    app: { clientId: graph.config().clientId, certificate: APP_CERTIFICATE },
    managedIdentity: { clientId: graph.config().clientId },
    issue: graphToken,
  });
  dir = mkdtempSync(path.join(os.tmpdir(), 'steward-credentials-'));
  writeFileSync(path.join(dir, 'graph-app.pem'), `${APP_CERTIFICATE}${APP_KEY}`, { mode: 0o600 });
  writeFileSync(path.join(dir, 'trusted.pem'), FAKE_GRAPH_CERT);
});

afterAll(async () => {
  await identity?.close();
  await dispatcher?.close();
  await graph?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Steward on the Graph simulator with `credential`'s settings; resolves once it listens. */
async function startSteward(
  name: string,
  credential: Record<string, string>,
): Promise<{ main: Process; url: string }> {
  const main = spawnMain({
    STEWARD_HOST: '127.0.0.1',
    STEWARD_PORT: '0',
    STEWARD_DATA_DIR: path.join(dir, name),
    STEWARD_AUTH_SECRET: SECRET,
    STEWARD_TENANT_ID: graph.tenantId,
    STEWARD_LOG_LEVEL: 'trace',
    STEWARD_BOT_ENABLED: 'false',
    STEWARD_AUTH_MODE: 'embedded',
    STEWARD_SEED_DEMO_DATA: 'true',
    STEWARD_PLATFORM: 'graph',
    STEWARD_GRAPH_TENANT_ID: graph.tenantId,
    STEWARD_GRAPH_CLIENT_ID: graph.config().clientId,
    STEWARD_GRAPH_BASE_URL: graph.baseUrl,
    STEWARD_GRAPH_AUTHORITY_HOST: identity.authorityHost,
    NODE_EXTRA_CA_CERTS: path.join(dir, 'trusted.pem'),
    ...credential,
  });
  const listening = await main.waitForLog('Steward is listening');
  return { main, url: String(listening.url) };
}

/** Asks Steward for a directory page, which it reads from Graph; resolves to the status. */
async function readPeople(url: string): Promise<number> {
  const token = await new EmbeddedTokenIssuer(SECRET, graph.tenantId).mint({ id: PERSON, roles: [] }, 600);
  const res = await request(`${url}/api/v1.0/users?$top=5`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await res.body.text();
  return res.statusCode;
}

/** The bearer tokens Steward sent to Graph since `mark`. */
const graphBearers = (mark: number) =>
  graph.requests
    .slice(mark)
    .filter((r) => r.path.startsWith('/v1.0/'))
    .map((r) => /^Bearer (.+)$/.exec(r.headers.authorization ?? '')?.[1]);

async function stop(main: Process): Promise<void> {
  main.child.kill('SIGTERM');
  await main.exited;
}

test('a certificate: Entra ID verifies the signed assertion, and Graph gets the token it issued', async () => {
  const mark = graph.requests.length;
  const issuedBefore = identity.issued.length;
  const { main, url } = await startSteward('certificate', {
    STEWARD_GRAPH_CERTIFICATE_PATH: path.join(dir, 'graph-app.pem'),
  });
  try {
    expect(await readPeople(url)).toBe(200);
  } finally {
    await stop(main);
  }
  expect(identity.refusals).toEqual([]);
  expect(identity.assertions).toEqual([
    expect.objectContaining({
      alg: 'PS256',
      audience: `${identity.authorityHost}/${graph.tenantId}/oauth2/v2.0/token`,
    }),
  ]);
  const issued = identity.issued.slice(issuedBefore);
  expect(issued).toHaveLength(1);
  const bearers = graphBearers(mark);
  expect(bearers.length).toBeGreaterThan(0);
  expect(new Set(bearers)).toEqual(new Set(issued));
  const logged = JSON.stringify(main.logs) + main.stderr();
  expect(logged).not.toContain(issued[0]);
  expect(logged).not.toContain('BEGIN PRIVATE KEY');
});

test('an assertion signed by another key than the certificate’s is refused: no token, no call to Graph', async () => {
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  });
  writeFileSync(path.join(dir, 'wrong-key.pem'), `${APP_CERTIFICATE}${String(other)}`, { mode: 0o600 });
  const mark = graph.requests.length;
  const issuedBefore = identity.issued.length;
  const refusedBefore = identity.refusals.length;
  const { main, url } = await startSteward('wrong-key', {
    STEWARD_GRAPH_CERTIFICATE_PATH: path.join(dir, 'wrong-key.pem'),
  });
  try {
    expect(await readPeople(url)).toBe(503);
  } finally {
    await stop(main);
  }
  expect(identity.refusals.slice(refusedBefore)).toEqual([
    expect.stringContaining('the assertion did not verify'),
  ]);
  expect(identity.issued.length).toBe(issuedBefore);
  expect(graphBearers(mark)).toEqual([]);
});

test('the managed identity: App Service’s endpoint gives the token, and Graph gets it', async () => {
  const mark = graph.requests.length;
  const issuedBefore = identity.issued.length;
  const { main, url } = await startSteward('managed', {
    STEWARD_GRAPH_MANAGED_IDENTITY: 'true',
    IDENTITY_ENDPOINT: identity.identityEndpoint,
    IDENTITY_HEADER: identity.identityHeader,
  });
  try {
    expect(await readPeople(url)).toBe(200);
  } finally {
    await stop(main);
  }
  expect(identity.managedIdentityRequests).toEqual([
    { resource: 'https://graph.microsoft.com', clientId: graph.config().clientId, apiVersion: '2019-08-01' },
  ]);
  const issued = identity.issued.slice(issuedBefore);
  expect(issued).toHaveLength(1);
  const bearers = graphBearers(mark);
  expect(bearers.length).toBeGreaterThan(0);
  expect(new Set(bearers)).toEqual(new Set(issued));
  const logged = JSON.stringify(main.logs) + main.stderr();
  expect(logged).not.toContain(issued[0]);
  expect(logged).not.toContain(identity.identityHeader);
});
