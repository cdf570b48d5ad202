import type { TurnContext } from 'botbuilder';
import type { StewardClient } from '../client';
import { isStatus } from './apiFailures';
import {
  type ApplyLabelData,
  type ApprovalDecisionData,
  type AskToJoinData,
  type BecomeOwnerData,
  CardVerb,
  type ChooseLanguageData,
  type JobActionData,
  type LifecycleNoticeData,
  type MyRequestsData,
  type PickTemplateData,
  type RequestByNameData,
  type SubmitRequestData,
  type WithdrawData,
} from './cards/cardVerbs';
import { confirmationCardData, renderConfirmationCard } from './requests/confirmationCard';
import { applyLabel } from './requests/applyLabel';
import type { ApprovalConversation } from './approvals/approvals';
import {
  archiveTeamNow,
  type LifecycleAnswerDependencies,
  keepTeam,
  notRightPerson,
  renewTeam,
} from './lifecycle/lifecycleAnswers';
import type { GuestReviewConversation } from './lifecycle/guestReview';
import { refreshLifecycleCard } from './lifecycle/lifecycleRefresh';
import type { OwnerlessConversation } from './lifecycle/ownerless';
import type { DriftAnswerData, DriftConversation } from './drift/drift';
import type { LifecycleCardState } from './lifecycle/lifecycleCardState';
import type { ReachState } from './reachState';
import { chooseLanguage } from './welcome/language';
import { helpReply } from './welcome/help';
import type { WelcomeState } from './welcome/welcomeState';
import { findRequest, myRequests, noSuchRequest, requestStatus } from './requests/myRequests';
import type { ProgressTracker } from './requests/progress';
import type { RequestState } from './requests/requestState';
import {
  asCaller,
  type CallerDependencies,
  cardReply,
  type Failure,
  failureReply,
  readerOfTurn,
  type Reply,
} from './conversations/reply';
import { pageOf, requesterOf, requestForm, templateGallery } from './requests/requestTeam';
import { tryAgain } from './requests/retryRequest';
import { withdrawRequest } from './requests/withdraw';
import { checkName, type RequestSubmitter } from './requests/submitRequest';
import { askToJoin } from './joining/askToJoin';
import type { JoiningConversation } from './joining/joining';

/** What a failure of a verb is about and what could not be done: "You are not allowed to {action}". */
export type FailureLabel = Failure;

/** The parts of the bot a verb may use. */
export interface VerbDependencies extends CallerDependencies, LifecycleAnswerDependencies {
  approvals: ApprovalConversation;
  submitter: RequestSubmitter;
  progress: ProgressTracker;
  /** The bot's records the verbs read and write, each feature's own. */
  requestState: RequestState;
  welcomeState: WelcomeState;
  reachState: ReachState;
  lifecycleCardState: LifecycleCardState;
  /** Teams short of owners: "Become an owner". */
  ownerless: OwnerlessConversation;
  /** Owners' guest reviews. */
  guestReviews: GuestReviewConversation;
  /** Requests to join teams: the owners' decisions. */
  joining: JoiningConversation;
  /** Owners asked about their template's changes: "Add them", "Not now". */
  drift: DriftConversation;
}

/** One verb being run: its turn, the bot's parts, the verb's data, and how it was asked for. */
export interface VerbTurn {
  context: TurnContext;
  deps: VerbDependencies;
  /** The card's `data` (or what a typed command stands for): untrusted, read field by field. */
  data: Record<string, unknown>;
  /** Typed as a command (`status <id>`) rather than pressed on a card. */
  typed: boolean;
}

/**
 * A verb's handler and the label of its failures. `asPerson` runs with a client acting as the person
 * behind the turn (`asCaller`); `asBot` needs no call as them (the approval conversation checks the
 * approver itself). Either way a failure becomes the error card its label describes.
 */
export type Verb =
  | { failure: FailureLabel; asPerson: (api: StewardClient, turn: VerbTurn) => Promise<Reply> }
  | { failure: FailureLabel; asBot: (turn: VerbTurn) => Promise<Reply> | Reply };

const LIST_TEMPLATES: FailureLabel = { subject: 'templates', doing: 'listTemplates' };

