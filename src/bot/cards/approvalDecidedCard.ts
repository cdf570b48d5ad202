import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { approvalRefreshUserIds, namesLine, type ApprovalRequestFacts } from './approvalCard';
import { cardDateTime, clip } from './cardText';

/** What every approver's card shows once one of them has decided. */
export interface ApprovalDecidedCardData extends ApprovalRequestFacts {
  outcome: 'approved' | 'rejected';
  /** Display name of the approver who decided. */
  decidedBy: string;
  /** ISO 8601 time of the decision. */
  decidedAt: string;
  /** The approver's comment; null for none. */
  message: string | null;
}

/** The approval card after the decision: who decided, when, with what message, and the outcome. */
export function renderApprovalDecidedCard(data: ApprovalDecidedCardData): AdaptiveCardAttachment {
  const approved = data.outcome === 'approved';
  return renderCard('approvalDecidedCard.json', {
    approvalId: data.approvalId,
    approverUserIds: approvalRefreshUserIds(data.approvers),
    outcome: data.outcome,
    outcomeText: approved ? 'Approved' : 'Rejected',
    outcomeColor: approved ? 'good' : 'attention',
    decidedBy: clip(data.decidedBy, 120),
    decidedAt: cardDateTime(data.decidedAt),
    message: clip(data.message?.trim() ?? '', 2000),
    teamName: clip(data.teamName, 264),
    templateName: clip(data.template.name, 120),
    requesterName: clip(data.requester.name, 120),
    approvers: namesLine(data.approvers.map((approver) => approver.name)),
  });
}
