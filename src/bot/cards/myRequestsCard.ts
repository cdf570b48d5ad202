import type { Job, JobStatus } from '../../client';
import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { clip, teamLink } from './cardText';
import type { MessageKey } from '../i18n/en';
import { dateTimeFor, DEFAULT_READER, type Reader, say, sayCount } from '../i18n/catalog';
import { summarizeJob } from './jobSummary';
import myRequestsCardTemplate from './templates/myRequestsCard.json';

/** Requests listed on the card, newest first; older ones are counted. */
export const MY_REQUESTS_SHOWN = 8;

/** What the "my requests" card shows. */
export interface MyRequestsCardData {
  /** The caller's jobs, in any order. */
  jobs: readonly Job[];
}

const STATUS_TEXT: Record<JobStatus, MessageKey> = {
  waiting: 'list.waiting',
  active: 'list.active',
  completed: 'list.completed',
  failed: 'list.failed',
  delayed: 'list.delayed',
  paused: 'list.paused',
};

/** The caller's recent requests with their state, each with a Status button, in the reader's language. */
export function renderMyRequestsCard(
  data: MyRequestsCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const newestFirst = [...data.jobs].sort((a, b) => b.createdDateTime.localeCompare(a.createdDateTime));
  const requests = newestFirst.slice(0, MY_REQUESTS_SHOWN).map((job) => {
    const summary = summarizeJob(job);
    const waitingForApproval = summary.status === 'waiting' && summary.approval?.status === 'pending';
    const rejected = summary.status === 'failed' && summary.approval?.status === 'rejected';
    const status: MessageKey = waitingForApproval
      ? 'list.waitingApproval'
      : rejected
        ? 'list.rejected'
        : STATUS_TEXT[summary.status];
    return {
      jobId: summary.jobId,
      teamName: clip(summary.teamName, 120),
      templateName: clip(summary.templateName || 'Team request', 80),
      requestedAt: dateTimeFor(reader, summary.createdDateTime),
      statusText: say(reader, status),
      progress: summary.progress,
      webUrl: teamLink(summary.status, summary.webUrl),
    };
  });
  const more = newestFirst.length - requests.length;
  return renderCard('myRequestsCard', myRequestsCardTemplate, {
    requests,
    more,
    labels: {
      title: say(reader, 'list.title'),
      empty: say(reader, 'list.empty'),
      more: sayCount(reader, 'list.more', more),
      fallback: say(reader, 'list.fallback'),
      openTeam: say(reader, 'action.openTeam'),
      status: say(reader, 'action.status'),
      requestTeam: say(reader, 'action.requestTeam'),
    },
  });
}
