import {
  type Activity,
  CloudAdapter,
  ConfigurationBotFrameworkAuthentication,
  type TurnContext,
} from 'botbuilder';
import type { ClaimsIdentity, ConnectorClient, UserTokenClient } from 'botframework-connector';
import { ReusedClientsAuthentication } from '../../src/bot/reusedClients';

/** CloudAdapter with its turn processing reachable, as Steward's adapter has it. */
class Adapter extends CloudAdapter {
  turn(activity: Partial<Activity>, logic: (context: TurnContext) => Promise<void>) {
    return this.processActivity('', activity as Activity, logic);
  }
}

const message = (serviceUrl: string): Partial<Activity> => ({
  type: 'message',
  text: 'help',
  serviceUrl,
  channelId: 'msteams',
  conversation: { id: 'a:conversation', isGroup: false, conversationType: 'personal', name: '' },
  from: { id: '29:someone', name: 'Someone' },
  recipient: { id: '28:steward', name: 'Steward' },
});

/** The clients the adapter put into a turn. */
async function clientsOf(adapter: Adapter, serviceUrl: string) {
  let clients: { connector: ConnectorClient; tokens: UserTokenClient } | undefined;
  await adapter.turn(message(serviceUrl), async (context) => {
    clients = {
      connector: context.turnState.get<ConnectorClient>(adapter.ConnectorClientKey),
      tokens: context.turnState.get<UserTokenClient>(adapter.UserTokenClientKey),
    };
  });
  return clients!;
}

describe('ReusedClientsAuthentication', () => {
  test('turns for the same service URL share one connector client and one token client', async () => {
    const adapter = new Adapter(
      new ReusedClientsAuthentication(new ConfigurationBotFrameworkAuthentication({})),
    );
    const first = await clientsOf(adapter, 'https://smba.example.net/emea/');
    const second = await clientsOf(adapter, 'https://smba.example.net/emea/');
    expect(first.connector).toBeDefined();
    expect(second.connector).toBe(first.connector);
    expect(second.tokens).toBe(first.tokens);

    const other = await clientsOf(adapter, 'https://smba.example.net/amer/');
    expect(other.connector).not.toBe(first.connector);
    expect(other.tokens).toBe(first.tokens); // one per app id
  });

  test('without the wrapper botbuilder builds new clients for every turn (what it saves)', async () => {
    const adapter = new Adapter(new ConfigurationBotFrameworkAuthentication({}));
    const first = await clientsOf(adapter, 'https://smba.example.net/emea/');
    const second = await clientsOf(adapter, 'https://smba.example.net/emea/');
    expect(second.connector).not.toBe(first.connector);
    expect(second.tokens).not.toBe(first.tokens);
  });

  test('proactive turns (continueConversation) share their clients too', async () => {
    const adapter = new Adapter(
      new ReusedClientsAuthentication(new ConfigurationBotFrameworkAuthentication({})),
    );
    const proactive = async () => {
      let client: ConnectorClient | undefined;
      await adapter.continueConversationAsync(
        '',
        { ...message('https://smba.example.net/emea/'), activityId: undefined } as never,
        async (context) => {
          client = context.turnState.get<ConnectorClient>(adapter.ConnectorClientKey);
        },
      );
      return client;
    };
    const first = await proactive();
    expect(first).toBeDefined();
    expect(await proactive()).toBe(first);
  });

  test('keeps at most 64 connector clients: the oldest is built again when needed', async () => {
    const adapter = new Adapter(
      new ReusedClientsAuthentication(new ConfigurationBotFrameworkAuthentication({})),
    );
    const url = (i: number) => `https://smba.example.net/region-${i}/`;
    const first = await clientsOf(adapter, url(0));
    for (let i = 1; i < 64; i += 1) await clientsOf(adapter, url(i));
    expect((await clientsOf(adapter, url(0))).connector).toBe(first.connector);
    await clientsOf(adapter, url(64)); // the 65th pushes out the oldest
    expect((await clientsOf(adapter, url(0))).connector).not.toBe(first.connector);
  });

  test('a client that could not be built is tried again on the next turn, not kept failed', async () => {
    class FlakyAuthentication extends ConfigurationBotFrameworkAuthentication {
      calls = 0;
      override createUserTokenClient(claimsIdentity: ClaimsIdentity): Promise<UserTokenClient> {
        this.calls += 1;
        if (this.calls === 1) return Promise.reject(new Error('token service unreachable'));
        return super.createUserTokenClient(claimsIdentity);
      }
    }
    const flaky = new FlakyAuthentication({});
    const adapter = new Adapter(new ReusedClientsAuthentication(flaky));
    await expect(clientsOf(adapter, 'https://smba.example.net/emea/')).rejects.toThrow(
      'token service unreachable',
    );
    const next = await clientsOf(adapter, 'https://smba.example.net/emea/');
    expect(next.tokens).toBeDefined();
    expect(flaky.calls).toBe(2);
    expect((await clientsOf(adapter, 'https://smba.example.net/emea/')).tokens).toBe(next.tokens);
    expect(flaky.calls).toBe(2);
  });
});
