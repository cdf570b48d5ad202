import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { clip, markdownText } from '../cards/cardText';
import { DEFAULT_READER, type Reader, say } from '../i18n/catalog';
import type { JoinRecord } from './joinState';
import joinRequestCardTemplate from './joinRequestCard.json';

/**
 * The card an owner gets when someone asks to join their team: who, the asker's own words, a
 * comment field, Approve and Decline; once decided (by them or another owner), who decided and how.
 */
export function renderJoinRequestCard(
  record: JoinRecord,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const decision = record.decision;
  // A person's own words, shown as they typed them: no link or emphasis of theirs is drawn.
  const comment = markdownText(clip(decision?.comment ?? '', 1000));
  const decisionKey = decision
    ? decision.approved
      ? comment
        ? 'join.approvedByWithComment'
        : 'join.approvedBy'
      : comment
        ? 'join.declinedByWithComment'
        : 'join.declinedBy'
    : null;
  return renderCard('joinRequestCard', joinRequestCardTemplate, {
    joinRequestId: record.joinRequestId,
    message: markdownText(clip(record.message ?? '', 500)),
    decided: decision !== null,
    teamUrl: record.team.webUrl ?? '',
    labels: {
      title: say(reader, 'join.cardTitle', {
        person: clip(record.requester.name, 256),
        team: clip(record.team.name, 256),
      }),
      theirWords: say(reader, 'join.theirWords'),
      commentLabel: say(reader, 'join.commentLabel'),
      approve: say(reader, 'join.approve'),
      decline: say(reader, 'join.decline'),
      openTeam: say(reader, 'join.openTeam'),
      decision: decisionKey ? say(reader, decisionKey, { name: decision!.by, comment }) : '',
    },
  });
}
