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
import type { Job, StewardClient } from '../client';
import type { ApproverDeliveries } from './approverDeliveries';
import type { BotLog } from './botLog';
import type { BotState } from './botState';
import {
  type ApprovalDecisionData,
  CardVerb,
  type JobActionData,
  type PickTemplateData,
  type SubmitRequestData,
} from './cards';
import type { ApprovalConversation } from './conversations/approvals';
import { helpReply } from './conversations/help';
import { isStatus } from './apiFailures';
import { smallTalk } from './conversations/greeting';
import { isJobId, myRequests, noSuchRequest, requestStatus } from './conversations/myRequests';
import { asCaller, failureReply, readerOfTurn, type Reply } from './conversations/reply';
import { pageOf, requestForm, searchPeople, templateGallery } from './conversations/requestTeam';
import { retryForm } from './conversations/retryRequest';
import type { ProgressTracker } from './conversations/progress';
import { checkName, type RequestSubmitter, requesterOf } from './conversations/submitRequest';
import { welcome } from './conversations/welcome';
import { chooseLanguage, languageCommand, resolveReader } from './conversations/language';
import { type Reader, sameReader, say } from './i18n/catalog';
import type { BotIdentity } from './identity/botIdentity';

/** The parts the bot's turns use. */
export interface StewardBotDependencies {
  client: StewardClient;
  identity: BotIdentity;
  state: BotState;
  approvals: ApprovalConversation;
  submitter: RequestSubmitter;
  progress: ProgressTracker;
  deliveries: ApproverDeliveries;
  log: BotLog;
}

/** Longest text command read; anything longer is not a command. */
const MAX_COMMAND_LENGTH = 200;

