import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { cardPictureUrl } from '../cards/cardPicture';
import { TEAM_NAME_MAX_LENGTH } from '../../client';
import { approvalWords } from '../shared/approvalWords';
import { clip } from '../cards/cardText';
import { dateTimeFor, DEFAULT_READER, namesIn, type Reader, say } from '../i18n/catalog';
import type { Job } from '../../client';
import { summarizeJob } from '../shared/jobSummary';
import confirmationCardTemplate from './confirmationCard.json';

/** What the confirmation card shows right after a request is accepted (`201 Job`). */
export interface ConfirmationCardData {
  jobId: string;
  /** The final team name, after the naming convention. */
  teamName: string;
  templateName: string;
  pictureUrl: string | null;
  /** ISO 8601 time of the request. */
  requestedAt: string;
  /** Names of the approval team when the template needs approval; empty when it does not. */
  approverNames: readonly string[];
  /** Whether any one of the approvers decides, or each of them must approve (`any` when absent). */
  approvalMode?: 'any' | 'all';
}

/** The confirmation card's data for a job just accepted (`201 Job`, or `GET /jobs/{id}` later). */
export function confirmationCardData(job: Job, pictureUrl: string | null): ConfirmationCardData {
  const summary = summarizeJob(job);
  return {
    jobId: job.id,
    teamName: summary.teamName,
    templateName: summary.templateName,
    pictureUrl,
    requestedAt: summary.createdDateTime,
    approverNames: summary.approval?.approverNames ?? [],
    approvalMode: summary.approval?.mode ?? 'any',
  };
}

/**
 * "Request received": the final name and who approves (if anyone). It has no button: the request's
 * one living card is its progress card, posted below it.
 */
export function renderConfirmationCard(
  data: ConfirmationCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const team = clip(data.teamName, TEAM_NAME_MAX_LENGTH);
  const approvers = clip(namesIn(reader, data.approverNames), 400);
  return renderCard('confirmationCard', confirmationCardTemplate, {
    jobId: data.jobId,
    teamName: team,
    templateName: clip(data.templateName, 120),
    pictureUrl: cardPictureUrl(data.pictureUrl),
    approvers,
    labels: {
      fallback: say(reader, 'confirmation.fallback', { team }),
      title: say(reader, 'confirmation.title'),
      name: say(reader, 'confirmation.name', { team }),
      template: say(reader, 'confirmation.template'),
      requestedAt: say(reader, 'confirmation.requestedAt', { when: dateTimeFor(reader, data.requestedAt) }),
      approval: say(
        reader,
        `confirmation.approval${approvalWords(data.approverNames.length, data.approvalMode ?? 'any')}`,
        {
          names: approvers,
        },
      ),
      noApproval: say(reader, 'confirmation.noApproval'),
      follow: say(reader, 'confirmation.follow'),
    },
  });
}
