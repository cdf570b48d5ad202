import { anyData, cardData, textOrEmpty } from '../cards/cardData';
import { CardVerb } from '../cards/cardVerbs';
import { APPROVAL, THROUGH_API } from '../verbAccess';
import { type FailureLabel, type FeatureVerbs, verb } from '../verbTypes';
import { approvalDecisionData } from './approvalVerbData';

/** Data of `refreshApproval`. */
export const approvalRefreshData = cardData({ approvalId: textOrEmpty });

const DECIDE: FailureLabel = { subject: 'approval', doing: 'decide' };

/** The verbs of approvals: the approver's list, their decision, and their card's refresh. */
export const approvalVerbs = {
  [CardVerb.myApprovals]: verb({
    data: anyData,
    access: THROUGH_API,
    failure: { subject: 'approvals', doing: 'listApprovals' },
    asPerson: (api, { context, deps }) => deps.approvals.listFor(context, api),
  }),
  [CardVerb.approve]: verb({
    data: approvalDecisionData,
    access: APPROVAL,
    failure: DECIDE,
    asPerson: (api, { context, data, deps }) => deps.approvals.decide(context, api, 'approved', data),
  }),
  [CardVerb.reject]: verb({
    data: approvalDecisionData,
    access: APPROVAL,
    failure: DECIDE,
    asPerson: (api, { context, data, deps }) => deps.approvals.decide(context, api, 'rejected', data),
  }),
  [CardVerb.checkApprovalName]: verb({
    data: approvalDecisionData,
    access: APPROVAL,
    failure: { subject: 'approval', doing: 'checkName' },
    asBot: ({ context, data, deps }) => deps.approvals.checkName(context, data),
  }),
  [CardVerb.refreshApproval]: verb({
    data: approvalRefreshData,
    access: APPROVAL,
    failure: { subject: 'approval', doing: 'showApproval' },
    asBot: ({ context, data, deps }) => deps.approvals.refresh(context, data.approvalId),
  }),
} satisfies FeatureVerbs;
