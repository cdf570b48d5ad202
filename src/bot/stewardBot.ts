import {
  type AdaptiveCardInvokeResponse,
  type AdaptiveCardInvokeValue,
  type InvokeResponse,
  MessageFactory,
  type SearchInvokeResponse,
  type SearchInvokeValue,
  TeamsActivityHandler,
  type TurnContext,
  TurnContext as Turn,
} from 'botbuilder';
import type { Job } from '../client';
import type { ApproverDeliveries } from './approvals/approverDeliveries';
import { asCaller, failureReply, readerOfTurn, type Reply } from './conversations/reply';
import { chargedOnce } from './conversations/turnCharge';
import { searchPeople } from './requests/requestTeam';
import { welcome } from './welcome/welcome';
import { resolveReader } from './welcome/language';
import { say } from './i18n/catalog';
import type { BotIdentity } from './shared/botIdentity';
import { textCommand } from './textCommands';
import type { Messenger } from './messenger';
import { AnswerLater } from './conversations/answerLater';
import { answerTyped } from './understanding/typed';
import { INVOKE_FAILURE, PEOPLE_SEARCH_FAILURE, runVerb, type VerbDependencies } from './verbs';
import { rememberWhereReached } from './whereReached';

/** The parts the bot's turns use. */
export interface StewardBotDependencies extends VerbDependencies {
  identity: BotIdentity;
  deliveries: ApproverDeliveries;
  /** Answers a typed message later, in a turn of the bot's own, when the rate limit holds it. */
  messenger: Pick<Messenger, 'continueTurn'>;
}

/**
 * Steward in Teams: typed commands (`textCommands.ts`) and the cards' Universal Actions
 * (`adaptiveCard/action`), both run through the verb table (`verbs.ts`); the people picker's
 * search, the welcome on install, and sign-in invokes. Every turn first remembers where the person
 * is reached (`whereReached.ts`).
 */
export class StewardBot extends TeamsActivityHandler {
  constructor(private readonly deps: StewardBotDependencies) {
    super();
    this.onMessage(async (context, next) => {
      await this.answerText(context);
      await next();
    });
    this.onMembersAdded(async (context, next) => {
      const added = context.activity.membersAdded ?? [];
      if (added.some((member) => member.id === context.activity.recipient?.id))
        await welcome(context, deps.welcomeState, deps.identity);
      await next();
    });
    this.onInstallationUpdateAdd(async (context, next) => {
      await welcome(context, deps.welcomeState, deps.identity);
      await next();
    });
  }

  /** Remembers the person's conversation and Teams id, then runs the turn. */
  protected override async onTurnActivity(context: TurnContext): Promise<void> {
    const reader = await resolveReader(context, this.deps.welcomeState);
    await rememberWhereReached(context, this.deps, reader);
    await super.onTurnActivity(context);
  }

  /** Sign-in invokes go to the identity; everything else to the handler's routing. */
  protected override async onInvokeActivity(context: TurnContext): Promise<InvokeResponse> {
    const name = context.activity.name ?? '';
    if (name === 'signin/tokenExchange' || name === 'signin/verifyState')
      return this.deps.identity.handleSignIn(context);
    const value = context.activity.value as { action?: unknown } | undefined;
    if (
      name === 'adaptiveCard/action' &&
      (!value || typeof value.action !== 'object' || value.action === null)
    ) {
      return { status: 400, body: { statusCode: 400, type: 'application/vnd.microsoft.error', value: {} } };
    }
    try {
      return await super.onInvokeActivity(context);
    } catch (error) {
      const reply = failureReply(error, INVOKE_FAILURE, this.deps.log, readerOfTurn(context));
      const card = reply.kind === 'card' ? reply.card.content : {};
      return {
        status: 200,
        body: { statusCode: 200, type: 'application/vnd.microsoft.card.adaptive', value: card },
      };
    }
  }

  /** A card's `Action.Execute`: runs the verb and answers with a card in place or a new message. */
  protected override async onAdaptiveCardInvoke(
    context: TurnContext,
    invoke: AdaptiveCardInvokeValue,
  ): Promise<AdaptiveCardInvokeResponse> {
    const reply = await this.runVerb(context, invoke.action.verb, (invoke.action.data ?? {}) as object);
    if (reply.kind === 'card' && reply.inPlace) {
      const pressed = context.activity.replyToId;
      if (reply.shows && pressed) await this.follow(context, reply.shows, pressed);
      return { statusCode: 200, type: 'application/vnd.microsoft.card.adaptive', value: reply.card.content };
    }
    // A refresh Teams makes by itself as a card is opened never posts a message in the chat.
    if ((context.activity.value as { trigger?: unknown }).trigger !== 'automatic')
      await this.send(context, reply);
    const text = reply.kind === 'text' ? reply.text : say(readerOfTurn(context), 'talk.done');
    return {
      statusCode: 200,
      type: 'application/vnd.microsoft.activity.message',
      value: text as unknown as Record<string, unknown>,
    };
  }