/** A text field of a verb's data ('' when absent or not text). */
const field = (turn: VerbTurn, name: string): string => {
  const value = turn.data[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
};

/** Every verb Steward's cards (and typed commands) use: the only place a verb is dispatched. */
export const VERBS: Readonly<Record<CardVerb, Verb>> = {
  [CardVerb.requestTeam]: {
    failure: LIST_TEMPLATES,
    asPerson: (api, { context }) => templateGallery(api, 0, readerOfTurn(context)),
  },
  [CardVerb.showTemplates]: {
    failure: LIST_TEMPLATES,
    asPerson: (api, turn) => templateGallery(api, pageOf(turn.data.page), readerOfTurn(turn.context), true),
  },
  [CardVerb.pickTemplate]: {
    failure: { subject: 'template', doing: 'openTemplate' },
    asPerson: (api, { context, data, deps }) =>
      requestForm(
        api,
        String((data as Partial<PickTemplateData>).templateId ?? ''),
        { requester: requesterOf(context), reader: readerOfTurn(context) },
        true,
        deps.log,
      ),
  },
  [CardVerb.checkName]: {
    failure: { subject: 'template', doing: 'checkName' },
    asPerson: (api, { context, data, deps }) =>
      checkName(context, api, { ...(data as unknown as SubmitRequestData) }, deps.log),
  },
  [CardVerb.submitRequest]: {
    failure: { subject: 'template', doing: 'requestTeam' },
    asPerson: (api, { context, data, deps }) =>
      deps.submitter.submit(context, api, { ...(data as unknown as SubmitRequestData) }),
  },
  [CardVerb.askToJoin]: {
    failure: { subject: 'team', doing: 'askToJoin' },
    asPerson: (api, { context, data }) =>
      askToJoin(api, data as unknown as AskToJoinData & Record<string, unknown>, readerOfTurn(context)),
  },
  [CardVerb.decideJoin]: {
    failure: { subject: 'request', doing: 'decideJoin' },
    asPerson: (api, { context, data, deps }) => deps.joining.decide(context, api, data),
  },
  [CardVerb.showStatus]: {
    failure: { subject: 'request', doing: 'showRequest' },
    asPerson: (api, turn) =>
      statusCard(
        api,
        turn,
        field(turn, 'jobId' satisfies keyof JobActionData),
        field(turn, 'request' satisfies keyof RequestByNameData),
      ),
  },
  [CardVerb.retryRequest]: {
    failure: { subject: 'request', doing: 'retryRequest' },
    asPerson: (api, turn) => tryAgain(turn.context, api, turn.deps, field(turn, 'jobId')),
  },
  [CardVerb.myRequests]: {
    failure: { subject: 'requests', doing: 'listRequests' },
    asPerson: (api, { context, data }) =>
      myRequests(api, readerOfTurn(context), (data as MyRequestsData).waiting === true),
  },
  [CardVerb.withdrawRequest]: {
    failure: { subject: 'request', doing: 'withdraw' },
    asPerson: (api, turn) =>
      withdrawRequest(turn.context, api, turn.deps, turn.data as Partial<WithdrawData>),
  },
  [CardVerb.myApprovals]: {
    failure: { subject: 'approvals', doing: 'listApprovals' },
    asPerson: (api, turn) => turn.deps.approvals.listFor(turn.context, api),
  },
  [CardVerb.approve]: {
    failure: { subject: 'approval', doing: 'decide' },
    asPerson: (api, { context, data, deps }) =>
      deps.approvals.decide(context, api, 'approved', data as unknown as ApprovalDecisionData),
  },
  [CardVerb.reject]: {
    failure: { subject: 'approval', doing: 'decide' },
    asPerson: (api, { context, data, deps }) =>
      deps.approvals.decide(context, api, 'rejected', data as unknown as ApprovalDecisionData),
  },
  [CardVerb.checkApprovalName]: {
    failure: { subject: 'approval', doing: 'checkName' },
    asBot: ({ context, data, deps }) =>
      deps.approvals.checkName(context, data as unknown as ApprovalDecisionData),
  },
  [CardVerb.refreshApproval]: {
    failure: { subject: 'approval', doing: 'showApproval' },
    asBot: (turn) => turn.deps.approvals.refresh(turn.context, field(turn, 'approvalId')),
  },
  [CardVerb.help]: {
    failure: { subject: 'requests', doing: 'showHelp' },
    asBot: ({ context }) => helpReply(readerOfTurn(context)),
  },
  [CardVerb.renewTeam]: {
    failure: { subject: 'team', doing: 'renewTeam' },
    asPerson: (api, { context, data, deps }) =>
      renewTeam(context, api, deps, data as Partial<LifecycleNoticeData>),
  },
  [CardVerb.archiveTeamNow]: {
    failure: { subject: 'team', doing: 'archiveTeam' },
    asPerson: (api, { context, data, deps }) =>
      archiveTeamNow(context, api, deps, data as Partial<LifecycleNoticeData>),
  },
  [CardVerb.keepTeam]: {
    failure: { subject: 'team', doing: 'keepTeam' },
    asPerson: (api, { context, data, deps }) =>
      keepTeam(context, api, deps, data as Partial<LifecycleNoticeData>),
  },
  [CardVerb.notRightPerson]: {
    failure: { subject: 'team', doing: 'answerNotice' },
    asPerson: (api, { context, data, deps }) =>
      notRightPerson(context, api, deps, data as Partial<LifecycleNoticeData>),
  },
  [CardVerb.chooseLanguage]: {
    failure: { subject: 'requests', doing: 'chooseLanguage' },
    asBot: (turn) =>
      chooseLanguage(turn.context, turn.deps, field(turn, 'language' satisfies keyof ChooseLanguageData)),
  },
  [CardVerb.becomeOwner]: {
    failure: { subject: 'team', doing: 'stepUp' },
    asPerson: (api, turn) =>
      turn.deps.ownerless.stepUp(turn.context, api, {
        teamId: field(turn, 'teamId' satisfies keyof BecomeOwnerData),
        since: field(turn, 'since' satisfies keyof BecomeOwnerData),
      }),
  },
  [CardVerb.applyLabel]: {
    failure: { subject: 'team', doing: 'applyLabel' },
    asPerson: (api, { context, data }) => applyLabel(context, api, data as Partial<ApplyLabelData>),
  },
  [CardVerb.refreshLifecycleCard]: {
    failure: { subject: 'team', doing: 'anything' },
    asBot: (turn) => refreshLifecycleCard(turn.context, turn.deps, turn.data),
  },
  [CardVerb.addTemplateChanges]: {
    failure: { subject: 'team', doing: 'answerDrift' },
    asPerson: (api, turn) =>
      turn.deps.drift.answer(turn.context, api, turn.data as Partial<DriftAnswerData>, 'add'),
  },
  [CardVerb.declineTemplateChanges]: {
    failure: { subject: 'team', doing: 'answerDrift' },
    asPerson: (api, turn) =>
      turn.deps.drift.answer(turn.context, api, turn.data as Partial<DriftAnswerData>, 'notNow'),
  },
  [CardVerb.submitGuestReview]: {
    failure: { subject: 'team', doing: 'reviewGuests' },
    asPerson: (api, turn) => turn.deps.guestReviews.submit(turn.context, api, turn.data),
  },
};

/** Failures of the people picker's search, which is an invoke of its own rather than a verb. */
export const PEOPLE_SEARCH_FAILURE: FailureLabel = { subject: 'requests', doing: 'searchPeople' };

/** Failures of any other invoke. */
export const INVOKE_FAILURE: FailureLabel = { subject: 'request', doing: 'anything' };

/** Runs `verb` from the table; a verb Steward does not know gets the help card. */
export async function runVerb(verb: string, turn: VerbTurn): Promise<Reply> {
  // `Object.hasOwn`: a card may send any text as its verb, "constructor" included.
  const handler: Verb | undefined = Object.hasOwn(VERBS, verb) ? VERBS[verb as CardVerb] : undefined;
  if (!handler) return helpReply(readerOfTurn(turn.context), null);
  if ('asPerson' in handler)
    return asCaller(turn.context, turn.deps, handler.failure, (api) => handler.asPerson(api, turn));
  try {
    return await handler.asBot(turn);
  } catch (error) {
    return failureReply(error, handler.failure, turn.deps.log, readerOfTurn(turn.context));
  }
}

/**
 * A request's progress card, drawn as the request's own card is. A card's Status refreshes that card
 * unless it asks for a new one (`newCard`, as "my requests" does); a typed `status <team name>`
 * (`request`: the person's own request for a team of that name, or with that id) always gets a new
 * message. The Status of a confirmation card drawn before it lost that button (a card pressed in
 * place that is not one of the request's living cards) leaves it a confirmation, so one request
 * keeps one living card.
 */
async function statusCard(
  api: StewardClient,
  turn: VerbTurn,
  cardJobId: string,
  request: string,
): Promise<Reply> {
  const reader = readerOfTurn(turn.context);
  const jobId = turn.typed && request ? await findRequest(api, request) : cardJobId;
  if (jobId === null) return noSuchRequest(request, reader);
  const reply = await requestStatus(api, jobId, !turn.typed && turn.data.newCard !== true).catch(
    (error: unknown) => {
      // A typed id that matches nothing (or someone else's request) is not "no longer exists".
      if (turn.typed && isStatus(error, 404)) return noSuchRequest(request || jobId, reader);
      throw error;
    },
  );
  if (reply.kind !== 'card' || !reply.shows) return reply;
  const pressed = turn.context.activity.replyToId;
  if (reply.inPlace && pressed && (await turn.deps.progress.isLivingCard(jobId, pressed)) === false) {
    const location = await turn.deps.requestState.progress(jobId);
    const data = confirmationCardData(reply.shows, location?.pictureUrl ?? null);
    return cardReply(renderConfirmationCard(data, reader), true);
  }
  return { ...reply, card: await turn.deps.progress.cardOf(reply.shows, reader) };
}
