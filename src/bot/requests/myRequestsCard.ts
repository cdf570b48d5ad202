import type { Job, JobStatus } from '../../client';
import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { clip, teamLink } from '../cards/cardText';
import type { MessageKey } from '../i18n/en';
import { dateTimeFor, DEFAULT_READER, percentFor, type Reader, say, sayCount } from '../i18n/catalog';
import { type JobKind, summarizeJob } from '../shared/jobSummary';
import { kindLabel } from './progressCard';
import { isWithdrawable } from './progressCardData';
import myRequestsCardTemplate from './myRequestsCard.json';

/** Requests listed on the card, newest first; older ones are counted. */
export const MY_REQUESTS_SHOWN = 8;

/** What the "my requests" card shows. */
export interface MyRequestsCardData {
  /** The caller's jobs, in any order. */
  jobs: readonly Job[];
  /** Only the requests waiting for approval, each with Withdraw ("withdraw" typed). */
  withdrawable?: boolean;
  /** Only the requests still waiting: for approval, in the queue, delayed or paused. */
  waiting?: boolean;
}

/** Whether a request still waits (for an approver, or its turn in the queue), rather than runs or ended. */
export function isWaiting(job: Job): boolean {
  const summary = summarizeJob(job);
  return ['waiting', 'delayed', 'paused'].includes(summary.status) || isWithdrawable(summary);
}

const STATUS_TEXT: Record<JobStatus, MessageKey> = {
  waiting: 'list.waiting',
  active: 'list.active',
  completed: 'list.completed',
  failed: 'list.failed',
  delayed: 'list.delayed',
  paused: 'list.paused',
};

/** A finished archive or unarchive says what it did, not that a team is "ready". */
const DONE_TEXT: Record<Exclude<JobKind, 'provisioning'>, MessageKey> = {
  archive: 'list.archived',
  unarchive: 'list.unarchived',
};

/** The caller's recent requests with their state, each with a Status button, in the reader's language. */
export function renderMyRequestsCard(
  data: MyRequestsCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const listed = data.withdrawable
    ? data.jobs.filter((job) => isWithdrawable(summarizeJob(job)))
    : data.waiting
      ? data.jobs.filter(isWaiting)
      : data.jobs;
  const newestFirst = [...listed].sort((a, b) => b.createdDateTime.localeCompare(a.createdDateTime));
  const requests = newestFirst.slice(0, MY_REQUESTS_SHOWN).map((job) => {
    const summary = summarizeJob(job);
    const waitingForApproval = isWithdrawable(summary);
    const rejected = summary.status === 'failed' && summary.approval?.status === 'rejected';
    const status: MessageKey = waitingForApproval
      ? 'list.waitingApproval'
      : summary.approval?.status === 'withdrawn'
        ? 'list.withdrawn'
        : rejected
          ? 'list.rejected'
          : summary.status === 'completed' && summary.kind !== 'provisioning'
            ? DONE_TEXT[summary.kind]
            : STATUS_TEXT[summary.status];
    return {
      jobId: summary.jobId,
      teamName: clip(summary.teamName, 120),
      templateName: clip(
        kindLabel(
          summary.kind,
          { name: summary.templateName, translations: summary.templateTranslations },
          reader,
        ),
        80,
      ),
      requestedAt: dateTimeFor(reader, summary.createdDateTime),
      statusText: say(reader, status),
      percent: percentFor(reader, Math.min(100, Math.max(0, Math.round(summary.progress)))),
      webUrl: teamLink(summary.status, summary.webUrl),
      withdrawable: waitingForApproval,
    };
  });
  const more = newestFirst.length - requests.length;
  return renderCard('myRequestsCard', myRequestsCardTemplate, {
    requests,
    more,
    labels: {
      title: say(
        reader,
        data.withdrawable ? 'withdraw.title' : data.waiting ? 'list.waitingTitle' : 'list.title',
      ),
      empty: say(
        reader,
        data.withdrawable ? 'withdraw.none' : data.waiting ? 'list.noneWaiting' : 'list.empty',
      ),
      more: sayCount(reader, 'list.more', more),
      fallback: say(reader, data.withdrawable ? 'withdraw.fallback' : 'list.fallback'),
      withdraw: say(reader, 'action.withdraw'),
      openTeam: say(reader, 'action.openTeam'),
      status: say(reader, 'action.status'),
      requestTeam: say(reader, 'action.requestTeam'),
    },
  });
}
