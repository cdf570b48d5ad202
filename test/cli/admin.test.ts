import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GRAPH_APPLICATION_PERMISSIONS } from '../../src/platform/graph/permissions';
import { FakeGraph, FAKE_GRAPH_CERT } from '../support/fakeGraph';
import { ENTRA_ROLES } from '../support/fakeGraph/records';

/**
 * `npm run admin` (dist/cli/admin.js) as an administrator runs it: a child process with the
 * administrator's delegated token on standard input, over HTTPS to the Graph simulator on loopback
 * (trusted through NODE_EXTRA_CA_CERTS). It grants Steward's identity its Graph permissions and
 * publishes its Teams app, and does neither twice.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const ADMIN = path.join(ROOT, 'dist', 'cli', 'admin.js');
const MANIFEST = path.join(ROOT, 'scripts', 'manifest.js');
const RUN_TIMEOUT_MS = 60_000;
jest.setTimeout(4 * RUN_TIMEOUT_MS);

/** The managed identity Steward runs as, and Steward's API app registration. */
const IDENTITY_CLIENT_ID = '7d0b3a52-64a5-4c1e-9f5e-3a1b2c4d5e6f';
const API_CLIENT_ID = '341355bf-907c-4b6e-8e8a-8d78985f8d65';
const BOT_ID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

let fake: FakeGraph;
let dir: string;
let identityId: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the command with `stdin` piped in and the environment named only (PATH, the CA, a cwd without .env). */
function admin(args: string[], stdin: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ADMIN, ...args, '--graph-url', fake.baseUrl], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', NODE_EXTRA_CA_CERTS: path.join(dir, 'graph.pem') },
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: RUN_TIMEOUT_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

function administrator(roles: string[], scp: string[]): string {
  return fake.issueDelegatedToken({ oid: '00000000-0000-0000-0000-0000000000ad', scp, wids: roles });
}

const GRANTS_SCOPES = ['Application.Read.All', 'AppRoleAssignment.ReadWrite.All'];
const CATALOG_SCOPES = ['AppCatalog.ReadWrite.All'];

const posts = (pattern: RegExp) =>
  fake.graphRequests().filter((r) => r.method === 'POST' && pattern.test(r.path)).length;

beforeAll(async () => {
  fake = await FakeGraph.start();
  dir = mkdtempSync(path.join(os.tmpdir(), 'steward-admin-'));
  writeFileSync(path.join(dir, 'graph.pem'), FAKE_GRAPH_CERT);
  identityId = fake.addServicePrincipal({
    appId: IDENTITY_CLIENT_ID,
    displayName: 'steward-identity',
    appRoles: [],
  }).id;
  fake.addServicePrincipal({
    appId: API_CLIENT_ID,
    displayName: 'Steward API',
    appRoles: [{ value: 'INTEGRATION_MANAGER' }, { value: 'CATALOG_MANAGER' }],
  });
});

