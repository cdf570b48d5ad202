import { type Activity, MemoryStorage, TestAdapter } from 'botbuilder';
import { StewardClient } from '../../../src/client';
import { ApprovalConversation } from '../../../src/bot/approvals/approvals';
import { ApprovalState } from '../../../src/bot/approvals/approvalState';
import { ApproverDeliveries } from '../../../src/bot/approvals/approverDeliveries';
import type { Reply } from '../../../src/bot/conversations/reply';
import { EmbeddedIdentity } from '../../../src/bot/identity/embeddedIdentity';
import { GuestReviewConversation } from '../../../src/bot/lifecycle/guestReview';
import { LifecycleConversation } from '../../../src/bot/lifecycle/lifecycle';
import { LifecycleCardState } from '../../../src/bot/lifecycle/lifecycleCardState';
import { NoticeRecords } from '../../../src/bot/lifecycle/lifecycleRecords';
import { OwnerlessConversation } from '../../../src/bot/lifecycle/ownerless';
import type { Messenger } from '../../../src/bot/messenger';
import { ReachState } from '../../../src/bot/reachState';
import { JobReads } from '../../../src/bot/requests/jobReads';
import { ProgressTracker } from '../../../src/bot/requests/progress';
import { RequestState } from '../../../src/bot/requests/requestState';
import { RequestSubmitter } from '../../../src/bot/requests/submitRequest';
import { answerUnderstanding, type PeopleResolver } from '../../../src/bot/understanding/answers';
import type { Understanding } from '../../../src/bot/understanding/types';
import type { VerbDependencies } from '../../../src/bot/verbs';
import { WelcomeState } from '../../../src/bot/welcome/welcomeState';
import { JoiningConversation } from '../../../src/bot/joining/joining';
import { JoinState } from '../../../src/bot/joining/joinState';
import { DriftConversation } from '../../../src/bot/drift/drift';
import { DriftCardState } from '../../../src/bot/drift/driftCardState';
import type { TestSteward } from '../../support/steward';
import type { TeamsPerson } from './botHarness';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Nobody to post proactive cards to: these turns only answer. */
const NO_MESSENGER = {} as Messenger;

/**
 * The verb table's dependencies as the bot builds them, over memory storage, calling the test
 * Steward over loopback HTTP as the person behind each turn (tokens minted as the embedded bot
 * mints them). `names` gives each person's display name, as the bot's tokens carry it.
 */
export function verbDependencies(
  steward: TestSteward,
  names: Record<string, string>,
): { deps: VerbDependencies; close(): Promise<void> } {
  const storage = new MemoryStorage();
  const client = new StewardClient({ baseUrl: steward.url });
  const identity = new EmbeddedIdentity({
    forUser: async (id) => (names[id] ? steward.userToken(id, [], { name: names[id] }) : undefined),
    forApp: () => steward.appToken('steward-bot', ['INTEGRATION_MANAGER']),
  });
  const reachState = new ReachState(storage);
  const requestState = new RequestState(storage);
  const welcomeState = new WelcomeState(storage);
  const lifecycleCardState = new LifecycleCardState(storage);
  const records = new NoticeRecords(storage);
  const progress = new ProgressTracker({
    client,
    identity,
    requestState,
    messenger: NO_MESSENGER,
    reads: new JobReads({ client, identity, burst: 1, spacingMs: 100 }),
    pollMs: { initial: 100, max: 100 },
    log: silent,
  });
  const deliveries = new ApproverDeliveries({
    approvalState: new ApprovalState(storage),
    log: silent,
    timing: { initialMs: 100, maxMs: 100, giveUpAfterMs: 1000 },
  });
  const lifecycleCards = {
    client,
    identity,
    reachState,
    lifecycleCardState,
    messenger: NO_MESSENGER,
    log: silent,
  };
  const deps: VerbDependencies = {
    client,
    identity,
    log: silent,
    reachState,
    requestState,
    welcomeState,
    lifecycleCardState,
    records,
    progress,
    approvals: new ApprovalConversation({
      client,
      identity,
      approvalState: new ApprovalState(storage),
      reachState,
      messenger: NO_MESSENGER,
      progress,
      deliveries,
      log: silent,
    }),
    submitter: new RequestSubmitter({ requestState, progress, log: silent }),
    lifecycle: new LifecycleConversation({ ...lifecycleCards, records }),
    ownerless: new OwnerlessConversation(lifecycleCards),
    guestReviews: new GuestReviewConversation(lifecycleCards),
    joining: new JoiningConversation({ ...lifecycleCards, joinState: new JoinState(storage) }),
    drift: new DriftConversation({ ...lifecycleCards, driftCardState: new DriftCardState(storage) }),
  };
  return { deps, close: () => client.close() };
}

/** How a Teams client describes its reader on an activity. */
export interface Locale {
  locale: string;
  localTimezone: string;
}

/**
 * The bot's answer to `understood`, in a turn of botbuilder's own adapter for a message `who`
 * typed in a personal chat, in `locale`.
 */
export async function answerOf(
  deps: VerbDependencies,
  who: TeamsPerson,
  understood: Understanding,
  locale: Locale,
  resolvePeople: PeopleResolver,
): Promise<Reply> {
  let reply: Reply | undefined;
  const adapter = new TestAdapter(
    async (context) => {
      reply = await answerUnderstanding(context, deps, understood, resolvePeople);
    },
    { channelId: 'msteams' },
  );
  await adapter
    .send({
      type: 'message',
      text: 'typed in their own words',
      from: { id: who.teamsId, name: who.name, aadObjectId: who.aadObjectId },
      conversation: { id: who.conversationId, conversationType: 'personal' },
      ...locale,
    } as Partial<Activity>)
    .startTest();
  if (!reply) throw new Error('the turn gave no answer');
  return reply;
}

/** An understanding with nothing in it but `intent` and what `parts` set. */
export function understanding(
  intent: Understanding['intent'],
  parts: Partial<Understanding> = {},
): Understanding {
  return {
    language: 'en',
    intent,
    confidence: 0.9,
    templates: [],
    teamName: null,
    description: null,
    people: [],
    requestFilter: null,
    requestName: null,
    ...parts,
  };
}
