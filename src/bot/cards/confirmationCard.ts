import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { cardPictureUrl } from './cardPicture';
import { cardDateTime, clip, listOfNames } from './cardText';

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
}

/** "Request received": the final name, who approves (if anyone), and a Status button. */
export function renderConfirmationCard(data: ConfirmationCardData): AdaptiveCardAttachment {
  return renderCard('confirmationCard.json', {
    jobId: data.jobId,
    teamName: clip(data.teamName, 264),
    templateName: clip(data.templateName, 120),
    pictureUrl: cardPictureUrl(data.pictureUrl),
    requestedAt: cardDateTime(data.requestedAt),
    approvers: clip(listOfNames(data.approverNames), 400),
  });
}
