import { MemoryStorage, type StoreItem } from 'botbuilder';
import {
  type ApprovalRecord,
  ApprovalState,
  type PendingDelivery,
} from '../../src/bot/approvals/approvalState';
import {
  type GuestReviewRecord,
  LifecycleCardState,
  type OwnerlessRecord,
} from '../../src/bot/lifecycle/lifecycleCardState';
import { type JoinRecord, JoinState } from '../../src/bot/joining/joinState';
import { ReachState } from '../../src/bot/reachState';
import { type ProgressLocation, RequestState } from '../../src/bot/requests/requestState';
import type { BotStorage } from '../../src/bot/storedItems';
import { WebhookState } from '../../src/bot/webhookState';
import { WelcomeState } from '../../src/bot/welcome/welcomeState';
import { BotStateRepository } from '../../src/store/bot/botState';
import { databaseKinds, suiteStore } from '../support/databases';

/** Each feature's records, all over the one storage, as the bot builds them. */
function statesOver(storage: BotStorage) {
  return {
    reach: new ReachState(storage),
    welcome: new WelcomeState(storage),
    requests: new RequestState(storage),
    approvals: new ApprovalState(storage),
    webhook: new WebhookState(storage),
    cards: new LifecycleCardState(storage),
    joins: new JoinState(storage),
  };
}

/**
 * The bot's records as deployed bots stored them: each key and the shape stored at it. Bots keep
 * this state across upgrades (the database's `bot_state`), so a change of key or shape here would
 * lose people's chats, cards and approvals: these are pinned, and both read and written as they are.
 */
const reference = {
  conversation: { id: 'a:1' },
  serviceUrl: 'http://127.0.0.1:1/',
  channelId: 'msteams',
  user: { id: '29:1', name: 'Ada' },
  bot: { id: '28:bot', name: 'Steward' },
};
const reader = { language: 'fr', locale: 'fr-FR', timeZone: 'Europe/Paris' };
const posted = { reference, activityId: 'act-1' };
const at = '2026-01-02T03:04:05.000Z';

const STORED: Record<string, object> = {
  'users/u1': { reference, teamsUserId: '29:1', name: 'Ada', reader },
  'languages/u1': { language: 'fr' },
  channel: {
    serviceUrl: 'http://127.0.0.1:1/',
    channelId: 'msteams',
    bot: { id: '28:bot', name: 'Steward' },
    tenantId: 'tenant-1',
  },
  'progress/job-1': {
    ...posted,
    requesterId: 'u1',
    pictureUrl: null,
    copies: [{ reference, activityId: 'act-2' }],
    reader,
    unreachableApprovers: ['Bob'],
    retried: true,
  },
  'following/job-1': { since: at },
  'ended/job-1': { at },
  'retried/job-1': { at },
  'deliveries/a1/ap-1': { jobId: 'job-1', approverName: 'Bob', since: at, attempts: 2, nextAt: at },
  'approvals/ap-1': {
    jobId: 'job-1',
    request: {
      approvalId: 'ap-1',
      teamName: 'Sales',
      template: { name: 'Project', pictureUrl: null },
      requester: { name: 'Ada', mail: null },
      approvers: [{ name: 'Bob', teamsUserId: '29:2' }],
      description: 'A team',
      requestedAt: at,
      privacy: 'private',
      owners: ['Ada'],
      members: [],
      stageNotes: ['Stage 1 of 2'],
    },
    cards: { a1: posted },
    decision: { outcome: 'approved', by: 'Bob', at, message: null },
  },
  'forms/u1/form-1': { jobId: 'job-1' },
  'welcomed/c1': { at },
  webhook: { url: 'http://127.0.0.1:1/api/notifications', secret: 'not-a-real-secret', hookId: 'h1' },
  'ownerless/ask/2026-01-01/team-1': {
    teamId: 'team-1',
    teamName: 'Sales',
    since: '2026-01-01',
    kind: 'ask',
    someOwners: false,
    teamUrl: null,
    cards: { u1: posted },
    steppedUp: null,
  },
  'guestReviews/2026-01-01/team-1': {
    teamId: 'team-1',
    teamName: 'Sales',
    dueOn: '2026-01-01',
    guests: [{ id: 'g1', name: 'Guest' }],
    teamUrl: null,
    cards: { u1: posted },
    review: null,
  },
  'joinRequests/jr-1': {
    joinRequestId: 'jr-1',
    team: { id: 'team-1', name: 'Sales', webUrl: null },
    requester: { id: 'u2', name: 'Bob' },
    message: 'May I join?',
    direct: false,
    cards: { u1: posted },
    decision: { approved: true, byId: 'u1', by: 'Ada', comment: null },
    told: { decided: true },
  },
  'lifecycleDeliveries/u1/ownerless/ask/2026-01-01/team-1': { record: 'ownerless/ask/2026-01-01/team-1' },
  'cardPostings/ownerless/ask/2026-01-01/team-1/u1': { personId: 'u1' },
};

/** The records a marker holds (a time of its own making), as they are compared. */
const MARKERS = ['following/job-1', 'ended/job-1', 'retried/job-1', 'welcomed/c1'];

const KEYS = Object.keys(STORED);
const stored = <T>(key: string) => STORED[key] as T;

async function rawRead(storage: BotStorage): Promise<Record<string, object>> {
  const items = await storage.read(KEYS);
  return Object.fromEntries(
    Object.entries(items).map(([key, item]) => {
      const { eTag: _eTag, ...value } = item as StoreItem;
      return [key, value];
    }),
  );
}

