import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ConfigError, loadConfig } from '../../src/config';
import { configErrorOf } from '../support/configErrors';
import { DEMO_CHOICES } from '../support/demoChoices';

const SECRET = 'a-secret-that-is-long-enough-for-hs256-0123456789';
const GRAPH = {
  STEWARD_PLATFORM: 'graph',
  STEWARD_GRAPH_TENANT_ID: '11111111-2222-3333-4444-555555555555',
  STEWARD_GRAPH_CLIENT_ID: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
  STEWARD_GRAPH_CLIENT_SECRET: 'a-graph-secret',
};
const ENTRA = {
  STEWARD_AUTH_MODE: 'entra',
  STEWARD_AUTH_JWKS_URI: 'https://login.microsoftonline.com/common/discovery/v2.0/keys',
  STEWARD_AUTH_ISSUER: 'https://login.microsoftonline.com/t/v2.0',
  STEWARD_AUTH_AUDIENCE: 'api://botid-0b0b0b0b-0000-4000-8000-000000000000',
};

describe('who the governance managers are, and where Graph reads app roles from', () => {
  let cwd: string;
  beforeEach(() => {
    cwd = mkdtempSync(path.join(os.tmpdir(), 'steward-governance-'));
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  const load = (env: Record<string, string>) =>
    loadConfig({ ...DEMO_CHOICES, STEWARD_AUTH_SECRET: SECRET, STEWARD_BOT_ENABLED: 'false', ...env }, cwd);
  const failure = (env: Record<string, string>): ConfigError =>
    configErrorOf(() => load(env), JSON.stringify(env));
  const rolesApp = (env: Record<string, string>) => {
    const platform = load({ ...GRAPH, ...env }).platform;
    return platform.kind === 'graph' ? platform.rolesApp : 'not graph';
  };

  test('STEWARD_GOVERNANCE_MANAGERS: object ids, trimmed, lower-cased, once each; anything else stops start-up', () => {
    expect(load({}).governanceManagers).toEqual({ configured: [], cacheMs: 300_000 });
    const ids =
      ' 00000000-0000-0000-0000-000000000025 ,0B0B0B0B-0000-4000-8000-000000000000,00000000-0000-0000-0000-000000000025';
    expect(load({ STEWARD_GOVERNANCE_MANAGERS: ids }).governanceManagers.configured).toEqual([
      '00000000-0000-0000-0000-000000000025',
      '0b0b0b0b-0000-4000-8000-000000000000',
    ]);
    const error = failure({
      STEWARD_GOVERNANCE_MANAGERS: '00000000-0000-0000-0000-000000000025,lynne@contoso.com',
    });
    expect(error.variable).toBe('STEWARD_GOVERNANCE_MANAGERS');
    expect(error.message).toContain('"lynne@contoso.com"');
    expect(load({ STEWARD_GOVERNANCE_MANAGERS_CACHE_SECONDS: '0' }).governanceManagers.cacheMs).toBe(0);
    expect(failure({ STEWARD_GOVERNANCE_MANAGERS_CACHE_SECONDS: '-1' }).variable).toBe(
      'STEWARD_GOVERNANCE_MANAGERS_CACHE_SECONDS',
    );
  });

  test('Graph reads app roles from the API’s audience in entra mode, from STEWARD_GRAPH_ROLES_APP when set, else from nothing', () => {
    expect(rolesApp(ENTRA)).toBe(ENTRA.STEWARD_AUTH_AUDIENCE);
    expect(rolesApp({ ...ENTRA, STEWARD_GRAPH_ROLES_APP: '5e7a0d1c-3b2a-4c4d-9e8f-0a1b2c3d4e5f' })).toBe(
      '5e7a0d1c-3b2a-4c4d-9e8f-0a1b2c3d4e5f',
    );
    // Embedded tokens carry roles Steward signed itself: nobody is assigned them in Entra ID.
    expect(rolesApp({})).toBeUndefined();
  });
});
