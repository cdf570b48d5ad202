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
import { applyLabel } from './requests/applyLabel';
import { archiveTeamNow, keepTeam, notRightPerson, renewTeam } from './lifecycle/lifecycleAnswers';
import { refreshLifecycleCard } from './lifecycle/lifecycleRefresh';
import type { DriftAnswerData } from './drift/drift';
import { chooseLanguage } from './welcome/language';
import { helpReply } from './welcome/help';
import { myRequests } from './requests/myRequests';
import { statusCard } from './requests/statusCard';
import { asCaller, failureReply, readerOfTurn, type Reply } from './conversations/reply';
import {
  APPROVAL,
  needsCaller,
  OWN_SETTINGS,
  POSTED_TO_THEM,
  refusalOf,
  TEAM_OWNER,
  THROUGH_API,
} from './verbAccess';
import type { FailureLabel, Verb, VerbTurn } from './verbTypes';
import { pageOf, requesterOf, requestForm, templateGallery } from './requests/requestTeam';
import { tryAgain } from './requests/retryRequest';
import { withdrawRequest } from './requests/withdraw';
import { checkName } from './requests/submitRequest';
import { askToJoin } from './joining/askToJoin';

export type { FailureLabel, Verb, VerbDependencies, VerbTurn } from './verbTypes';

const LIST_TEMPLATES: FailureLabel = { subject: 'templates', doing: 'listTemplates' };

