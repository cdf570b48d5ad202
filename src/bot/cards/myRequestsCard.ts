import type { Job, JobStatus } from '../../client';
import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { cardDateTime, clip } from './cardText';
import { summarizeJob } from './jobSummary';

/** Requests listed on the card, newest first; older ones are counted. */
export const MY_REQUESTS_SHOWN = 8;

/** What the "my requests" card shows. */
export interface MyRequestsCardData {
  /** The caller's jobs, in any order. */
  jobs: readonly Job[];
}

const STATUS_LOOK: Record<JobStatus, { text: string; color: string }> = {
  waiting: { text: 'Waiting', color: 'warning' },
  active: { text: 'In progress', color: 'accent' },
  completed: { text: 'Ready', color: 'good' },
  failed: { text: 'Failed', color: 'attention' },
  delayed: { text: 'Delayed', color: 'warning' },
  paused: { text: 'Paused', color: 'warning' },
};

/** The caller's recent requests with their state, each with a Status button. */
export function renderMyRequestsCard(data: MyRequestsCardData): AdaptiveCardAttachment {
  const newestFirst = [...data.jobs].sort((a, b) => b.createdDateTime.localeCompare(a.createdDateTime));
  const requests = newestFirst.slice(0, MY_REQUESTS_SHOWN).map((job) => {
    const summary = summarizeJob(job);
    const waitingForApproval = summary.status === 'waiting' && summary.approval?.status === 'pending';
    const rejected = summary.status === 'failed' && summary.approval?.status === 'rejected';
    const look = STATUS_LOOK[summary.status];
    return {
      jobId: summary.jobId,
      teamName: clip(summary.teamName, 120),
      templateName: clip(summary.templateName || 'Team request', 80),
      requestedAt: cardDateTime(summary.createdDateTime),
      statusText: waitingForApproval ? 'Waiting for approval' : rejected ? 'Rejected' : look.text,
      statusColor: look.color,
      progress: summary.progress,
    };
  });
  return renderCard('myRequestsCard.json', { requests, more: newestFirst.length - requests.length });
}
