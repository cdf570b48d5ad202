/**
 * The `Action.Execute` verbs Steward's cards send; each feature's verbs file (`requests/requestVerbs.ts`,
 * …) declares the data of its own, as a schema the verb reads it with. Teams merges the
 * card's inputs into `data` for actions that submit inputs (`associatedInputs: auto`).
 */
export const CardVerb = {
  /** Open the template gallery (welcome and help cards). */
  requestTeam: 'requestTeam',
  /** Show a page of the gallery: `ShowTemplatesData`. */
  showTemplates: 'showTemplates',
  /** Open the request form for a template: `PickTemplateData`. */
  pickTemplate: 'pickTemplate',
  /** Show the request form again with the final name and its problems: `SubmitRequestData`. */
  checkName: 'checkName',
  /** Send the request form: `SubmitRequestData`. */
  submitRequest: 'submitRequest',
  /** Show one request's progress: `JobActionData`. */
  showStatus: 'showStatus',
  /** Start a failed request again with the same answers: `JobActionData`. */
  retryRequest: 'retryRequest',
  /** List the caller's recent requests (`MyRequestsData`). */
  myRequests: 'myRequests',
  /** Withdraw a request waiting for approval (`WithdrawData`); without a job, list those that can be. */
  withdrawRequest: 'withdrawRequest',
  /** List the approval requests waiting for the caller, each with its approval card. */
  myApprovals: 'myApprovals',
  /** Show what Steward understands. */
  help: 'help',
  /** Approve an approval request: `ApprovalDecisionData`. */
  approve: 'approve',
  /** Reject an approval request: `ApprovalDecisionData`. */
  reject: 'reject',
  /** Show the approval card again with the final name of the approver's amended name: `ApprovalDecisionData`. */
  checkApprovalName: 'checkApprovalName',
  /** Teams asks for an approval card's current state: `ApprovalRefreshData`. */
  refreshApproval: 'refreshApproval',
  /** Choose the language Steward speaks to the person: `ChooseLanguageData`. */
  chooseLanguage: 'chooseLanguage',
  /** Renew a team from its renewal card: `LifecycleNoticeData`. */
  renewTeam: 'renewTeam',
  /** Archive a team from its renewal or inactivity card: `LifecycleNoticeData`. */
  archiveTeamNow: 'archiveTeamNow',
  /** Keep an inactive team (counts as activity): `LifecycleNoticeData`. */
  keepTeam: 'keepTeam',
  /** An owner is not the one to answer a notice: `LifecycleNoticeData`. */
  notRightPerson: 'notRightPerson',
  /** A member steps up as owner of a team short of owners: `BecomeOwnerData`. */
  becomeOwner: 'becomeOwner',
  /** An owner submits the guest review card: `GuestReviewData`. */
  submitGuestReview: 'submitGuestReview',
  /** An owner applies the template's sensitivity label to a team made without it: `ApplyLabelData`. */
  applyLabel: 'applyLabel',
  /** Ask to join a team shown on the similar teams card: `AskToJoinData`. */
  askToJoin: 'askToJoin',
  /** Approve or decline a request to join, on an owner's card: `{ joinRequestId, decision }` and `joinComment`. */
  decideJoin: 'decideJoin',
  /** An owner adds what their team's template now has: `DriftAnswerData`. */
  addTemplateChanges: 'addTemplateChanges',
  /** An owner answers "Not now" to their template's changes: `DriftAnswerData`. */
  declineTemplateChanges: 'declineTemplateChanges',
  /** Teams asks for a lifecycle card's current state as it is opened: {@link LifecycleRefreshData}. */
  refreshLifecycleCard: 'refreshLifecycleCard',
} as const;

/** One of the verbs above. */
export type CardVerb = (typeof CardVerb)[keyof typeof CardVerb];

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
