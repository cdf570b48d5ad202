import { DriftConversation } from '../../../src/bot/drift/drift';
import { DriftCardState } from '../../../src/bot/drift/driftCardState';
import { type Activity, MemoryStorage, TestAdapter, type TurnContext } from 'botbuilder';
import { StewardClient } from '../../../src/client';
import { ApprovalState } from '../../../src/bot/approvals/approvalState';
import { ApproverDeliveries } from '../../../src/bot/approvals/approverDeliveries';
import { GuestReviewConversation } from '../../../src/bot/lifecycle/guestReview';
import { JoiningConversation } from '../../../src/bot/joining/joining';
import { JoinState } from '../../../src/bot/joining/joinState';
import { OwnerlessConversation } from '../../../src/bot/lifecycle/ownerless';
import { ApprovalConversation } from '../../../src/bot/approvals/approvals';
import { LifecycleConversation } from '../../../src/bot/lifecycle/lifecycle';
import { LifecycleCardState } from '../../../src/bot/lifecycle/lifecycleCardState';
import { NoticeRecords } from '../../../src/bot/lifecycle/lifecycleRecords';
import { JobReads } from '../../../src/bot/requests/jobReads';
import { ProgressTracker } from '../../../src/bot/requests/progress';
import { RequestState } from '../../../src/bot/requests/requestState';
import { RequestSubmitter } from '../../../src/bot/requests/submitRequest';
import { ProductionIdentity, type TokenServiceClient } from '../../../src/bot/identity/productionIdentity';
import type { Messenger } from '../../../src/bot/messenger';
import { ReachState } from '../../../src/bot/reachState';
import { StewardBot } from '../../../src/bot/stewardBot';
import { WelcomeState } from '../../../src/bot/welcome/welcomeState';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A token service that knows the tokens it was given, and exchanges SSO tokens that start with `sso-`. */
function tokenService(tokens: Map<string, string>): TokenServiceClient {
  return {
    getUserToken: async (userId, connectionName, _channelId, magicCode) => {
      if (magicCode === '123456') tokens.set(userId, 'token-from-code');
      const token = tokens.get(userId);
      return token ? { token, connectionName, expiration: '', channelId: 'msteams' } : (undefined as never);
    },
    getSignInResource: async () => ({
      signInLink: 'https://token.botframework.com/api/oauth/signin?signin=abc',
      tokenExchangeResource: { id: 'exchange-1', uri: 'api://steward', providerId: 'aad' },
      tokenPostResource: { sasUrl: '' },
    }),
    exchangeToken: async (userId, connectionName, _channelId, request) => {
      if (!request.token?.startsWith('sso-')) return undefined as never;
      tokens.set(userId, `exchanged-${request.token}`);
      return { token: `exchanged-${request.token}`, connectionName, expiration: '', channelId: 'msteams' };
    },
  };
}

/** A TestAdapter whose turns carry the token service, as CloudAdapter's do. */
function adapterWith(
  service: TokenServiceClient,
  logic: (context: TurnContext) => Promise<void>,
): TestAdapter {
  const adapter = new TestAdapter(logic, { channelId: 'msteams' });
  const key = Symbol('UserTokenClient');
  Object.assign(adapter, { UserTokenClientKey: key });
  adapter.use(async (context, next) => {
    context.turnState.set(key, service);
    await next();
  });
  return adapter;
}

const identity = () =>
  new ProductionIdentity({
    oauthConnection: 'steward-api',
    appId: 'app',
    appPassword: 'unused',
    apiScope: 'api://steward/.default',
    acquireAppToken: async () => 'app-token',
  });

