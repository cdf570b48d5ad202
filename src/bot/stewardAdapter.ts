import { randomUUID } from 'node:crypto';
import { type Activity, CloudAdapter, type TurnContext } from 'botbuilder';
import type { BotLog } from './botLog';
import { botFrameworkAuthentication, type BotFrameworkSettings } from './botFrameworkAuthentication';
import { readerOfTurn } from './conversations/reply';
import { say } from './i18n/catalog';

/** CloudAdapter with its activity processing reachable, so the bot reads and answers the HTTP exchange itself. */
export class StewardAdapter extends CloudAdapter {
  /** Authenticates `activity` (against the Bot Framework when an app id is configured) and runs a turn. */
  handle(authorization: string, activity: Activity, logic: (context: TurnContext) => Promise<void>) {
    return this.processActivity(authorization, activity, logic);
  }
}

/** The adapter of `framework`, whose failed turns are logged with an incident id the person is given. */
export function stewardAdapter(framework: BotFrameworkSettings, log: BotLog): StewardAdapter {
  const adapter = new StewardAdapter(botFrameworkAuthentication(framework));
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
  return adapter;
}
