import type { PendingApproval } from '../../client';
import { dateTimeFor, DEFAULT_READER, numberFor, type Reader, say } from '../i18n/catalog';
import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { clip } from '../cards/cardText';
import { summarizeJob } from '../shared/jobSummary';
import myApprovalsCardTemplate from './myApprovalsCard.json';

/** What the "my approvals" card shows. */
export interface MyApprovalsCardData {
  /** The approval requests waiting for the reader, oldest first, whose cards were just posted. */
  approvals: readonly PendingApproval[];
  /** How many wait in all (more than `approvals` when the list was cut). */
  total: number;
}

/**
 * "My approvals": how many requests wait for the reader's decision, each by team, requester and
 * since when. Their approval cards, to decide on, are posted just before it.
 */
export function renderMyApprovalsCard(
  data: MyApprovalsCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const count = data.approvals.length;
  const summary =
    count === 0
      ? say(reader, 'approvals.none')
      : count === 1
        ? say(reader, 'approvals.one')
        : say(reader, 'approvals.many', { count: numberFor(reader, count) });
  return renderCard('myApprovalsCard', myApprovalsCardTemplate, {
    approvals: data.approvals.map((approval) => {
      const job = summarizeJob(approval.job);
      return {
        teamName: clip(job.teamName, 264),
        line: say(reader, 'approvals.row', {
          requester: clip(job.requesterName || say(reader, 'approval.someone'), 120),
          when: dateTimeFor(reader, approval.sinceDateTime),
        }),
      };
    }),
    labels: {
      title: say(reader, 'approvals.title'),
      summary,
      more: data.total > count ? say(reader, 'approvals.more', { shown: numberFor(reader, count) }) : '',
      fallback: say(reader, 'approvals.fallback'),
      myRequests: say(reader, 'action.myRequests'),
    },
  });
}