describe('the production identity', () => {
  it('sends a sign-in card when the person has no token yet, and forwards their token once they do', async () => {
    const tokens = new Map<string, string>();
    const results: string[] = [];
    const prod = identity();
    const adapter = adapterWith(tokenService(tokens), async (context) => {
      results.push((await prod.userToken(context)).kind);
    });
    await adapter
      .send('new team')
      .assertReply((activity: Partial<Activity>) => {
        const card = activity.attachments?.[0];
        expect(card?.contentType).toBe('application/vnd.microsoft.card.oauth');
        expect(card?.content).toMatchObject({
          connectionName: 'steward-api',
          tokenExchangeResource: { id: 'exchange-1' },
        });
      })
      .startTest();
    tokens.set('user1', 'user-token');
    await adapter.send('new team').startTest();
    expect(results).toEqual(['signInSent', 'token']);
    expect(await prod.appToken()).toBe('app-token');
  });

  it('answers Teams SSO token exchanges: 200 when exchanged, 412 so Teams shows the sign-in card otherwise', async () => {
    const tokens = new Map<string, string>();
    const prod = identity();
    const statuses: number[] = [];
    const adapter = adapterWith(tokenService(tokens), async (context) => {
      statuses.push((await prod.handleSignIn(context)).status);
    });
    const invoke = (value: object, name = 'signin/tokenExchange') =>
      adapter.send({ type: 'invoke', name, value } as Partial<Activity>).startTest();
    await invoke({ id: 'exchange-1', connectionName: 'steward-api', token: 'sso-abc' });
    await invoke({ id: 'exchange-2', connectionName: 'steward-api', token: 'not-exchangeable' });
    await invoke({ state: '123456' }, 'signin/verifyState');
    expect(statuses).toEqual([200, 412, 200]);
  });

  it('makes the bot ask for sign-in instead of calling the API, in a dialog-free turn', async () => {
    const storage = new MemoryStorage();
    const reachState = new ReachState(storage);
    const requestState = new RequestState(storage);
    const approvalState = new ApprovalState(storage);
    const welcomeState = new WelcomeState(storage);
    const lifecycleCardState = new LifecycleCardState(storage);
    const client = new StewardClient({ baseUrl: 'http://127.0.0.1:9' });
    const prod = identity();
    const progress = new ProgressTracker({
      client,
      identity: prod,
      requestState,
      messenger: {} as Messenger,
      reads: new JobReads({ client, identity: prod, burst: 1, spacingMs: 100 }),
      pollMs: { initial: 100, max: 100 },
      log: silent,
    });
    const deliveries = new ApproverDeliveries({
      approvalState,
      log: silent,
      timing: { initialMs: 100, maxMs: 100, giveUpAfterMs: 1000 },
    });
    const approvals = new ApprovalConversation({
      client,
      identity: prod,
      approvalState,
      reachState,
      messenger: {} as Messenger,
      progress,
      deliveries,
      log: silent,
    });
    const records = new NoticeRecords(storage);
    const lifecycle = new LifecycleConversation({
      client,
      identity: prod,
      reachState,
      lifecycleCardState,
      records,
      messenger: {} as Messenger,
      log: silent,
    });
    const lifecycleCards = {
      client,
      identity: prod,
      reachState,
      lifecycleCardState,
      messenger: {} as Messenger,
      log: silent,
    };
    const bot = new StewardBot({
      messenger: {} as Messenger,
      client,
      identity: prod,
      reachState,
      requestState,
      welcomeState,
      lifecycleCardState,
      approvals,
      submitter: new RequestSubmitter({ requestState, progress, log: silent }),
      progress,
      deliveries,
      lifecycle,
      records,
      ownerless: new OwnerlessConversation(lifecycleCards),
      guestReviews: new GuestReviewConversation(lifecycleCards),
      joining: new JoiningConversation({ ...lifecycleCards, joinState: new JoinState(storage) }),
      drift: new DriftConversation({ ...lifecycleCards, driftCardState: new DriftCardState(storage) }),
      log: silent,
    });
    const adapter = adapterWith(tokenService(new Map()), (context) => bot.run(context));
    await adapter
      .send('new team')
      .assertReply((activity: Partial<Activity>) =>
        expect(activity.attachments?.[0]?.contentType).toBe('application/vnd.microsoft.card.oauth'),
      )
      .assertReply((activity: Partial<Activity>) => expect(activity.text).toMatch(/sign in/i))
      .send('help')
      .assertReply((activity: Partial<Activity>) =>
        expect(activity.attachments?.[0]?.contentType).toBe('application/vnd.microsoft.card.adaptive'),
      )
      .startTest();
    await client.close();
  });
});