  /** The people pickers' `Data.Query` search (dataset `users`). */
  protected override async onSearchInvoke(
    context: TurnContext,
    invoke: SearchInvokeValue,
  ): Promise<SearchInvokeResponse> {
    let results: Array<{ title: string; value: string }> = [];
    if (invoke.dataset === 'users') {
      await asCaller(context, chargedOnce(context, this.deps), PEOPLE_SEARCH_FAILURE, async (api) => {
        results = await searchPeople(api, invoke.queryText ?? '');
        return { kind: 'text', text: '' };
      });
    }
    return { statusCode: 200, type: 'application/vnd.microsoft.search.searchResponse', value: { results } };
  }

  private async answerText(context: TurnContext): Promise<void> {
    const activity = context.activity;
    // A card's Action.Submit (older clients) arrives as a message with a value and no text.
    if (!activity.text && activity.value && typeof activity.value === 'object') {
      const { verb, ...data } = activity.value as { verb?: unknown };
      await this.send(context, await this.runVerb(context, typeof verb === 'string' ? verb : '', data));
      return;
    }
    const text = Turn.removeRecipientMention(activity)?.trim() ?? activity.text?.trim() ?? '';
    const command = textCommand(context, text);
    if ('ownWords' in command) {
      const reply = await this.answerOwnWords(context, command.ownWords);
      if (reply) await this.send(context, reply);
    } else
      await this.send(
        context,
        'reply' in command ? command.reply : await this.runVerb(context, command.verb, command.data, true),
      );
  }

  /**
   * A message in the person's own words; a failure is the error card, as for a card's verb. One the
   * rate limit holds longer than a turn may is answered later (undefined: nothing to send now).
   */
  private async answerOwnWords(
    context: TurnContext,
    text: string,
    later = false,
  ): Promise<Reply | undefined> {
    try {
      return await answerTyped(context, chargedOnce(context, this.deps), text, later);
    } catch (error) {
      if (error instanceof AnswerLater && !later) {
        await this.answerLater(context, text, error);
        return undefined;
      }
      return failureReply(error, INVOKE_FAILURE, this.deps.log, readerOfTurn(context));
    }
  }

  /** Ends the turn of a message the rate limit holds, and answers it when the budget allows. */
  private async answerLater(context: TurnContext, text: string, held: AnswerLater): Promise<void> {
    const reader = readerOfTurn(context);
    const seconds = Math.max(1, Math.ceil(held.afterMs / 1000));
    if (!held.told) await context.sendActivity(say(reader, 'talk.workingOnIt', { seconds }));
    const activity = { ...context.activity };
    const answer = async () => {
      await this.deps.messenger.continueTurn(activity, async (turn) => {
        await resolveReader(turn, this.deps.welcomeState);
        const reply = await this.answerOwnWords(turn, text, true);
        if (reply) await this.send(turn, reply);
      });
    };
    setTimeout(() => {
      answer().catch((error: unknown) => {
        this.deps.log.warn({ err: error }, 'could not answer a message the rate limit held');
      });
    }, held.afterMs).unref();
  }

  private runVerb(context: TurnContext, verb: string, data: object, typed = false): Promise<Reply> {
    const deps = chargedOnce(context, this.deps);
    return runVerb(verb, { context, deps, data: data as Record<string, unknown>, typed });
  }

  private async send(context: TurnContext, reply: Reply): Promise<void> {
    if (reply.kind === 'card' && reply.onMessage) {
      await context.updateActivity({ ...MessageFactory.attachment(reply.card), id: reply.onMessage });
      return;
    }
    const sent = await context.sendActivity(
      reply.kind === 'card' ? MessageFactory.attachment(reply.card) : reply.text,
    );
    // A card posted by a button of another card: a second press of it finds this one again.
    const from = context.activity.type === 'invoke' ? context.activity.replyToId : undefined;
    if (reply.kind === 'card' && reply.shows && sent?.id)
      await this.follow(context, reply.shows, sent.id, from);
  }

  /** Keeps the card `activityId` of this conversation (posted from the card `from`) up to date with the request it shows. */
  private async follow(context: TurnContext, job: Job, activityId: string, from?: string): Promise<void> {
    const reference = Turn.getConversationReference(context.activity);
    const requesterId = context.activity.from.aadObjectId ?? '';
    await this.deps.progress
      .watch(job, { reference, activityId, ...(from ? { from } : {}) }, requesterId, readerOfTurn(context))
      .catch((error: unknown) => {
        this.deps.log.warn({ err: error, jobId: job.id }, 'could not follow a request on another card');
      });
  }
}
