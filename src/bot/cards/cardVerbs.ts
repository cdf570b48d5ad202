/**
 * The `Action.Execute` verbs Steward's cards send, and the data each carries. Teams merges the
 * card's inputs into `data` for actions that submit inputs (`associatedInputs: auto`).
 */
export const CardVerb = {
  /** Open the template gallery (welcome and help cards). */
  requestTeam: 'requestTeam',
  /** Show a page of the gallery: {@link ShowTemplatesData}. */
  showTemplates: 'showTemplates',
  /** Open the request form for a template: {@link PickTemplateData}. */
  pickTemplate: 'pickTemplate',
  /** Show the request form again with the final name and its problems: {@link SubmitRequestData}. */
  checkName: 'checkName',
  /** Send the request form: {@link SubmitRequestData}. */
  submitRequest: 'submitRequest',
  /** Show one request's progress: {@link JobActionData}. */
  showStatus: 'showStatus',
  /** Start a failed request again with the same answers: {@link JobActionData}. */
  retryRequest: 'retryRequest',
  /** List the caller's recent requests ({@link MyRequestsData}). */
  myRequests: 'myRequests',
  /** Withdraw a request waiting for approval ({@link WithdrawData}); without a job, list those that can be. */
  withdrawRequest: 'withdrawRequest',
  /** List the approval requests waiting for the caller, each with its approval card. */
  myApprovals: 'myApprovals',
  /** Show what Steward understands. */
  help: 'help',
  /** Approve an approval request: {@link ApprovalDecisionData}. */
  approve: 'approve',
  /** Reject an approval request: {@link ApprovalDecisionData}. */
  reject: 'reject',
  /** Show the approval card again with the final name of the approver's amended name: {@link ApprovalDecisionData}. */
  checkApprovalName: 'checkApprovalName',
  /** Teams asks for an approval card's current state: {@link ApprovalRefreshData}. */
  refreshApproval: 'refreshApproval',
  /** Choose the language Steward speaks to the person: {@link ChooseLanguageData}. */
  chooseLanguage: 'chooseLanguage',
  /** Renew a team from its renewal card: {@link LifecycleNoticeData}. */
  renewTeam: 'renewTeam',
  /** Archive a team from its renewal or inactivity card: {@link LifecycleNoticeData}. */
  archiveTeamNow: 'archiveTeamNow',
  /** Keep an inactive team (counts as activity): {@link LifecycleNoticeData}. */
  keepTeam: 'keepTeam',
  /** An owner is not the one to answer a notice: {@link LifecycleNoticeData}. */
  notRightPerson: 'notRightPerson',
  /** A member steps up as owner of a team short of owners: {@link BecomeOwnerData}. */
  becomeOwner: 'becomeOwner',
  /** An owner submits the guest review card: {@link GuestReviewData}. */
  submitGuestReview: 'submitGuestReview',
  /** An owner applies the template's sensitivity label to a team made without it: {@link ApplyLabelData}. */
  applyLabel: 'applyLabel',
  /** Ask to join a team shown on the similar teams card: {@link AskToJoinData}. */
  askToJoin: 'askToJoin',
  /** Approve or decline a request to join, on an owner's card: `{ joinRequestId, decision }` and `joinComment`. */
  decideJoin: 'decideJoin',
  /** An owner adds what their team's template now has: {@link DriftAnswerData}. */
  addTemplateChanges: 'addTemplateChanges',
  /** An owner answers "Not now" to their template's changes: {@link DriftAnswerData}. */
  declineTemplateChanges: 'declineTemplateChanges',
  /** Teams asks for a lifecycle card's current state as it is opened: {@link LifecycleRefreshData}. */
  refreshLifecycleCard: 'refreshLifecycleCard',
} as const;

/** One of the verbs above. */
export type CardVerb = (typeof CardVerb)[keyof typeof CardVerb];

/** Data of `chooseLanguage`: `en`, `fr`, or `auto` (the Teams client's language). */
export interface ChooseLanguageData {
  language: string;
}

/** Data of `showTemplates`: the zero-based gallery page to show. */
export interface ShowTemplatesData {
  page: number;
}

/** Data of `pickTemplate`. */
export interface PickTemplateData {
  templateId: string;
}

/** Data of `submitRequest`: the template, plus the form's inputs (people pickers send comma-separated ids). */
export interface SubmitRequestData {
  templateId: string;
  /** The form's identity (see `RequestFormCardData.formId`); absent on forms rendered without one. */
  formId?: string;
  name?: string;
  description?: string;
  welcomeMessage?: string;
  owners?: string;
  members?: string;
  /** "Create anyway" on the similar teams card: send without looking for similar teams again. */
  skipSimilar?: boolean;
}

/** Data of `askToJoin`: the team, its name, and the id of the input holding the person's words. */
export interface AskToJoinData {
  teamId: string;
  teamName?: string;
  inputId?: string;
}

/** Data of `myRequests`: `waiting` lists only the requests still waiting (none: all recent ones). */
export interface MyRequestsData {
  waiting?: boolean;
}

/** Data of `showStatus` and `retryRequest`. */
export interface JobActionData {
  jobId: string;
}

/** Data of `withdrawRequest`: the request, and whether the requester confirmed (the first press only asks). */
export interface WithdrawData {
  jobId?: string;
  confirmed?: boolean;
}

/** Data of a typed `status <team name>`: the request named by its team's name (or its id). */
export interface RequestByNameData {
  request: string;
}

/** Data of `approve` and `reject`, plus the optional comment input. */
export interface ApprovalDecisionData {
  approvalId: string;
  comment?: string;
  /** The team name as the approver left it on the card; a changed one amends the request. */
  teamName?: string;
}

/** Data of `refreshApproval`. */
export interface ApprovalRefreshData {
  approvalId: string;
}

/**
 * Data of the lifecycle cards' verbs: the team, which notice the card is (`renewal`, `inactivity`),
 * and for `archiveTeamNow`, whether the owner confirmed (the first press only asks).
 */
export interface LifecycleNoticeData {
  teamId: string;
  notice?: string;
  confirmed?: boolean;
}

/** Data of `becomeOwner`: the team, and the day it was found short of owners. */
export interface BecomeOwnerData {
  teamId: string;
  since: string;
}

/** Data of `submitGuestReview`: the team, the review's due day, and each guest's `keep` or `remove` (`guest0`…). */
export interface GuestReviewData {
  teamId: string;
  dueOn: string;
  [guestInput: string]: string;
}

/**
 * Data of `refreshLifecycleCard`: which card (`renewal`, `inactivity`, `ownerless`, `guestReview`)
 * about which team, and what else names its record (`since` and `audience` of an ownerless card,
 * `dueOn` of a guest review).
 */
export interface LifecycleRefreshData {
  card: 'renewal' | 'inactivity' | 'ownerless' | 'guestReview';
  teamId: string;
  since?: string;
  audience?: 'ask' | 'governance';
  dueOn?: string;
}

/** Data of `applyLabel`: the team, and its name for the answer. */
export interface ApplyLabelData {
  teamId: string;
  teamName?: string;
}
