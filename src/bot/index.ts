import { backoffMs } from '../lib/backoff';
import type { BotLog } from './botLog';
import { messagesEndpoint, notificationsEndpoint } from './botEndpoints';
import type { StewardBotOptions, StewardBotRuntime } from './botOptions';
import { botParts } from './botParts';
import type { Notifications } from './notifications';
import { stewardAdapter } from './stewardAdapter';

export type { BotIdentity, CallerToken, EmbeddedTokens } from './shared/botIdentity';
export { EmbeddedIdentity } from './identity/embeddedIdentity';
export { ProductionIdentity, type ProductionIdentityOptions } from './identity/productionIdentity';
export { NOTIFICATIONS_PATH, signatureMatches } from './notifications';
export type { BotLog } from './botLog';
export { botFrameworkAuthentication, type BotFrameworkSettings } from './botFrameworkAuthentication';
export { MESSAGES_PATH, PERSON_READS, type StewardBotOptions, type StewardBotRuntime } from './botOptions';

/**
 * Builds the Steward bot: the CloudAdapter (`stewardAdapter.ts`), the features and the activity
 * handler (`botParts.ts`), the two HTTP endpoints (`botEndpoints.ts`), and its start and stop.
 */
export function createStewardBot(options: StewardBotOptions): StewardBotRuntime {
  const { log } = options;
  const adapter = stewardAdapter(options.botFramework, log);
  const { progress, deliveries, reads, notifications, bot } = botParts(options, adapter);
  const webhook = webhookRegistration(notifications, log);
  return {
    handleMessages: messagesEndpoint(options, adapter, bot),
    handleNotifications: notificationsEndpoint(options, notifications),

    async start(publicUrl) {
      await resumeUnfinished(progress, deliveries, log);
      if (options.webhook === false) return;
      await webhook.register(publicUrl, options.pollMs.max);
    },

    async stop() {
      webhook.stop();
      deliveries.stop();
      reads.stop();
      await progress.stop();
    },
  };
}

/**
 * Takes up what an earlier run left: the requests it followed and the approval cards it had not
 * delivered. Two independent take-ups: a store that fails one still lets the other run.
 */
async function resumeUnfinished(
  progress: { resume(): Promise<number> },
  deliveries: { resume(): Promise<number> },
  log: BotLog,
): Promise<void> {
  try {
    const resumed = await progress.resume();
    if (resumed > 0) log.info({ requests: resumed }, 'following unfinished requests again');
  } catch (error) {
    log.warn({ err: error }, 'could not read the unfinished requests; their cards move on deliveries only');
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
}

/** The webhook's registration, retried in the background (with backoff) until it works or the bot stops. */
function webhookRegistration(notifications: Pick<Notifications, 'register'>, log: BotLog) {
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
    register,
    stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
    },
  };
}
