import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { clip, markdownText } from '../cards/cardText';
import { DEFAULT_READER, type Reader, say } from '../i18n/catalog';
import type { JoinRecord } from './joinState';
import joinNewsCardTemplate from './joinNewsCard.json';

/** What the asker is told: the owners' decision, or that they are in. */
export type JoinNews = 'decided' | 'joined';

/** The card that tells someone what became of their request to join a team. */
export function renderJoinNewsCard(
  record: JoinRecord,
  news: JoinNews,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const team = clip(record.team.name, 256);
  const decision = record.decision;
  const by = decision?.by ?? '';
  // The owner's own words, shown as they typed them: no link or emphasis of theirs is drawn.
  const comment = markdownText(clip(decision?.comment ?? '', 1000));
  let title: string;
  let detail = '';
  if (news === 'joined') title = say(reader, 'join.told.joined', { team });
  else if (decision?.approved) {
    title = say(reader, 'join.told.approved', { name: by, team });
    detail = say(reader, 'join.told.approvedDetail');
    if (comment) detail = `${detail} ${say(reader, 'join.told.comment', { comment })}`;
  } else {
    title = say(reader, 'join.told.declined', { name: by, team });
    detail = comment ? say(reader, 'join.told.comment', { comment }) : '';
  }
  const open = news === 'joined' || decision?.approved === true;
  return renderCard('joinNewsCard', joinNewsCardTemplate, {
    teamUrl: open ? (record.team.webUrl ?? '') : '',
    labels: { title, detail, openTeam: say(reader, 'join.openTeam') },
  });
}
