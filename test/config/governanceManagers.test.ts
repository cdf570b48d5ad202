import { configLoads, DEMO_ENV, ENTRA_AUTH, GRAPH_APP } from '../support/configLoads';

const GRAPH = {
  ...GRAPH_APP,
  STEWARD_GRAPH_CLIENT_ID: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
  STEWARD_GRAPH_CLIENT_SECRET: 'a-graph-secret',
};
describe('who the governance managers are, and where Graph reads app roles from', () => {
  const { load, failure } = configLoads('governance', { ...DEMO_ENV, STEWARD_BOT_ENABLED: 'false' });
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
    expect(rolesApp(ENTRA_AUTH)).toBe(ENTRA_AUTH.STEWARD_AUTH_AUDIENCE);
    expect(rolesApp({ ...ENTRA_AUTH, STEWARD_GRAPH_ROLES_APP: '5e7a0d1c-3b2a-4c4d-9e8f-0a1b2c3d4e5f' })).toBe(
      '5e7a0d1c-3b2a-4c4d-9e8f-0a1b2c3d4e5f',
    );
    // Embedded tokens carry roles Steward signed itself: nobody is assigned them in Entra ID.
    expect(rolesApp({})).toBeUndefined();
  });
});