afterAll(async () => {
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('grant-permissions', () => {
  test('grants every permission Steward needs on the first run, and nothing new on the second', async () => {
    const token = administrator([ENTRA_ROLES.privilegedRoleAdministrator], GRANTS_SCOPES);
    const first = await admin(
      [
        'grant-permissions',
        '--principal',
        IDENTITY_CLIENT_ID,
        '--api-app',
        API_CLIENT_ID,
        '--role',
        'INTEGRATION_MANAGER',
      ],
      `${token}\n`,
    );
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `Microsoft Graph: granted ${GRAPH_APPLICATION_PERMISSIONS.length}, already granted 0`,
    );
    expect(first.stdout).toContain('Steward API: granted 1, already granted 0');
    expect(fake.grantedRoles(identityId).sort()).toEqual([...GRAPH_APPLICATION_PERMISSIONS].sort());
    expect(fake.grantedRoles(identityId, API_CLIENT_ID)).toEqual(['INTEGRATION_MANAGER']);

    // By its object id this time: the same principal, everything already there, nothing posted.
    const before = posts(/appRoleAssignments$/);
    const second = await admin(
      [
        'grant-permissions',
        '--principal',
        identityId,
        '--api-app',
        API_CLIENT_ID,
        '--role',
        'INTEGRATION_MANAGER',
      ],
      token,
    );
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      `Microsoft Graph: granted 0, already granted ${GRAPH_APPLICATION_PERMISSIONS.length}`,
    );
    expect(second.stdout).toContain('Steward API: granted 0, already granted 1');
    expect(posts(/appRoleAssignments$/)).toBe(before);
    for (const run of [first, second]) expect(`${run.stdout}${run.stderr}`).not.toContain(token);
  });

  test('a token whose holder may not grant Graph permissions: Graph’s 403, what the token needs, exit 1', async () => {
    const token = administrator([ENTRA_ROLES.applicationAdministrator], GRANTS_SCOPES);
    const other = fake.addServicePrincipal({
      appId: '5b6c7d8e-0000-4000-8000-000000000001',
      displayName: 'other',
      appRoles: [],
    });
    const run = await admin(['grant-permissions', '--principal', other.appId], token);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Graph refused: POST .*appRoleAssignments: 403 Authorization_RequestDenied/);
    expect(run.stderr).toContain('Privileged Role Administrator');
    expect(`${run.stdout}${run.stderr}`).not.toContain(token);
    expect(fake.grantedRoles(other.id)).toEqual([]);
  });

  test('no token on standard input: a clear error and exit 2, before any call to Graph', async () => {
    const before = fake.requests.length;
    const run = await admin(['grant-permissions', '--principal', IDENTITY_CLIENT_ID], '  \n');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('No token on standard input');
    expect(fake.requests.length).toBe(before);
  });

  test('a principal that is not a GUID, or no such principal: exit 2 naming it', async () => {
    const token = administrator([ENTRA_ROLES.globalAdministrator], GRANTS_SCOPES);
    const bad = await admin(['grant-permissions', '--principal', 'steward-identity'], token);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"steward-identity" is not a GUID');
    const missing = await admin(
      ['grant-permissions', '--principal', '9f9f9f9f-0000-4000-8000-000000000000'],
      token,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'No service principal has the client id or object id 9f9f9f9f-0000-4000-8000-000000000000',
    );
  });
});

describe('publish-app', () => {
  /** `npm run manifest` in a folder of its own (no .env to read). */
  function buildPackage(name: string): Promise<string> {
    const out = path.join(dir, name);
    const env = {
      PATH: process.env.PATH ?? '',
      STEWARD_BOT_ID: BOT_ID,
      STEWARD_PUBLIC_URL: 'https://steward.contoso.example',
    };
    return new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [MANIFEST, '--out', out], { cwd: dir, env, stdio: 'ignore' });
      child.once('error', reject);
      child.once('close', (code) =>
        code === 0 ? resolve(out) : reject(new Error(`manifest exited ${code}`)),
      );
    });
  }

  test('publishes the package to the organisation’s catalog, then updates it; the catalog id is printed', async () => {
    const zip = await buildPackage('steward.zip');
    const token = administrator([ENTRA_ROLES.globalAdministrator], CATALOG_SCOPES);
    const first = await admin(['publish-app', '--package', zip], token);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const app = [...fake.apps.values()].find((a) => a.externalId === BOT_ID);
    expect(app).toMatchObject({ distributionMethod: 'organization', displayName: 'Steward' });
    expect(app?.id).not.toBe(BOT_ID);
    expect(first.stdout).toContain(`Published Steward's app`);
    expect(first.stdout).toContain(`catalog id: ${String(app?.id)}`);
    expect(first.stdout).toContain(`manifest id: ${BOT_ID}`);

    const second = await admin(['publish-app', '--package', zip], token);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`Updated Steward's app`);
    expect([...fake.apps.values()].filter((a) => a.externalId === BOT_ID)).toHaveLength(1);
    expect(fake.appDefinitions.get(String(app?.id))).toHaveLength(2);
    expect(posts(/^\/v1\.0\/appCatalogs\/teamsApps$/)).toBe(1);
    for (const run of [first, second]) expect(`${run.stdout}${run.stderr}`).not.toContain(token);
  });

  test('a token without the catalog permission: Graph’s 403 and what the token needs', async () => {
    const zip = await buildPackage('refused.zip');
    const token = administrator([ENTRA_ROLES.globalAdministrator], GRANTS_SCOPES);
    const run = await admin(['publish-app', '--package', zip], token);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/403 Authorization_RequestDenied/);
    expect(run.stderr).toContain('AppCatalog.ReadWrite.All');
    expect(`${run.stdout}${run.stderr}`).not.toContain(token);
  });

  test('what is not an app package: exit 2 before Graph is called', async () => {
    writeFileSync(path.join(dir, 'not.zip'), '{"id":"x"}');
    const before = fake.requests.length;
    const run = await admin(
      ['publish-app', '--package', path.join(dir, 'not.zip')],
      administrator([], CATALOG_SCOPES),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('The package cannot be read');
    expect(fake.requests.length).toBe(before);
  });
});