/**
 * Steward in Teams: typed commands (`new team`, `request`, `my requests`, `status <id>`, `help`),
 * the cards' Universal Actions (`adaptiveCard/action`), the people picker's search, the welcome on
 * install, and sign-in invokes. Every turn first remembers where the person is reached.
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
        await welcome(context, deps.state);
      await next();
    });
    this.onInstallationUpdateAdd(async (context, next) => {
      await welcome(context, deps.state);
      await next();
    });
  }

  /** Remembers the person's conversation and Teams id, then runs the turn. */
  protected override async onTurnActivity(context: TurnContext): Promise<void> {
    const reader = await resolveReader(context, this.deps.state);
    await this.remember(context, reader);
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
      const reply = failureReply(
        error,
        { subject: 'request', doing: 'anything' },
        this.deps.log,
        readerOfTurn(context),
      );
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
      await asCaller(context, this.deps, { subject: 'requests', doing: 'searchPeople' }, async (api) => {
        results = await searchPeople(api, invoke.queryText ?? '');
        return { kind: 'text', text: '' };
      });
    }
    return { statusCode: 200, type: 'application/vnd.microsoft.search.searchResponse', value: { results } };
  }

  private async runVerb(context: TurnContext, verb: string, data: object): Promise<Reply> {
    const deps = this.deps;
    const value = data as Record<string, unknown>;
    switch (verb) {
      case CardVerb.requestTeam:
        return asCaller(context, deps, { subject: 'templates', doing: 'listTemplates' }, (api) =>
          templateGallery(api, 0, readerOfTurn(context)),
        );
      case CardVerb.showTemplates:
        return asCaller(context, deps, { subject: 'templates', doing: 'listTemplates' }, (api) =>
          templateGallery(api, pageOf(value.page), readerOfTurn(context), true),
        );
      case CardVerb.pickTemplate:
        return asCaller(context, deps, { subject: 'template', doing: 'openTemplate' }, (api) =>
          requestForm(
            api,
            String((data as PickTemplateData).templateId ?? ''),
            { requester: requesterOf(context), reader: readerOfTurn(context) },
            true,
            deps.log,
          ),
        );
      case CardVerb.checkName:
        return asCaller(context, deps, { subject: 'template', doing: 'checkName' }, (api) =>
          checkName(context, api, { ...(data as SubmitRequestData) }),
        );
      case CardVerb.submitRequest:
        return asCaller(context, deps, { subject: 'template', doing: 'requestTeam' }, (api) =>
          deps.submitter.submit(context, api, { ...(data as SubmitRequestData) }),
        );
      case CardVerb.showStatus:
        // A Status of "my requests" posts the request's card; every other one refreshes its own card.
        return this.status(context, String((data as JobActionData).jobId ?? ''), value.newCard !== true);
      case CardVerb.retryRequest:
        return asCaller(context, deps, { subject: 'request', doing: 'retryRequest' }, (api) =>
          retryForm(
            api,
            String((data as JobActionData).jobId ?? ''),
            requesterOf(context),
            readerOfTurn(context),
          ),
        );
      case CardVerb.myRequests:
        return asCaller(context, deps, { subject: 'requests', doing: 'listRequests' }, (api) =>
          myRequests(api, readerOfTurn(context)),
        );
      case CardVerb.approve:
      case CardVerb.reject:
        return asCaller(context, deps, { subject: 'approval', doing: 'decide' }, (api) =>
          deps.approvals.decide(
            context,
            api,
            verb === CardVerb.approve ? 'approved' : 'rejected',
            data as ApprovalDecisionData,
          ),
        );
      case CardVerb.checkApprovalName:
        return deps.approvals.checkName(context, data as ApprovalDecisionData);
      case CardVerb.refreshApproval:
        return deps.approvals.refresh(context, String(value.approvalId ?? ''));
      case CardVerb.help:
        return helpReply(readerOfTurn(context));
      default:
        return helpReply(readerOfTurn(context), null);
    }
  }

  private async answerText(context: TurnContext): Promise<void> {
    const activity = context.activity;
    // A card's Action.Submit (older clients) arrives as a message with a value and no text.
    if (!activity.text && activity.value && typeof activity.value === 'object') {
      const { verb, ...data } = activity.value as { verb?: unknown };
      const reply = await this.runVerb(context, typeof verb === 'string' ? verb : '', data);
      await this.send(context, reply);
      return;
    }
    const text = Turn.removeRecipientMention(activity)?.trim() ?? activity.text?.trim() ?? '';
    await this.send(context, await this.command(context, text.slice(0, MAX_COMMAND_LENGTH + 1)));
  }

  private command(context: TurnContext, text: string): Promise<Reply> {
    const deps = this.deps;
    const words = text.toLowerCase().replace(/\s+/g, ' ').trim();
    if (text.length > MAX_COMMAND_LENGTH) return Promise.resolve(helpReply(readerOfTurn(context), text));
    if (['new team', 'request', 'request a team', 'new'].includes(words))
      return asCaller(context, deps, { subject: 'templates', doing: 'listTemplates' }, (api) =>
        templateGallery(api, 0, readerOfTurn(context)),
      );
    if (['my requests', 'requests', 'my request', 'status'].includes(words))
      return asCaller(context, deps, { subject: 'requests', doing: 'listRequests' }, (api) =>
        myRequests(api, readerOfTurn(context)),
      );
    const status = /^status\s+(\S+)$/i.exec(text.trim());
    if (status) {
      const jobId = status[1]!;
      if (!isJobId(jobId)) return Promise.resolve(noSuchRequest(jobId, readerOfTurn(context)));
      return this.status(context, jobId, false, true);
    }
    if (words === 'help' || words === '?') return Promise.resolve(helpReply(readerOfTurn(context)));
    const language = languageCommand(words);
    if (language !== null) return chooseLanguage(context, deps.state, language);
    const friendly = smallTalk(words, context.activity.from?.name ?? null, readerOfTurn(context));
    if (friendly) return Promise.resolve(friendly);
    return Promise.resolve(helpReply(readerOfTurn(context), text || null));
  }

  private async send(context: TurnContext, reply: Reply): Promise<void> {
    const sent = await context.sendActivity(
      reply.kind === 'card' ? MessageFactory.attachment(reply.card) : reply.text,
    );
    if (reply.kind === 'card' && reply.shows && sent?.id) await this.follow(context, reply.shows, sent.id);
  }

  /** A request's progress card, drawn as the request's own card is. */
  private async status(context: TurnContext, jobId: string, inPlace: boolean, typed = false): Promise<Reply> {
    const deps = this.deps;
    return asCaller(context, deps, { subject: 'request', doing: 'showRequest' }, async (api) => {
      const reply = await requestStatus(api, jobId, inPlace).catch((error: unknown) => {
        // A typed id that matches nothing (or someone else's request) is not "no longer exists".
        if (typed && isStatus(error, 404)) return noSuchRequest(jobId, readerOfTurn(context));
        throw error;
      });
      if (reply.kind !== 'card' || !reply.shows) return reply;
      return { ...reply, card: await deps.progress.cardOf(reply.shows, readerOfTurn(context)) };
    });
  }

  /** Keeps the card `activityId` of this conversation up to date with the request it shows. */
  private async follow(context: TurnContext, job: Job, activityId: string): Promise<void> {
    const reference = Turn.getConversationReference(context.activity);
    const requesterId = context.activity.from.aadObjectId ?? '';
    await this.deps.progress
      .watch(job, { reference, activityId }, requesterId, readerOfTurn(context))
      .catch((error: unknown) => {
        this.deps.log.warn({ err: error, jobId: job.id }, 'could not follow a request on another card');
      });
  }

  /** Stores the person's conversation reference and Teams id, and the channel, when they changed. */
  private async remember(context: TurnContext, reader: Reader): Promise<void> {
    const { from, serviceUrl, channelId, recipient, conversation } = context.activity;
    const aadObjectId = from?.aadObjectId;
    if (!aadObjectId || !serviceUrl || !conversation?.id || conversation.isGroup) return;
    try {
      const known = await this.deps.state.user(aadObjectId);
      const reference = Turn.getConversationReference(context.activity);
      if (
        known?.reference.conversation?.id !== conversation.id ||
        known.teamsUserId !== from.id ||
        known.reference.serviceUrl !== serviceUrl ||
        !sameReader(known.reader, reader)
      ) {
        await this.deps.state.saveUser(aadObjectId, {
          reference,
          teamsUserId: from.id,
          name: from.name ?? '',
          reader,
        });
        // Reachable now: approval cards that could not reach them go out at once.
        await this.deps.deliveries.retryFor(aadObjectId);
      }
      const tenantId =
        conversation.tenantId ?? (context.activity.channelData as { tenant?: { id?: string } })?.tenant?.id;
      const home = await this.deps.state.channel();
      if (home?.serviceUrl !== serviceUrl || home.bot.id !== recipient.id) {
        await this.deps.state.saveChannel({
          serviceUrl,
          channelId,
          bot: { id: recipient.id, name: recipient.name ?? 'Steward' },
          tenantId: tenantId ?? null,
        });
      }
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not remember a conversation');
    }
  }
}
