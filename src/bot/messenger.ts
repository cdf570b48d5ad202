import {
  type Activity,
  type CloudAdapter,
  type ConversationParameters,
  type ConversationReference,
  MessageFactory,
  TurnContext,
} from 'botbuilder';
import type { AdaptiveCardAttachment } from './cards/adaptiveCard';
import type { ReachState } from './reachState';

/** A message the bot posted and may update in place. */
export interface PostedCard {
  reference: Partial<ConversationReference>;
  activityId: string;
}

/** The audience of tokens for the Bot Connector in the public cloud. */
const CONNECTOR_AUDIENCE = 'https://api.botframework.com';

/** A card as a message activity. */
export function cardMessage(card: AdaptiveCardAttachment): Partial<Activity> {
  return MessageFactory.attachment(card);
}

type TurnLogic = (context: TurnContext) => Promise<void>;

/**
 * Runs a proactive turn so that its failure reaches the caller, who knows what it was for, instead
 * of the adapter's turn-error handler, which would log it as a failed turn of someone's chat.
 */
async function reporting(start: (logic: TurnLogic) => Promise<void>, logic: TurnLogic): Promise<void> {
  let failure: { error: unknown } | undefined;
  await start(async (context) => {
    try {
      await logic(context);
    } catch (error) {
      failure = { error };
    }
  });
  if (failure) throw failure.error;
}

/**
 * Proactive messages: posts and updates cards in conversations outside the current turn, from the
 * references kept in the bot state, so any bot process can do it after a restart.
 */
export class Messenger {
  constructor(
    private readonly adapter: CloudAdapter,
    private readonly appId: string,
    private readonly reachState: ReachState,
  ) {}

  /** Posts `card` into the conversation of `reference`; resolves to where it was posted. */
  async post(reference: Partial<ConversationReference>, card: AdaptiveCardAttachment): Promise<PostedCard> {
    let activityId = '';
    await reporting(
      (logic) => this.adapter.continueConversationAsync(this.appId, reference, logic),
      async (context) => {
        activityId = (await context.sendActivity(cardMessage(card)))?.id ?? '';
      },
    );
    return { reference, activityId };
  }

  /** Posts a short text into the conversation of `reference` (a nudge: an updated card notifies nobody). */
  async say(reference: Partial<ConversationReference>, text: string): Promise<void> {
    await reporting(
      (logic) => this.adapter.continueConversationAsync(this.appId, reference, logic),
      async (context) => {
        await context.sendActivity({ type: 'message', text, textFormat: 'plain' });
      },
    );
  }

  /**
   * Runs `logic` in a turn of the bot's own for `activity`, a message received earlier: its context
   * holds that activity, and its replies go to that conversation (a message answered later).
   */
  async continueTurn(activity: Activity, logic: TurnLogic): Promise<void> {
    const reference = TurnContext.getConversationReference(activity);
    await reporting(
      (start) => this.adapter.continueConversationAsync(this.appId, reference, start),
      async (context) => {
        const turn = new TurnContext(context.adapter, activity);
        context.turnState.forEach((value, key) => turn.turnState.set(key, value));
        await logic(turn);
      },
    );
  }

  /** Replaces the card of an earlier message with `card`. */
  async update(posted: PostedCard, card: AdaptiveCardAttachment): Promise<void> {
    await reporting(
      (logic) => this.adapter.continueConversationAsync(this.appId, posted.reference, logic),
      async (context) => {
        await context.updateActivity({ ...cardMessage(card), id: posted.activityId, type: 'message' });
      },
    );
  }

  /**
   * Posts `card` to a person in their 1:1 chat with the bot: the stored conversation when they have
   * talked to the bot, else a new conversation through the channel the bot was last reached on.
   * Resolves to undefined when the bot has no way to reach them yet.
   */
  async postToPerson(aadObjectId: string, card: AdaptiveCardAttachment): Promise<PostedCard | undefined> {
    const known = await this.reachState.user(aadObjectId);
    if (known) return this.post(known.reference, card);
    const home = await this.reachState.channel();
    if (!home) return undefined;
    let posted: PostedCard | undefined;
    const parameters: ConversationParameters = {
      isGroup: false,
      bot: home.bot,
      members: [{ id: `8:orgid:${aadObjectId}`, aadObjectId, name: '' }],
      tenantId: home.tenantId ?? undefined,
      channelData: home.tenantId ? { tenant: { id: home.tenantId } } : undefined,
    };
    await reporting(
      (logic) =>
        this.adapter.createConversationAsync(
          this.appId,
          home.channelId,
          home.serviceUrl,
          CONNECTOR_AUDIENCE,
          parameters,
          logic,
        ),
      async (context) => {
        const reference = TurnContext.getConversationReference(context.activity);
        const activityId = (await context.sendActivity(cardMessage(card)))?.id ?? '';
        posted = { reference, activityId };
        await this.reachState.saveUser(aadObjectId, { reference, teamsUserId: '', name: '' });
      },
    );
    return posted;
  }
}
