import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StewardClient } from '../client';
import type { DeliveryRetryTiming } from './approvals/approverDeliveries';
import type { BotLog } from './botLog';
import type { BotFrameworkSettings } from './botFrameworkAuthentication';
import type { BotIdentity } from './shared/botIdentity';
import type { BotStorage } from './storedItems';

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