function expectStoredShapes(found: Record<string, object>, keys: readonly string[]) {
  expect(Object.keys(found).sort()).toEqual([...keys].sort());
  for (const key of keys) {
    expect(found[key]).toEqual(
      MARKERS.includes(key)
        ? Object.fromEntries(Object.keys(STORED[key]!).map((k) => [k, expect.any(String)]))
        : STORED[key],
    );
  }
}

const kinds = ['memory', ...databaseKinds] as const;

describe.each(kinds)('the bot state keeps its keys and shapes (%s)', (kind) => {
  const suite = kind === 'memory' ? undefined : suiteStore(kind);
  let storage: BotStorage;
  beforeEach(async () => {
    storage = suite ? new BotStateRepository(suite.store().db) : new MemoryStorage();
    await storage.delete(KEYS);
  });
  const lists = () => kind !== 'memory';

  it('reads every record a bot stored before, at its key', async () => {
    await storage.write(Object.fromEntries(KEYS.map((key) => [key, { ...STORED[key], eTag: '*' }])));
    const { reach, welcome, requests, approvals, webhook, cards, joins } = statesOver(storage);

    expect(await reach.user('u1')).toEqual(STORED['users/u1']);
    expect(await joins.join('jr-1')).toEqual(STORED['joinRequests/jr-1']);
    expect(await welcome.language('u1')).toBe('fr');
    expect(await reach.channel()).toEqual(STORED.channel);
    expect(await requests.progress('job-1')).toEqual(STORED['progress/job-1']);
    expect(await requests.unfinishedJobs()).toEqual(lists() ? ['job-1'] : []);
    expect(await requests.claimEndNotice('job-1')).toBe(false);
    expect(await requests.claimRetry('job-1')).toBe(false);
    expect(await approvals.pendingDelivery('a1', 'ap-1')).toEqual(STORED['deliveries/a1/ap-1']);
    expect(await approvals.pendingDeliveries()).toEqual(lists() ? [['a1', 'ap-1']] : []);
    expect(await approvals.pendingDeliveries('a1')).toEqual(lists() ? [['a1', 'ap-1']] : []);
    expect(await approvals.approval('ap-1')).toEqual(STORED['approvals/ap-1']);
    expect(await requests.form('u1', 'form-1')).toEqual(STORED['forms/u1/form-1']);
    expect(await welcome.markWelcomed('c1')).toBe(false);
    expect(await webhook.webhook()).toEqual(STORED.webhook);
    expect(await webhook.createWebhook({ url: 'x', secret: 'y', hookId: null })).toBe(false);
    expect(await cards.ownerless('ask', '2026-01-01', 'team-1')).toEqual(
      STORED['ownerless/ask/2026-01-01/team-1'],
    );
    expect(await cards.guestReview('2026-01-01', 'team-1')).toEqual(STORED['guestReviews/2026-01-01/team-1']);
    expect(await cards.undeliveredCards('u1')).toEqual(lists() ? ['ownerless/ask/2026-01-01/team-1'] : []);
    expect(await cards.claimCard('ownerless/ask/2026-01-01/team-1', 'u1')).toBe(false);
    // Nothing read was written over.
    expectStoredShapes(await rawRead(storage), KEYS);
  });

  it('writes every record at the key and in the shape a bot stored before', async () => {
    const { reach, welcome, requests, approvals, webhook, cards, joins } = statesOver(storage);
    await reach.saveUser('u1', stored('users/u1'));
    await joins.update('jr-1', () => stored<JoinRecord>('joinRequests/jr-1'));
    await welcome.saveLanguage('u1', 'fr');
    await reach.saveChannel(stored('channel'));
    await requests.saveProgress('job-1', stored<ProgressLocation>('progress/job-1'));
    await requests.markUnfinished('job-1');
    expect(await requests.claimEndNotice('job-1')).toBe(true);
    expect(await requests.claimRetry('job-1')).toBe(true);
    await approvals.savePendingDelivery('a1', 'ap-1', stored<PendingDelivery>('deliveries/a1/ap-1'));
    await approvals.saveApproval('ap-1', stored<ApprovalRecord>('approvals/ap-1'));
    await requests.saveForm('u1', 'form-1', { jobId: 'job-1' });
    expect(await welcome.markWelcomed('c1')).toBe(true);
    expect(await webhook.createWebhook(stored('webhook'))).toBe(true);
    await cards.updateOwnerless('ask', '2026-01-01', 'team-1', () =>
      stored<OwnerlessRecord>('ownerless/ask/2026-01-01/team-1'),
    );
    await cards.updateGuestReview('2026-01-01', 'team-1', () =>
      stored<GuestReviewRecord>('guestReviews/2026-01-01/team-1'),
    );
    await cards.noteUndeliveredCard('u1', 'ownerless/ask/2026-01-01/team-1');
    expect(await cards.claimCard('ownerless/ask/2026-01-01/team-1', 'u1')).toBe(true);
    expectStoredShapes(await rawRead(storage), KEYS);

    // What is forgotten is removed from its key, the rest kept.
    await welcome.saveLanguage('u1', null);
    await requests.markFinished('job-1');
    await requests.releaseRetry('job-1');
    await approvals.deletePendingDelivery('a1', 'ap-1');
    await cards.forgetUndeliveredCard('u1', 'ownerless/ask/2026-01-01/team-1');
    await cards.releaseCard('ownerless/ask/2026-01-01/team-1', 'u1');
    const forgotten = [
      'languages/u1',
      'following/job-1',
      'retried/job-1',
      'deliveries/a1/ap-1',
      'lifecycleDeliveries/u1/ownerless/ask/2026-01-01/team-1',
      'cardPostings/ownerless/ask/2026-01-01/team-1/u1',
    ];
    expectStoredShapes(
      await rawRead(storage),
      KEYS.filter((key) => !forgotten.includes(key)),
    );
  });
});
