import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { clip, plainSentence, teamLink } from './cardText';
import type { ProgressCardData } from './progressCard';

/**
 * The short new message posted when a request ends (ready, rejected or failed): updating a card
 * in place makes no notification in Teams, a new message does.
 */
export function renderRequestEndedCard(data: ProgressCardData): AdaptiveCardAttachment {
  const team = clip(data.teamName, 264);
  const decision = data.decision;
  const said = decision?.message ? `: “${clip(decision.message, 1000)}”` : '.';
  const ended =
    data.status === 'completed'
      ? {
          outcome: 'completed',
          style: 'good',
          headline: `Your team ${team} is ready.`,
          detail: decision ? `${clip(decision.by, 120)} approved it${said}` : '',
        }
      : decision?.outcome === 'rejected'
        ? {
            outcome: 'rejected',
            style: 'attention',
            headline: `Your request for ${team} was rejected.`,
            detail: `${clip(decision.by, 120)} rejected it${said}`,
          }
        : {
            outcome: 'failed',
            style: 'attention',
            headline: `Your request for ${team} failed.`,
            detail: plainSentence(data.failedReason ?? 'The request failed.'),
          };
  return renderCard('requestEndedCard.json', {
    ...ended,
    jobId: data.jobId,
    webUrl: teamLink(data.status, data.webUrl),
  });
}