/** A text field of a verb's data ('' when absent or not text). */
const field = (turn: VerbTurn, name: string): string => {
  const value = turn.data[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
};

/** Every verb Steward's cards (and typed commands) use: the only place a verb is dispatched. */
export const VERBS: Readonly<Record<CardVerb, Verb>> = {
  [CardVerb.requestTeam]: {
    access: THROUGH_API,
    failure: LIST_TEMPLATES,
    asPerson: (api, { context }) => templateGallery(api, 0, readerOfTurn(context)),
  },
  [CardVerb.showTemplates]: {
    access: THROUGH_API,
    failure: LIST_TEMPLATES,
    asPerson: (api, turn) => templateGallery(api, pageOf(turn.data.page), readerOfTurn(turn.context), true),
  },
  [CardVerb.pickTemplate]: {
    access: THROUGH_API,
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
    access: THROUGH_API,
    failure: { subject: 'template', doing: 'checkName' },
    asPerson: (api, { context, data, deps }) =>
      checkName(context, api, { ...(data as unknown as SubmitRequestData) }, deps.log),
  },
  [CardVerb.submitRequest]: {
    access: THROUGH_API,
    failure: { subject: 'template', doing: 'requestTeam' },
    asPerson: (api, { context, data, deps }) =>
      deps.submitter.submit(context, api, { ...(data as unknown as SubmitRequestData) }),
  },
  [CardVerb.askToJoin]: {
    access: THROUGH_API,
    failure: { subject: 'team', doing: 'askToJoin' },
    asPerson: (api, { context, data }) =>
      askToJoin(api, data as unknown as AskToJoinData & Record<string, unknown>, readerOfTurn(context)),
  },
  [CardVerb.decideJoin]: {
    access: THROUGH_API,
    failure: { subject: 'request', doing: 'decideJoin' },
    asPerson: (api, { context, data, deps }) => deps.joining.decide(context, api, data),
  },
  [CardVerb.showStatus]: {
    access: THROUGH_API,
    failure: { subject: 'request', doing: 'showRequest' },
    asPerson: (api, turn) =>
      statusCard(api, turn.context, turn.deps, {
        cardJobId: field(turn, 'jobId' satisfies keyof JobActionData),
        request: field(turn, 'request' satisfies keyof RequestByNameData),
        typed: turn.typed,
        newCard: turn.data.newCard === true,
      }),
  },
  [CardVerb.retryRequest]: {
    access: THROUGH_API,
    failure: { subject: 'request', doing: 'retryRequest' },
    asPerson: (api, turn) => tryAgain(turn.context, api, turn.deps, field(turn, 'jobId')),
  },
  [CardVerb.myRequests]: {
    access: THROUGH_API,
    failure: { subject: 'requests', doing: 'listRequests' },
    asPerson: (api, { context, data }) =>
      myRequests(api, readerOfTurn(context), (data as MyRequestsData).waiting === true),
  },
  [CardVerb.withdrawRequest]: {
    access: THROUGH_API,
    failure: { subject: 'request', doing: 'withdraw' },
    asPerson: (api, turn) =>
      withdrawRequest(turn.context, api, turn.deps, turn.data as Partial<WithdrawData>),
  },
  [CardVerb.myApprovals]: {
    access: THROUGH_API,
    failure: { subject: 'approvals', doing: 'listApprovals' },
    asPerson: (api, turn) => turn.deps.approvals.listFor(turn.context, api),
  },
  [CardVerb.approve]: {
    access: APPROVAL,
    failure: { subject: 'approval', doing: 'decide' },
    asPerson: (api, { context, data, deps }) =>
      deps.approvals.decide(context, api, 'approved', data as unknown as ApprovalDecisionData),
  },
  [CardVerb.reject]: {
    access: APPROVAL,
    failure: { subject: 'approval', doing: 'decide' },
    asPerson: (api, { context, data, deps }) =>
      deps.approvals.decide(context, api, 'rejected', data as unknown as ApprovalDecisionData),
  },
  [CardVerb.checkApprovalName]: {
    access: APPROVAL,
    failure: { subject: 'approval', doing: 'checkName' },
    asBot: ({ context, data, deps }) =>
      deps.approvals.checkName(context, data as unknown as ApprovalDecisionData),
  },
  [CardVerb.refreshApproval]: {
    access: APPROVAL,
    failure: { subject: 'approval', doing: 'showApproval' },
    asBot: (turn) => turn.deps.approvals.refresh(turn.context, field(turn, 'approvalId')),
  },
  [CardVerb.help]: {
    access: OWN_SETTINGS,
    failure: { subject: 'requests', doing: 'showHelp' },
    asBot: ({ context }) => helpReply(readerOfTurn(context)),
  },
  [CardVerb.renewTeam]: {
    access: TEAM_OWNER,
    failure: { subject: 'team', doing: 'renewTeam' },
    asPerson: (api, { context, data, deps }) =>
      renewTeam(context, api, deps, data as Partial<LifecycleNoticeData>),
  },
  [CardVerb.archiveTeamNow]: {
    access: TEAM_OWNER,
    failure: { subject: 'team', doing: 'archiveTeam' },
    asPerson: (api, { context, data, deps }) =>
      archiveTeamNow(context, api, deps, data as Partial<LifecycleNoticeData>),
  },
  [CardVerb.keepTeam]: {
    access: TEAM_OWNER,
    failure: { subject: 'team', doing: 'keepTeam' },
    asPerson: (api, { context, data, deps }) =>
      keepTeam(context, api, deps, data as Partial<LifecycleNoticeData>),
  },
  [CardVerb.notRightPerson]: {
    access: TEAM_OWNER,
    failure: { subject: 'team', doing: 'answerNotice' },
    asPerson: (api, { context, data, deps }) =>
      notRightPerson(context, api, deps, data as Partial<LifecycleNoticeData>),
  },
  [CardVerb.chooseLanguage]: {
    access: OWN_SETTINGS,
    failure: { subject: 'requests', doing: 'chooseLanguage' },
    asBot: (turn) =>
      chooseLanguage(turn.context, turn.deps, field(turn, 'language' satisfies keyof ChooseLanguageData)),
  },
  [CardVerb.becomeOwner]: {
    access: THROUGH_API,
    failure: { subject: 'team', doing: 'stepUp' },
    asPerson: (api, turn) =>
      turn.deps.ownerless.stepUp(turn.context, api, {
        teamId: field(turn, 'teamId' satisfies keyof BecomeOwnerData),
        since: field(turn, 'since' satisfies keyof BecomeOwnerData),
      }),
  },
  [CardVerb.applyLabel]: {
    access: THROUGH_API,
    failure: { subject: 'team', doing: 'applyLabel' },
    asPerson: (api, { context, data }) => applyLabel(context, api, data as Partial<ApplyLabelData>),
  },
  [CardVerb.refreshLifecycleCard]: {
    access: POSTED_TO_THEM,
    failure: { subject: 'team', doing: 'anything' },
    asBot: (turn) => refreshLifecycleCard(turn.context, turn.deps, turn.data),
  },
  [CardVerb.addTemplateChanges]: {
    access: TEAM_OWNER,
    failure: { subject: 'team', doing: 'answerDrift' },
    asPerson: (api, turn) =>
      turn.deps.drift.answer(turn.context, api, turn.data as Partial<DriftAnswerData>, 'add'),
  },
  [CardVerb.declineTemplateChanges]: {
    access: TEAM_OWNER,
    failure: { subject: 'team', doing: 'answerDrift' },
    asPerson: (api, turn) =>
      turn.deps.drift.answer(turn.context, api, turn.data as Partial<DriftAnswerData>, 'notNow'),
  },
  [CardVerb.submitGuestReview]: {
    access: POSTED_TO_THEM,
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
  // Who may see what the answer shows is asked of the API first, as the person, for every verb.
  if ('asPerson' in handler || needsCaller(handler.access))
    return asCaller(
      turn.context,
      turn.deps,
      handler.failure,
      async (api) =>
        (await refusalOf(api, turn, handler.access)) ??
        ('asPerson' in handler ? handler.asPerson(api, turn) : handler.asBot(turn)),
    );
  try {
    return await handler.asBot(turn);
  } catch (error) {
    return failureReply(error, handler.failure, turn.deps.log, readerOfTurn(turn.context));
  }
}
