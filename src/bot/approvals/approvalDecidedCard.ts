import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import {
  approvalLabels,
  approvalRefreshUserIds,
  approversLine,
  type ApprovalRequestFacts,
  requestNames,
} from './approvalCard';
import { clip, teamsDateTime } from '../cards/cardText';
import { DEFAULT_READER, type Reader, say } from '../i18n/catalog';
import approvalDecidedCardTemplate from './approvalDecidedCard.json';

/** What every approver's card shows once one of them has decided. */
export interface ApprovalDecidedCardData extends ApprovalRequestFacts {
  outcome: 'approved' | 'rejected';
  /** Display name of the approver who decided. */
  decidedBy: string;
  /** ISO 8601 time of the decision. */
  decidedAt: string;
  /** The approver's comment; null for none. */
  message: string | null;
  /** Nobody decided in time: the request expired (`outcome` is `rejected`, `decidedBy` empty). */
  expired?: boolean;
  /** The requester withdrew the request (`outcome` is `rejected`, `decidedBy` the requester). */
  withdrawn?: boolean;
}

/** The approval card after the decision: who decided, when, with what message, and the outcome. */
export function renderApprovalDecidedCard(
  data: ApprovalDecidedCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const approved = data.outcome === 'approved';
  const names = requestNames(data, reader);
  const name = clip(data.decidedBy || say(reader, 'approval.anApprover'), 120);
  const team = names.teamName;
  const when = teamsDateTime(data.decidedAt);
  const outcomeText = say(
    reader,
    data.withdrawn
      ? 'decided.withdrawn'
      : data.expired
        ? 'decided.expired'
        : approved
          ? 'decided.approved'
          : 'decided.rejected',
  );
  // A withdrawn request was decided by nobody either: its requester took it back.
  const requester = clip(data.requester.name || say(reader, 'approval.someone'), 120);
  // An expired request was decided by nobody: the card says so, not who rejected it.
  const look = data.withdrawn
    ? {
        outcome: 'withdrawn',
        outcomeColor: 'default',
        fallback: say(reader, 'decided.withdrawnFallback', { team, name: requester }),
        decided: say(reader, 'decided.withdrawnLine', { team, name: requester, ...when }),
      }
    : data.expired
      ? {
          outcome: 'expired',
          outcomeColor: 'warning',
          fallback: say(reader, 'decided.expiredFallback', { team }),
          decided: say(reader, 'decided.expiredLine', { team, ...when }),
        }
      : {
          outcome: data.outcome,
          outcomeColor: approved ? 'good' : 'attention',
          fallback: say(reader, 'decided.fallback', { outcome: outcomeText, team, name }),
          decided: say(reader, approved ? 'decided.approvedLine' : 'decided.rejectedLine', {
            name,
            team,
            ...when,
          }),
        };
  return renderCard('approvalDecidedCard', approvalDecidedCardTemplate, {
    approvalId: data.approvalId,
    approverUserIds: approvalRefreshUserIds(data.approvers),
    outcome: look.outcome,
    outcomeText,
    outcomeColor: look.outcomeColor,
    message: data.message?.trim() ? say(reader, 'quoted', { text: clip(data.message.trim(), 2000) }) : '',
    ...names,
    approvers: approversLine(data, reader),
    labels: { ...approvalLabels(reader), fallback: look.fallback, decided: look.decided },
  });
}
