import { DEFAULT_READER, dayFor, type Reader, say } from '../i18n/catalog';
import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { answeredTitle, type LifecycleAnswer, outcomeOf, plainText, teamNameText } from './lifecycleOutcome';
import inactivityCardTemplate from './inactivityCard.json';

/** What an owner's inactivity card shows. */
export interface InactivityCardData {
  teamId: string;
  teamName: string;
  /** The day (`YYYY-MM-DD`) of the team's last activity. */
  lastActivityDate: string;
  answer: LifecycleAnswer | null;
  /** Why the reader's answer could not be taken, as a sentence. */
  problem?: string;
  /** The reader pressed Archive: the card asks them to confirm before anything is done. */
  confirmArchive?: boolean;
}

/**
 * The inactivity card every owner gets when nobody has worked in the team for the policy's days:
 * Keep it (counts as activity) · Archive, and once someone answered, who did what, with no buttons.
 */
export function renderInactivityCard(
  data: InactivityCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const team = teamNameText(data.teamName);
  const confirming = data.answer === null && data.confirmArchive === true;
  const outcome = outcomeOf(data.answer, team, reader);
  const date = dayFor(reader, data.lastActivityDate);
  return renderCard('inactivityCard', inactivityCardTemplate, {
    teamId: data.teamId,
    open: data.answer === null && !confirming,
    confirming,
    outcome,
    problem: data.problem ?? '',
    labels: {
      // Once answered, clients that cannot draw the card show the answer.
      fallback: outcome.line
        ? plainText(outcome.line)
        : say(reader, 'inactivity.fallback', { team: data.teamName, date }),
      title: answeredTitle(data.answer, team, reader) ?? say(reader, 'inactivity.title', { team, date }),
      confirmArchive: say(reader, 'lifecycle.confirmArchive', { team }),
      confirm: say(reader, 'action.confirmArchive'),
      cancel: say(reader, 'action.cancel'),
      ask: say(reader, 'inactivity.ask'),
      keep: say(reader, 'action.keepIt'),
      archive: say(reader, 'action.archive'),
    },
  });
}
