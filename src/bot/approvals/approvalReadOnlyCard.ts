import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { approvalLabels, type ApprovalRequestFacts, requestNames } from './approvalCard';
import { approvalWords } from '../shared/approvalWords';
import { clip } from '../cards/cardText';
import { DEFAULT_READER, type Reader, say } from '../i18n/catalog';
import approvalReadOnlyCardTemplate from './approvalReadOnlyCard.json';

/** What someone who may not (or no longer) decide sees. */
export interface ApprovalReadOnlyCardData extends ApprovalRequestFacts {
  /** Where the request stands. */
  decision: { status: 'pending' } | { status: 'approved' | 'rejected'; decidedBy: string };
  /** Why this person sees no buttons. */
  reason: 'notApprover' | 'alreadyDecided';
}

/** The approval request without buttons: for people outside the approval team, or after a decision. */
export function renderApprovalReadOnlyCard(
  data: ApprovalReadOnlyCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const decision = data.decision;
  const names = requestNames(data, reader);
  const approvers = clip(names.approvers, 300);
  const state =
    decision.status === 'pending'
      ? approvers
        ? say(reader, `readOnly.waitingFor${approvalWords(data.approvers.length, data.mode ?? 'any')}`, {
            names: approvers,
          })
        : say(reader, 'readOnly.waiting')
      : say(reader, decision.status === 'approved' ? 'readOnly.approvedBy' : 'readOnly.rejectedBy', {
          name: clip(decision.decidedBy || say(reader, 'approval.anApprover'), 120),
        });
  return renderCard('approvalReadOnlyCard', approvalReadOnlyCardTemplate, {
    ...names,
    state,
    reason: say(reader, data.reason === 'notApprover' ? 'readOnly.notApprover' : 'readOnly.alreadyDecided'),
    labels: { ...approvalLabels(reader), title: say(reader, 'readOnly.title', { team: names.teamName }) },
  });
}
