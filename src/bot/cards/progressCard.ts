import type { Job, JobStatus } from '../../client';
import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { cardPictureUrl } from './cardPicture';
import { cardDateTime, clip, listOfNames, plainSentence } from './cardText';
import { summarizeJob } from './jobSummary';
import { progressSteps, type ProgressStep, type StepState } from './progressSteps';

/** Log lines the progress card shows, newest last. */
export const PROGRESS_LOG_LINES = 5;

/** What the progress card shows for one request. */
export interface ProgressCardData {
  jobId: string;
  /** The final team name (after the naming convention). */
  teamName: string;
  templateName: string;
  /** The template's picture; null for none. */
  pictureUrl: string | null;
  status: JobStatus;
  /** 0–100. */
  progress: number;
  steps: readonly ProgressStep[];
  /** The job's log; the card shows the last {@link PROGRESS_LOG_LINES}. */
  log: readonly string[];
  /** The created team's link; the card offers "Open team" once it is known. */
  webUrl: string | null;
  /** Why the job failed (e.g. the approver's rejection); the card offers "Try again". */
  failedReason: string | null;
  /** ISO 8601 time of the job's last change. */
  updatedAt: string;
  approval: { status: 'pending' | 'approved' | 'rejected'; approverNames: readonly string[] } | null;
}

/** The progress card's data for a job from `GET /jobs/{id}` (or a webhook's job), with the template's picture. */
export function progressCardData(job: Job, pictureUrl: string | null = null): ProgressCardData {
  const summary = summarizeJob(job);
  return {
    jobId: summary.jobId,
    teamName: summary.teamName,
    templateName: summary.templateName,
    pictureUrl,
    status: summary.status,
    progress: summary.progress,
    steps: progressSteps(summary),
    log: summary.log,
    webUrl: summary.webUrl,
    failedReason: summary.failedReason,
    updatedAt: summary.lastModifiedDateTime,
    approval: summary.approval,
  };
}

const STEP_LOOK: Record<StepState, { icon: string; text: string; color: string }> = {
  done: { icon: '✅', text: 'Done', color: 'good' },
  running: { icon: '⏳', text: 'In progress', color: 'accent' },
  pending: { icon: '⚪', text: 'Waiting', color: 'default' },
  failed: { icon: '❌', text: 'Failed', color: 'attention' },
  skipped: { icon: '➖', text: 'Skipped', color: 'default' },
  rejected: { icon: '⛔', text: 'Rejected', color: 'attention' },
};

function headline(data: ProgressCardData): { text: string; color: string } {
  const approval = data.approval;
  switch (data.status) {
    case 'completed':
      return { text: 'Your team is ready', color: 'good' };
    case 'failed':
      return approval?.status === 'rejected'
        ? { text: 'The request was rejected', color: 'attention' }
        : { text: 'The request failed', color: 'attention' };
    case 'active':
      return { text: 'Creating the team', color: 'accent' };
    case 'delayed':
      return { text: 'Delayed: trying again shortly', color: 'warning' };
    case 'paused':
      return { text: 'Paused by an administrator', color: 'warning' };
    case 'waiting':
      if (approval?.status === 'pending') {
        const who = listOfNames(approval.approverNames);
        return {
          text: who ? `Waiting for approval by ${clip(who, 200)}` : 'Waiting for approval',
          color: 'warning',
        };
      }
      return { text: 'Queued: starting soon', color: 'default' };
  }
}

/** The card that follows a request from submission to "Open team" (or its failure and "Try again"). */
export function renderProgressCard(data: ProgressCardData): AdaptiveCardAttachment {
  const progress = Math.min(100, Math.max(0, Math.round(data.progress)));
  const title = headline(data);
  return renderCard('progressCard.json', {
    jobId: data.jobId,
    teamName: clip(data.teamName, 264),
    templateName: clip(data.templateName, 120),
    pictureUrl: cardPictureUrl(data.pictureUrl),
    status: data.status,
    headline: title.text,
    headlineColor: title.color,
    progress,
    barStyle: data.status === 'failed' ? 'attention' : 'good',
    updatedAt: cardDateTime(data.updatedAt),
    steps: data.steps.slice(0, 12).map((step) => ({
      title: clip(step.title, 80),
      icon: STEP_LOOK[step.state].icon,
      stateText: STEP_LOOK[step.state].text,
      color: STEP_LOOK[step.state].color,
    })),
    logLines: data.log.slice(-PROGRESS_LOG_LINES).map((line) => clip(line, 300)),
    webUrl:
      data.status === 'completed' && data.webUrl && /^https?:\/\//i.test(data.webUrl) ? data.webUrl : '',
    failedReason: data.status === 'failed' ? plainSentence(data.failedReason ?? 'The request failed.') : '',
  });
}
