import { TEAM_NAME_MAX_LENGTH } from '../../client';
import { say, DEFAULT_READER, type Reader } from '../i18n/catalog';
import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { clip, teamLink } from '../cards/cardText';
import type { MessageKey } from '../i18n/en';
import type { JobKind } from '../shared/jobSummary';
import { failure } from './progressCard';
import type { ProgressCardData } from './progressCardData';
import requestEndedCardTemplate from './requestEndedCard.json';

/** How an archive or unarchive ended, in its own words. */
const KIND_ENDED: Record<Exclude<JobKind, 'provisioning'>, Record<'done' | 'failed', MessageKey>> = {
  archive: { done: 'ended.archived', failed: 'ended.archiveFailed' },
  unarchive: { done: 'ended.unarchived', failed: 'ended.unarchiveFailed' },
};

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
  const kind = data.kind ?? 'provisioning';
  const ended =
    kind !== 'provisioning'
      ? {
          outcome: data.status === 'completed' ? 'completed' : 'failed',
          style: data.status === 'completed' ? 'good' : 'attention',
          headline: say(reader, KIND_ENDED[kind][data.status === 'completed' ? 'done' : 'failed'], { team }),
          detail: data.status === 'completed' ? '' : failure(data, reader),
          retryable: false,
        }
      : data.approval?.status === 'withdrawn'
        ? {
            outcome: 'withdrawn',
            style: 'default',
            headline: say(reader, 'ended.withdrawn', { team }),
            detail: '',
            retryable: true,
          }
        : data.status === 'completed'
          ? {
              outcome: 'completed',
              style: 'good',
              headline: say(reader, 'ended.ready', { team }),
              detail: by('ended.approvedBy'),
              retryable: false,
            }
          : data.approval?.expired
            ? {
                outcome: 'expired',
                style: 'attention',
                headline: say(reader, 'ended.expired', { team }),
                detail: failure(data, reader),
                retryable: true,
              }
            : decision?.outcome === 'rejected'
              ? {
                  outcome: 'rejected',
                  style: 'attention',
                  headline: say(reader, 'ended.rejected', { team }),
                  detail: by('ended.rejectedBy'),
                  retryable: true,
                }
              : {
                  outcome: 'failed',
                  style: 'attention',
                  headline: say(reader, 'ended.failed', { team }),
                  detail: failure(data, reader),
                  retryable: true,
                };
  return renderCard('requestEndedCard', requestEndedCardTemplate, {
    ...ended,
    retryable: ended.retryable && !data.retried,
    retried: ended.retryable && data.retried ? say(reader, 'progress.retried') : '',
    jobId: data.jobId,
    webUrl: teamLink(data.status, data.webUrl),
    labels: { openTeam: say(reader, 'action.openTeam'), tryAgain: say(reader, 'action.tryAgain') },
  });
}
