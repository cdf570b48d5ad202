import { TEAM_NAME_MAX_LENGTH } from '../../client';
import { say, DEFAULT_READER, type Reader } from '../i18n/catalog';
import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { clip, teamLink } from './cardText';
import { failure, type ProgressCardData } from './progressCard';
import requestEndedCardTemplate from './templates/requestEndedCard.json';

/**
 * The short new message posted when a request ends (ready, rejected or failed): updating a card
 * in place makes no notification in Teams, a new message does.
 */
export function renderRequestEndedCard(
  data: ProgressCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const team = clip(data.teamName, TEAM_NAME_MAX_LENGTH);
  const decision = data.decision;
  const said = decision?.message
    ? ` : ${say(reader, 'quoted', { text: clip(decision.message, 1000) })}`
    : '.';
  const by = (key: 'ended.approvedBy' | 'ended.rejectedBy') =>
    decision
      ? say(reader, key, {
          name: clip(decision.by, 120),
          said: reader.language === 'fr' ? said : said.replace(/^ :/, ':'),
        })
      : '';
  const ended =
    data.status === 'completed'
      ? {
          outcome: 'completed',
          style: 'good',
          headline: say(reader, 'ended.ready', { team }),
          detail: by('ended.approvedBy'),
        }
      : data.approval?.expired
        ? {
            outcome: 'expired',
            style: 'attention',
            headline: say(reader, 'ended.expired', { team }),
            detail: failure(data, reader),
          }
        : decision?.outcome === 'rejected'
          ? {
              outcome: 'rejected',
              style: 'attention',
              headline: say(reader, 'ended.rejected', { team }),
              detail: by('ended.rejectedBy'),
            }
          : {
              outcome: 'failed',
              style: 'attention',
              headline: say(reader, 'ended.failed', { team }),
              detail: failure(data, reader),
            };
  return renderCard('requestEndedCard', requestEndedCardTemplate, {
    ...ended,
    jobId: data.jobId,
    webUrl: teamLink(data.status, data.webUrl),
    labels: { openTeam: say(reader, 'action.openTeam'), tryAgain: say(reader, 'action.tryAgain') },
  });
}
