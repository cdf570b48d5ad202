import { configLoads, DEMO_ENV, GRAPH_APP as GRAPH, graphOf } from '../support/configLoads';

describe('STEWARD_CLOUD and the bot registration settings', () => {
  const { load, failure } = configLoads('cloud', DEMO_ENV);

  test('the public cloud by default: Graph, sign-in and botbuilder defaults', () => {
    const config = load({ ...GRAPH, STEWARD_GRAPH_CLIENT_SECRET: 's' });
    expect(config.cloud.name).toBe('public');
    expect(graphOf(config)).toMatchObject({
      baseUrl: 'https://graph.microsoft.com/v1.0',
      authorityHost: 'https://login.microsoftonline.com',
      scope: 'https://graph.microsoft.com/.default',
      clientSecret: 's',
    });
    expect(config.bot.cloudSettings).toEqual({});
  });

  test.each([
    [
      'usgov',
      'https://graph.microsoft.us',
      'https://login.microsoftonline.us',
      'https://tokengcch.botframework.azure.us/',
    ],
    [
      'usgovdod',
      'https://dod-graph.microsoft.us',
      'https://login.microsoftonline.us',
      'https://apiDoD.botframework.azure.us',
    ],
    [
      'china',
      'https://microsoftgraph.chinacloudapi.cn',
      'https://login.chinacloudapi.cn',
      'https://token.botframework.azure.cn/',
    ],
  ])(
    'STEWARD_CLOUD=%s picks its Graph, sign-in and Bot Framework endpoints',
    (cloud, graph, login, oauth) => {
      const config = load({ ...GRAPH, STEWARD_GRAPH_CLIENT_SECRET: 's', STEWARD_CLOUD: cloud });
      expect(graphOf(config)).toMatchObject({
        baseUrl: `${graph}/v1.0`,
        authorityHost: login,
        scope: `${graph}/.default`,
      });
      expect(config.bot.authorityHost).toBe(login);
      expect(config.bot.cloudSettings.OAuthUrl).toBe(oauth);
      expect(config.bot.cloudSettings.ToBotFromChannelOpenIdMetadataUrl).toMatch(
        /^https:\/\/login\.botframework\.azure\.(us|cn)\//,
      );
    },
  );

  test('individual settings override the cloud’s', () => {
    const config = load({
      ...GRAPH,
      STEWARD_GRAPH_CLIENT_SECRET: 's',
      STEWARD_CLOUD: 'usgov',
      STEWARD_GRAPH_BASE_URL: 'https://graph.example/v1.0/',
      ChannelService: 'https://channel.example',
    });
    expect(graphOf(config).baseUrl).toBe('https://graph.example/v1.0');
    expect(graphOf(config).authorityHost).toBe('https://login.microsoftonline.us');
    expect(config.bot.cloudSettings.ChannelService).toBe('https://channel.example');
    expect(config.bot.cloudSettings.ToChannelFromBotOAuthScope).toBe('https://api.botframework.us');
  });

  test('China puts the bot’s tenant into its login URL', () => {
    const config = load({
      STEWARD_CLOUD: 'china',
      MicrosoftAppId: '66666666-7777-8888-9999-000000000000',
      MicrosoftAppPassword: 'p',
      MicrosoftAppTenantId: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
    });
    expect(config.bot.cloudSettings.ToChannelFromBotLoginUrl).toBe(
      'https://login.partner.microsoftonline.cn/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
    );
  });

  test.each([
    ['public', 'https://smba.trafficmanager.net/teams/', 'https://api.botframework.com/.default'],
    ['usgov', 'https://smba.infra.gov.teams.microsoft.us/teams', 'https://api.botframework.us/.default'],
    ['usgovdod', 'https://smba.infra.dod.teams.microsoft.us/teams', 'https://api.botframework.us/.default'],
    ['china', undefined, 'https://api.botframework.azure.cn/.default'],
  ])(
    'STEWARD_CLOUD=%s picks the Bot Connector the welcome goes through, and its token scope',
    (cloud, url, scope) => {
      const config = load({ ...GRAPH, STEWARD_GRAPH_CLIENT_SECRET: 's', STEWARD_CLOUD: cloud });
      expect(graphOf(config).botServiceUrl).toBe(url);
      expect(graphOf(config).botConnectorScope).toBe(scope);
    },
  );

  test('STEWARD_BOT_SERVICE_URL and ToChannelFromBotOAuthScope still win over the cloud’s', () => {
    const config = load({
      ...GRAPH,
      STEWARD_GRAPH_CLIENT_SECRET: 's',
      STEWARD_CLOUD: 'china',
      STEWARD_BOT_SERVICE_URL: 'https://connector.example/teams/',
      ToChannelFromBotOAuthScope: 'https://api.connector.example/',
    });
    expect(graphOf(config).botServiceUrl).toBe('https://connector.example/teams/');
    expect(graphOf(config).botConnectorScope).toBe('https://api.connector.example/.default');
    expect(
      failure({ ...GRAPH, STEWARD_GRAPH_CLIENT_SECRET: 's', STEWARD_BOT_SERVICE_URL: 'not a url' }).variable,
    ).toBe('STEWARD_BOT_SERVICE_URL');
  });

  test('an unknown cloud is refused', () => {
    expect(failure({ STEWARD_CLOUD: 'mars' }).variable).toBe('STEWARD_CLOUD');
  });

  test('a bot registration is SingleTenant by default and needs its tenant; a managed identity needs no password', () => {
    const appId = '66666666-7777-8888-9999-000000000000';
    expect(failure({ MicrosoftAppId: appId, MicrosoftAppPassword: 'p' }).variable).toBe(
      'MicrosoftAppTenantId',
    );
    const single = load({ MicrosoftAppId: appId, MicrosoftAppPassword: 'p', MicrosoftAppTenantId: 't' });
    expect(single.bot.appType).toBe('SingleTenant');
    const managed = load({
      MicrosoftAppId: appId,
      MicrosoftAppType: 'UserAssignedMSI',
      MicrosoftAppTenantId: 't',
    });
    expect(managed.bot).toMatchObject({ appType: 'UserAssignedMSI', appPassword: undefined });
    const multi = load({ MicrosoftAppId: appId, MicrosoftAppPassword: 'p', MicrosoftAppType: 'MultiTenant' });
    expect(multi.bot.appType).toBe('MultiTenant');
  });

  test('Graph takes exactly one credential: a secret, a certificate or the managed identity', () => {
    expect(
      graphOf(load({ ...GRAPH, STEWARD_GRAPH_CERTIFICATE_PATH: '/etc/steward/graph.pem' })),
    ).toMatchObject({
      certificatePath: '/etc/steward/graph.pem',
    });
    expect(graphOf(load({ ...GRAPH, STEWARD_GRAPH_MANAGED_IDENTITY: 'true' }))).toMatchObject({
      managedIdentity: true,
    });
    expect(failure(GRAPH).message).toMatch(/exactly one of .* \(0 set\)/);
    expect(
      failure({ ...GRAPH, STEWARD_GRAPH_CLIENT_SECRET: 's', STEWARD_GRAPH_MANAGED_IDENTITY: 'true' }).message,
    ).toMatch(/\(2 set\)/);
  });
});
