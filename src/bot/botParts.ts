import { ApproverDeliveries, DEFAULT_GIVE_UP_AFTER_MS } from './approvals/approverDeliveries';
import { ApprovalConversation } from './approvals/approvals';
import { ApprovalState } from './approvals/approvalState';
import type { StewardBotOptions } from './botOptions';
import { DriftConversation } from './drift/drift';
import { DriftCardState } from './drift/driftCardState';
import { JoiningConversation } from './joining/joining';
import { JoinState } from './joining/joinState';
import { GuestReviewConversation } from './lifecycle/guestReview';
import { LifecycleConversation } from './lifecycle/lifecycle';
import { LifecycleCardState } from './lifecycle/lifecycleCardState';
import { NoticeRecords } from './lifecycle/lifecycleRecords';
import { OwnerlessConversation } from './lifecycle/ownerless';
import { Messenger } from './messenger';
import { Notifications } from './notifications';
import { ReachState } from './reachState';
import { JobReads } from './requests/jobReads';
import { ProgressTracker } from './requests/progress';
import { RequestState } from './requests/requestState';
import { RequestSubmitter } from './requests/submitRequest';
import type { StewardAdapter } from './stewardAdapter';
import { StewardBot } from './stewardBot';
import { PERSON_READS } from './botOptions';
import { WebhookState } from './webhookState';
import { WelcomeState } from './welcome/welcomeState';

/** The parts every feature is built from: the options, the records' storage and the messenger. */
type Base = Pick<StewardBotOptions, 'client' | 'identity' | 'log' | 'storage'> & {
  reachState: ReachState;
  messenger: Messenger;
};

/** Team requests and their approvals: progress cards, approvers' cards and their retries. */
function requestParts(base: Base, options: StewardBotOptions) {
  const { client, identity, log, storage, reachState, messenger } = base;
  const requestState = new RequestState(storage);
  const approvalState = new ApprovalState(storage);
  const reads = new JobReads({ client, identity, ...PERSON_READS });
  const progress = new ProgressTracker({
    client,
    identity,
    requestState,
    messenger,
    reads,
    pollMs: options.pollMs,
    log,
  });
  const deliveries = new ApproverDeliveries({
    approvalState,
    log,
    timing: options.deliveryRetry ?? {
      initialMs: options.pollMs.max,
      maxMs: Math.max(options.pollMs.max, 30 * 60 * 1000),
      giveUpAfterMs: DEFAULT_GIVE_UP_AFTER_MS,
    },
  });
  const approvals = new ApprovalConversation({
    client,
    identity,
    approvalState,
    reachState,
    messenger,
    progress,
    deliveries,
    log,
  });
  deliveries.use((approvalId, jobId) => approvals.announce(approvalId, jobId));
  const submitter = new RequestSubmitter({ requestState, progress, log });
  return { requestState, reads, progress, deliveries, approvals, submitter };
}

/** Teams' lifecycle, joining and drift: the cards posted to owners and members about a team. */
function teamParts(base: Base) {
  const { client, identity, log, storage, reachState, messenger } = base;
  const lifecycleCardState = new LifecycleCardState(storage);
  const records = new NoticeRecords(storage);
  const lifecycle = new LifecycleConversation({
    client,
    identity,
    reachState,
    lifecycleCardState,
    records,
    messenger,
    log,
  });
  const lifecycleCards = { client, identity, reachState, lifecycleCardState, messenger, log };
  return {
    lifecycleCardState,
    records,
    lifecycle,
    ownerless: new OwnerlessConversation(lifecycleCards),
    guestReviews: new GuestReviewConversation(lifecycleCards),
    joining: new JoiningConversation({ ...lifecycleCards, joinState: new JoinState(storage) }),
    drift: new DriftConversation({ ...lifecycleCards, driftCardState: new DriftCardState(storage) }),
  };
}

/**
 * The bot's parts over `adapter`: each feature's records over the one storage (under keys of its
 * own), its conversations, the webhook's receiver, and the activity handler that runs the turns.
 */
export function botParts(options: StewardBotOptions, adapter: StewardAdapter) {
  const { client, identity, log, storage } = options;
  const reachState = new ReachState(storage);
  const messenger = new Messenger(adapter, options.botFramework.appId ?? '', reachState);
  const base: Base = { client, identity, log, storage, reachState, messenger };
  const requests = requestParts(base, options);
  const teams = teamParts(base);
  const notifications = new Notifications({
    client,
    identity,
    webhookState: new WebhookState(storage),
    approvals: requests.approvals,
    progress: requests.progress,
    lifecycle: teams.lifecycle,
    ownerless: teams.ownerless,
    guestReviews: teams.guestReviews,
    joining: teams.joining,
    drift: teams.drift,
    log,
  });
  const bot = new StewardBot({
    client,
    identity,
    reachState,
    messenger,
    welcomeState: new WelcomeState(storage),
    ...requests,
    ...teams,
    log,
  });
  return { ...requests, notifications, bot };
}
