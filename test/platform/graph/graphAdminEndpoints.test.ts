import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { FakeGraph } from '../../support/fakeGraph';
import { MICROSOFT_GRAPH_APP_ID } from '../../support/fakeGraph/appRoleGrants';
import { ENTRA_ROLES } from '../../support/fakeGraph/records';

/**
 * The Graph simulator's administrator's endpoints refuse what Graph documents it refuses: an app
 * role granted twice (`api/serviceprincipal-post-approleassignments.md`), an app published twice
 * ("each app in the app catalog must have a unique manifest ID", `api/teamsapp-publish.md`), an
 * update by anyone but a Global Administrator (`api/teamsapp-update.md`).
 */
const MANIFEST = path.resolve(__dirname, '..', '..', '..', 'scripts', 'manifest.js');
const GRANTS_SCOPES = ['Application.Read.All', 'AppRoleAssignment.ReadWrite.All'];
const CATALOG_SCOPES = ['AppCatalog.ReadWrite.All'];

let fake: FakeGraph;
let dir: string;

beforeAll(async () => {
  fake = await FakeGraph.start();
  dir = mkdtempSync(path.join(os.tmpdir(), 'steward-admin-fake-'));
});

afterAll(async () => {
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

function administrator(roles: string[], scp: string[]): string {
  return fake.issueDelegatedToken({ oid: '00000000-0000-0000-0000-0000000000ad', scp, wids: roles });
}

describe('the simulator refuses what Graph refuses', () => {
  async function call(
    method: 'GET' | 'POST',
    pathAndQuery: string,
    token: string,
    body?: { type: string; data: string | Buffer },
  ) {
    const dispatcher = fake.dispatcher();
    try {
      const res = await request(`${fake.baseUrl}${pathAndQuery}`, {
        method,
        dispatcher,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': body.type } : {}) },
        body: body?.data,
      });
      const text = await res.body.text();
      return {
        status: res.statusCode,
        body: text ? (JSON.parse(text) as { error?: { code: string; message: string } }) : {},
      };
    } finally {
      await dispatcher.close();
    }
  }

  test('an app role granted twice: 400 "Permission being assigned already exists on the object."', async () => {
    const token = administrator([ENTRA_ROLES.globalAdministrator], GRANTS_SCOPES);
    const sp = fake.addServicePrincipal({
      appId: '5b6c7d8e-0000-4000-8000-000000000002',
      displayName: 'twice',
      appRoles: [],
    });
    const graph = [...fake.servicePrincipals.values()].find((p) => p.appId === MICROSOFT_GRAPH_APP_ID)!;
    const role = graph.appRoles.find((r) => r.value === 'User.Read.All')!;
    const grant = {
      type: 'application/json',
      data: JSON.stringify({ principalId: sp.id, resourceId: graph.id, appRoleId: role.id }),
    };
    expect((await call('POST', `/servicePrincipals/${sp.id}/appRoleAssignments`, token, grant)).status).toBe(
      201,
    );
    expect(await call('POST', `/servicePrincipals/${sp.id}/appRoleAssignments`, token, grant)).toEqual({
      status: 400,
      body: {
        error: expect.objectContaining({
          code: 'Request_BadRequest',
          message: 'Permission being assigned already exists on the object.',
        }),
      },
    });
  });

  test('publishing an app whose manifest id is in the catalog already: 409; listing by externalId finds it', async () => {
    const zip = await new Promise<Buffer>((resolve, reject) => {
      const out = path.join(dir, 'direct.zip');
      const env = {
        PATH: process.env.PATH ?? '',
        STEWARD_BOT_ID: '1a2b3c4d-0000-4000-8000-000000000003',
        STEWARD_PUBLIC_URL: 'https://steward.contoso.example',
      };
      const child = spawn(process.execPath, [MANIFEST, '--out', out], { cwd: dir, env, stdio: 'ignore' });
      child.once('error', reject);
      child.once('close', () => resolve(readFileSync(out)));
    });
    const token = administrator([ENTRA_ROLES.teamsAdministrator], CATALOG_SCOPES);
    const upload = { type: 'application/zip', data: zip };
    const published = await call('POST', '/appCatalogs/teamsApps', token, upload);
    expect(published.status).toBe(201);
    expect((await call('POST', '/appCatalogs/teamsApps', token, upload)).status).toBe(409);
    const filter = encodeURIComponent("externalId eq '1a2b3c4d-0000-4000-8000-000000000003'");
    const listed = await call('GET', `/appCatalogs/teamsApps?$filter=${filter}`, token);
    expect(listed.body).toMatchObject({
      value: [{ id: (published.body as { id: string }).id, distributionMethod: 'organization' }],
    });
    // A Teams administrator publishes; updating is Graph's for Global Administrators only.
    const update = await call(
      'POST',
      `/appCatalogs/teamsApps/${(published.body as { id: string }).id}/appDefinitions`,
      token,
      upload,
    );
    expect(update.status).toBe(403);
  });
});
