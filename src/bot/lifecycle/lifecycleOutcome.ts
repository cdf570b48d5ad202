import { TEAM_NAME_MAX_LENGTH } from '../../client';
import { dayFor, type Reader, say } from '../i18n/catalog';
import { clip, markdownText } from '../cards/cardText';

/** How a lifecycle notice was answered, by whoever answered it first (or what happened to the team). */
export type LifecycleAnswer =
  | { kind: 'renewed'; by: string; expiresOn: string }
  | { kind: 'kept'; by: string; lastActivityDate: string }
  | { kind: 'archiving'; by: string }
  | { kind: 'archived'; by?: string; at?: string };

/** A team's name as a card's Markdown shows it: its characters as typed, cut to a readable length. */
export function teamNameText(name: string): string {
  return markdownText(clip(name, TEAM_NAME_MAX_LENGTH));
}

/** A card line without its Markdown, for the card's fallback text. */
export function plainText(line: string): string {
  return line.replace(/\*\*/g, '').replace(/\\([\\*_`[\]])/g, '$1');
}

/** "Archived by Siobhán O'Connor on 4 May 2026", as much of it as is known. */
function archivedLine(answer: { by?: string; at?: string }, reader: Reader): string {
  const date = answer.at ? dayFor(reader, answer.at.slice(0, 10)) : '';
  const name = clip(answer.by ?? '', 120);
  if (name && date) return say(reader, 'lifecycle.archivedByOn', { name, date });
  if (date) return say(reader, 'lifecycle.archivedOn', { date });
  return name ? say(reader, 'lifecycle.archivedBy', { name }) : '';
}

/** The coloured band a lifecycle card shows once answered: a title, a line, a colour. */
export function outcomeOf(
  answer: LifecycleAnswer | null,
  team: string,
  reader: Reader,
): { title: string; line: string; color: string } {
  if (!answer) return { title: '', line: '', color: 'default' };
  const name = 'by' in answer ? clip(answer.by || say(reader, 'lifecycle.someone'), 120) : '';
  switch (answer.kind) {
    case 'renewed':
      return {
        title: say(reader, 'renewal.renewedTitle'),
        line: say(reader, 'renewal.renewed', { name, team, date: dayFor(reader, answer.expiresOn) }),
        color: 'good',
      };
    case 'kept':
      return {
        title: say(reader, 'inactivity.keptTitle'),
        line: say(reader, 'inactivity.kept', { name, team, date: dayFor(reader, answer.lastActivityDate) }),
        color: 'good',
      };
    case 'archiving':
      return {
        title: say(reader, 'lifecycle.archivingTitle'),
        line: say(reader, 'lifecycle.archiving', { name, team }),
        color: 'warning',
      };
    case 'archived':
      return {
        title: say(reader, 'lifecycle.archivedTitle'),
        // The heading says the team is archived: the band says who and when, not that again.
        line: archivedLine(answer, reader),
        color: 'warning',
      };
  }
}

/**
 * A lifecycle card's title once answered: what happened to the team (archived, kept, renewed until a
 * new day), so the card no longer says it "expires on" a day that no longer applies; null before.
 */
export function answeredTitle(answer: LifecycleAnswer | null, team: string, reader: Reader): string | null {
  switch (answer?.kind) {
    case 'renewed':
      return say(reader, 'lifecycle.headingRenewed', { team, date: dayFor(reader, answer.expiresOn) });
    case 'kept':
      return say(reader, 'lifecycle.headingKept', { team });
    case 'archiving':
      return say(reader, 'lifecycle.headingArchiving', { team });
    case 'archived':
      return say(reader, 'lifecycle.headingArchived', { team });
    default:
      return null;
  }
}
