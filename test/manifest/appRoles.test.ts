import { readFileSync } from 'node:fs';
import path from 'node:path';
import { callerFromClaims } from '../../src/domain/identity';
import { OPERATIONS } from '../../src/domain/rbac';
import { APP_ROLES, type AppRole, DIRECTORY_ROLE_TEMPLATES } from '../../src/contract/roles';
import { seedApps } from '../../src/store/seed/directory';

/**
 * The Steward API's Entra ID app registration (aad.manifest.json, applied by the Agents Toolkit's
 * aadApp/update) against what the API grants: every role of src/domain/rbac.ts reaches a token
 * either as an app role declared here or as a directory role read from `wids`, never both, and
 * each declared role is held by whom Entra ID may assign it to (users, applications) the way
 * src/domain/identity.ts reads it. The rules on each field are Microsoft Graph's (appRole,
 * permissionScope, apiApplication resource types).
 */
const ROOT = path.resolve(__dirname, '..', '..');
const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Graph's appRole.value: at most 120 characters of these, not starting with a dot. */
const ROLE_VALUE = /^[A-Za-z0-9!#$%&'()*+,\-./:;<=>?@[\]^_`{|}~]{1,120}$/;
/** Teams' desktop and mobile client, and its web client (Teams single sign-on). */
const TEAMS_CLIENTS = ['1fec8e78-bce4-4aaf-ab1b-5451cc387264', '5e3ce6c0-2b1f-4285-8d4b-75ee78787346'];

interface DeclaredRole {
  id: string;
  value: string;
  displayName: string;
  description: string;
  allowedMemberTypes: string[];
  isEnabled: boolean;
}
interface EntraManifest {
  identifierUris: string[];
  signInAudience: string;
  api: {
    requestedAccessTokenVersion: number;
    oauth2PermissionScopes: { id: string; value: string; type: string; isEnabled: boolean }[];
    preAuthorizedApplications: { appId: string; delegatedPermissionIds: string[] }[];
  };
  appRoles: DeclaredRole[];
  optionalClaims: { accessToken: { name: string }[] };
}

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'aad.manifest.json'), 'utf8')) as EntraManifest;
const declared = manifest.appRoles;
const directoryRoles = new Set<AppRole>(Object.values(DIRECTORY_ROLE_TEMPLATES));

describe('aad.manifest.json: the app roles of the Steward API', () => {
  it('declares every role the API knows that is not a directory role, and nothing else', () => {
    const expected = APP_ROLES.filter((role) => !directoryRoles.has(role)).sort();
    expect(declared.map((role) => role.value).sort()).toEqual(expected);
  });

  it('gives every role an operation of rbac.ts names a way into a token', () => {
    const values = new Set(declared.map((role) => role.value));
    const named = new Set(Object.values(OPERATIONS).flatMap((policy) => [...policy.roles]));
    const unreachable = [...named].filter((role) => !values.has(role) && !directoryRoles.has(role));
    expect(unreachable).toEqual([]);
    expect(named.size).toBeGreaterThan(directoryRoles.size);
  });

  it('declares each role as Microsoft Graph requires: a GUID of its own, a valid value, enabled', () => {
    const ids = [...declared.map((role) => role.id), ...manifest.api.oauth2PermissionScopes.map((s) => s.id)];
    expect(new Set(ids.map((id) => id.toLowerCase())).size).toBe(ids.length);
    for (const role of declared) {
      expect({ value: role.value, id: GUID.test(role.id) }).toEqual({ value: role.value, id: true });
      expect(role.value).toMatch(ROLE_VALUE);
      expect(role.value.startsWith('.')).toBe(false);
      expect(role.isEnabled).toBe(true);
      expect(role.displayName.trim()).not.toBe('');
      expect(role.description.trim()).not.toBe('');
      expect(role.allowedMemberTypes.length).toBeGreaterThan(0);
      expect(new Set(role.allowedMemberTypes).size).toBe(role.allowedMemberTypes.length);
      for (const type of role.allowedMemberTypes) expect(['User', 'Application']).toContain(type);
    }
  });

  it('lets Entra ID assign a role only to whom identity.ts grants it from the token', () => {
    for (const role of declared) {
      for (const type of role.allowedMemberTypes) {
        const caller =
          type === 'User'
            ? callerFromClaims(
                { tid: TENANT, oid: 'f1b7a4d6-0000-4000-8000-000000000001', roles: [role.value] },
                TENANT,
              )
            : callerFromClaims(
                { tid: TENANT, idtyp: 'app', azp: TEAMS_CLIENTS[0], roles: [role.value] },
                TENANT,
              );
        expect({ role: role.value, type, granted: caller.roles.has(role.value as AppRole) }).toEqual({
          role: role.value,
          type,
          granted: true,
        });
      }
    }
  });

  it('lets applications hold the roles the demo tenant gives its apps, the bot INTEGRATION_MANAGER', () => {
    const forApps = new Set(
      declared.filter((r) => r.allowedMemberTypes.includes('Application')).map((r) => r.value),
    );
    const bot = seedApps.find((app) => app.displayName === 'Steward bot');
    expect(bot?.appRoles).toEqual(['INTEGRATION_MANAGER']);
    for (const app of seedApps) for (const role of app.appRoles) expect(forApps).toContain(role);
  });

  it('issues v2.0 tokens with idtyp, for Teams single sign-on through access_as_user', () => {
    // STEWARD_AUTH_ISSUER is the v2.0 issuer, and identity.ts tells application tokens by idtyp,
    // which Entra ID puts in access tokens only as an optional claim.
    expect(manifest.api.requestedAccessTokenVersion).toBe(2);
    expect(manifest.optionalClaims.accessToken.map((claim) => claim.name)).toContain('idtyp');
    expect(manifest.signInAudience).toBe('AzureADMyOrg');
    expect(manifest.identifierUris).toEqual(['${{SSO_RESOURCE}}']);
    const scope = manifest.api.oauth2PermissionScopes.find((s) => s.value === 'access_as_user');
    expect(scope).toMatchObject({ type: 'User', isEnabled: true });
    expect(scope?.id).toMatch(GUID);
    expect(manifest.api.preAuthorizedApplications).toEqual(
      TEAMS_CLIENTS.map((appId) => ({ appId, delegatedPermissionIds: [scope!.id] })),
    );
  });
});
