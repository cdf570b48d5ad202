import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Activity, CloudAdapter, type TurnContext } from 'botbuilder';
import type { StewardClient } from '../client';
import { backoffMs } from '../lib/backoff';
import {
  ApproverDeliveries,
  DEFAULT_GIVE_UP_AFTER_MS,
  type DeliveryRetryTiming,
} from './approvals/approverDeliveries';
import type { BotLog } from './botLog';
import { botFrameworkAuthentication, type BotFrameworkSettings } from './botFrameworkAuthentication';
import { ApprovalConversation } from './approvals/approvals';
import { ApprovalState } from './approvals/approvalState';
import { JoiningConversation } from './joining/joining';
import { JoinState } from './joining/joinState';
import { LifecycleConversation } from './lifecycle/lifecycle';
import { LifecycleCardState } from './lifecycle/lifecycleCardState';
import { NoticeRecords } from './lifecycle/lifecycleRecords';
import { GuestReviewConversation } from './lifecycle/guestReview';
import { OwnerlessConversation } from './lifecycle/ownerless';
import { DriftConversation } from './drift/drift';
import { DriftCardState } from './drift/driftCardState';
import { ProgressTracker } from './requests/progress';
import { RequestState } from './requests/requestState';
import { readerOfTurn } from './conversations/reply';
import { say } from './i18n/catalog';
import { RequestSubmitter } from './requests/submitRequest';
import { activityProblem } from './activityRules';
import { answer, answerTimeout, BodyTimeout, BodyTooLarge, errorBody, readRawBody } from './httpEndpoints';
import type { BotIdentity } from './identity/botIdentity';
import { JobReads } from './requests/jobReads';
import { Messenger } from './messenger';
import { Notifications } from './notifications';
import { ReachState } from './reachState';
import { StewardBot } from './stewardBot';
import type { BotStorage } from './storedItems';
import { WebhookState } from './webhookState';
import { WelcomeState } from './welcome/welcomeState';

export type { BotIdentity, CallerToken, EmbeddedTokens } from './identity/botIdentity';
export { EmbeddedIdentity } from './identity/embeddedIdentity';
export { ProductionIdentity, type ProductionIdentityOptions } from './identity/productionIdentity';
export { NOTIFICATIONS_PATH, signatureMatches } from './notifications';
export type { BotLog } from './botLog';
export { botFrameworkAuthentication, type BotFrameworkSettings } from './botFrameworkAuthentication';

/**
 * The reads of jobs the bot makes for one person: 5 at once, then one every 3 s, so at most 25 calls
 * in any minute on their behalf (20 a minute when it lasts), well inside the 60 their tier allows,
 * however many of their requests are open.
 */
export const PERSON_READS = { burst: 5, spacingMs: 3000 } as const;

/** The paths the bot answers on, under the server's root. */
export const MESSAGES_PATH = '/api/messages';

/** Everything the bot is made of; `main.ts` builds it. */
export interface StewardBotOptions {
  /** The API client (its base URL is the API the bot calls). */
  client: StewardClient;
  identity: BotIdentity;
  /** Bot state and conversation references: the database in production. */
  storage: BotStorage;
  log: BotLog;
  /** The Bot Framework registration; with no app id the adapter accepts local, unauthenticated traffic only. */
  botFramework: BotFrameworkSettings;
  /** Polling of jobs with no news: first wait and longest wait, ms. */
  pollMs: { initial: number; max: number };
  /** Retries of approval cards that could not be delivered (default: from `pollMs.max`, up to a day). */
  deliveryRetry?: DeliveryRetryTiming;
  /** Register the webhook at start-up (default true); without it, polling alone moves the cards. */
  webhook?: boolean;
  /**
   * Whether an activity's `serviceUrl` is one the bot may answer to (its replies, and later its
   * proactive cards, are posted there with the bot's token); default: any.
   */
  acceptsServiceUrl?: (serviceUrl: string) => boolean;
  /** How long a request body may take to arrive before it is answered 408 (`STEWARD_BODY_TIMEOUT_MS`). */
  bodyTimeoutMs: number;
}

