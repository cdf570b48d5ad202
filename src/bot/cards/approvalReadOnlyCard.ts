import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { namesLine, type ApprovalRequestFacts } from './approvalCard';
import { clip, listOfNames } from './cardText';

/** What someone who may not (or no longer) decide sees. */
export interface ApprovalReadOnlyCardData extends ApprovalRequestFacts {
  /** Where the request stands. */
  decision: { status: 'pending' } | { status: 'approved' | 'rejected'; decidedBy: string };
  /** Why this person sees no buttons. */
  reason: 'notApprover' | 'alreadyDecided';
}

/** The approval request without buttons: for people outside the approval team, or after a decision. */
export function renderApprovalReadOnlyCard(data: ApprovalReadOnlyCardData): AdaptiveCardAttachment {
  const decision = data.decision;
  const approverNames = data.approvers.map((approver) => approver.name);
  const state =
    decision.status === 'pending'
      ? `Waiting for a decision by ${clip(listOfNames(approverNames), 300) || 'the approval team'}.`
      : `${decision.status === 'approved' ? 'Approved' : 'Rejected'} by ${clip(decision.decidedBy, 120)}.`;
  return renderCard('approvalReadOnlyCard.json', {
    teamName: clip(data.teamName, 264),
    templateName: clip(data.template.name, 120),
    requesterName: clip(data.requester.name, 120),
    approvers: namesLine(approverNames),
    state,
    reason:
      data.reason === 'notApprover'
        ? "Only this template's approval team can approve or reject this request."
        : 'This request has already been decided; nothing more to do.',
  });
}