/** The running bot: its two HTTP endpoints, and its start and stop. */
export interface StewardBotRuntime {
  /** `POST /api/messages`: activities from the Bot Connector (or a local channel). */
  handleMessages(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** `POST /api/notifications`: Steward's webhook deliveries. */
  handleNotifications(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /**
   * Follows again the requests left unfinished by an earlier run, and registers the webhook for
   * deliveries to `publicUrl` (retried in the background until it works).
   */
  start(publicUrl: string): Promise<void>;
  /** Stops polling and retries; resolves when nothing is running. */
  stop(): Promise<void>;
}

/** Builds the Steward bot: the CloudAdapter, the activity handler and the webhook receiver. */
export function createStewardBot(options: StewardBotOptions): StewardBotRuntime {
  const { client, identity, log } = options;
  const framework = options.botFramework;
  const adapter = new StewardAdapter(botFrameworkAuthentication(framework));
  // The bot's records, each feature's over the one storage, under keys of its own.
  const { storage } = options;
  const reachState = new ReachState(storage);
  const requestState = new RequestState(storage);
  const approvalState = new ApprovalState(storage);
  const welcomeState = new WelcomeState(storage);
  const webhookState = new WebhookState(storage);
  const lifecycleCardState = new LifecycleCardState(storage);
  const records = new NoticeRecords(storage);
  const messenger = new Messenger(adapter, framework.appId ?? '', reachState);
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
  const ownerless = new OwnerlessConversation(lifecycleCards);
  const guestReviews = new GuestReviewConversation(lifecycleCards);
  const joining = new JoiningConversation({ ...lifecycleCards, joinState: new JoinState(storage) });
  const drift = new DriftConversation({ ...lifecycleCards, driftCardState: new DriftCardState(storage) });
  const notifications = new Notifications({
    client,
    identity,
    webhookState,
    approvals,
    progress,
    lifecycle,
    ownerless,
    guestReviews,
    joining,
    drift,
    log,
  });
  const bot = new StewardBot({
    client,
    identity,
    reachState,
    requestState,
    welcomeState,
    lifecycleCardState,
    approvals,
    submitter,
    progress,
    deliveries,
    lifecycle,
    records,
    ownerless,
    guestReviews,
    joining,
    drift,
    log,
  });

  adapter.onTurnError = async (context, error) => {
    const incident = randomUUID();
    log.error({ err: error, incident, activity: context.activity.type }, 'a bot turn failed');
    // Only a person's own message gets the apology: a proactive turn (a card posted to an approver,
    // a card updated) runs in someone else's chat, and an invoke answers with its own card.
    if (context.activity.type !== 'message') return;
    await context
      .sendActivity(say(readerOfTurn(context), 'error.turn', { id: incident }))
      .catch(() => undefined);
  };

  let retry: NodeJS.Timeout | undefined;
  let stopped = false;
  const register = async (publicUrl: string, delay: number): Promise<void> => {
    try {
      await notifications.register(publicUrl);
    } catch (error) {
      log.warn({ err: error, retryInMs: delay }, 'could not register the bot webhook; polling meanwhile');
      if (stopped) return;
      retry = setTimeout(
        () => void register(publicUrl, backoffMs({ baseMs: delay, capMs: 300_000 }, 1)),
        delay,
      );
      retry.unref();
    }
  };

  return {
    async handleMessages(req, res) {
      let activity: Activity;
      try {
        const parsed: unknown = JSON.parse((await readRawBody(req, options.bodyTimeoutMs)).toString('utf8'));
        const problem = activityProblem(parsed);
        if (problem) {
          answer(res, 400, errorBody('invalidActivity', problem));
          return;
        }
        activity = parsed as Activity;
      } catch (error) {
        if (error instanceof BodyTooLarge)
          answer(res, 413, errorBody('payloadTooLarge', 'The body is too large.'));
        else if (error instanceof BodyTimeout) answerTimeout(res, error);
        else answer(res, 400, errorBody('invalidJson', 'The body is not JSON.'));
        return;
      }
      if (options.acceptsServiceUrl && !options.acceptsServiceUrl(activity.serviceUrl)) {
        log.warn({ activity: activity.type }, 'an activity named a service URL the bot does not answer to');
        answer(
          res,
          400,
          errorBody(
            'untrustedServiceUrl',
            "The activity's serviceUrl is not a Bot Connector this bot answers to.",
          ),
        );
        return;
      }
      try {
        const authorization = String(req.headers.authorization ?? '');
        const invoke = await adapter.handle(authorization, activity, (context) => bot.run(context));
        answer(res, invoke?.status ?? 200, invoke?.body);
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode === 401 ? 401 : 400;
        if (status !== 401) log.warn({ err: error }, 'an activity could not be processed');
        answer(res, status, errorBody(status === 401 ? 'unauthorized' : 'invalidActivity', 'Not processed.'));
      }
    },

    async handleNotifications(req, res) {
      let body: Buffer;
      try {
        body = await readRawBody(req, options.bodyTimeoutMs);
      } catch (error) {
        if (error instanceof BodyTimeout) answerTimeout(res, error);
        else answer(res, 413, errorBody('payloadTooLarge', 'The body is too large.'));
        return;
      }
      const header = (name: string) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const status = await notifications.receive({
        body,
        signature: header('x-steward-signature'),
        event: header('x-steward-event'),
        deliveryId: header('x-steward-delivery'),
      });
      answer(
        res,
        status,
        status === 401 ? errorBody('invalidSignature', 'The signature does not match.') : undefined,
      );
    },

    async start(publicUrl) {
      // Two independent take-ups: a store that fails one still lets the other run.
      try {
        const resumed = await progress.resume();
        if (resumed > 0) log.info({ requests: resumed }, 'following unfinished requests again');
      } catch (error) {
        log.warn(
          { err: error },
          'could not read the unfinished requests; their cards move on deliveries only',
        );
      }
      try {
        const undelivered = await deliveries.resume();
        if (undelivered > 0) log.info({ cards: undelivered }, 'retrying undelivered approval cards');
      } catch (error) {
        log.warn(
          { err: error },
          'could not read the undelivered approval cards; each is tried when its approver talks to the bot',
        );
      }
      if (options.webhook === false) return;
      await register(publicUrl, options.pollMs.max);
    },

    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      deliveries.stop();
      reads.stop();
      await progress.stop();
    },
  };
}

/** CloudAdapter with its activity processing reachable, so the bot reads and answers the HTTP exchange itself. */
class StewardAdapter extends CloudAdapter {
  /** Authenticates `activity` (against the Bot Framework when an app id is configured) and runs a turn. */
  handle(authorization: string, activity: Activity, logic: (context: TurnContext) => Promise<void>) {
    return this.processActivity(authorization, activity, logic);
  }
}
