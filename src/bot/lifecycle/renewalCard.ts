import { DEFAULT_READER, dayFor, type Reader, say } from '../i18n/catalog';
import type { MessageKey } from '../i18n/en';
import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { answeredTitle, type LifecycleAnswer, outcomeOf, plainText, teamNameText } from './lifecycleOutcome';
import renewalCardTemplate from './renewalCard.json';

/** What an owner's renewal card shows. */
export interface RenewalCardData {
  teamId: string;
  teamName: string;
  /** The day (`YYYY-MM-DD`) the team expires: the new one once renewed. */
  expiresOn: string;
  /** The policy's period, for the Renew button ("for a year"); null when unknown. */
  renewDays: number | null;
  /** What happens on expiry, for the card's warning; null when unknown. */
  onExpiry: 'archive' | 'delete' | 'none' | null;
  answer: LifecycleAnswer | null;
  /** This reader said they are not the right person; `otherOwners` still have the card. */
  declined?: { otherOwners: number };
  /** Why the reader's answer could not be taken, as a sentence. */
  problem?: string;
  /** The reader pressed Archive: the card asks them to confirm before anything is done. */
  confirmArchive?: boolean;
}

const ON_EXPIRY: Record<NonNullable<RenewalCardData['onExpiry']>, MessageKey> = {
  archive: 'renewal.onExpiry.archive',
  delete: 'renewal.onExpiry.delete',
  none: 'renewal.onExpiry.none',
};

/**
 * The renewal card every owner gets before the team expires: Renew · Archive now · I'm not the
 * right person, and once someone answered, who did what (and the new expiry), with no buttons.
 */
export function renderRenewalCard(
  data: RenewalCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const team = teamNameText(data.teamName);
  const confirming = data.answer === null && data.confirmArchive === true;
  const outcome = outcomeOf(data.answer, team, reader);
  const date = dayFor(reader, data.expiresOn);
  const renew =
    data.renewDays === 365
      ? say(reader, 'action.renewYear')
      : data.renewDays
        ? say(reader, 'action.renewDays', { days: data.renewDays })
        : say(reader, 'action.renewYear');
  const note = data.declined
    ? say(reader, data.declined.otherOwners > 0 ? 'renewal.notRightPerson' : 'renewal.notRightPersonAlone', {
        team,
      })
    : '';
  return renderCard('renewalCard', renewalCardTemplate, {
    teamId: data.teamId,
    open: data.answer === null && !confirming,
    confirming,
    declined: data.declined !== undefined,
    outcome,
    note,
    problem: data.problem ?? '',
    labels: {
      // Once answered, clients that cannot draw the card show the answer.
      fallback: outcome.line
        ? plainText(outcome.line)
        : say(reader, 'renewal.fallback', { team: data.teamName, date }),
      title: answeredTitle(data.answer, team, reader) ?? say(reader, 'renewal.title', { team, date }),
      confirmArchive: say(reader, 'lifecycle.confirmArchive', { team }),
      confirm: say(reader, 'action.confirmArchive'),
      cancel: say(reader, 'action.cancel'),
      why: say(reader, 'renewal.why', { team }),
      onExpiry: data.onExpiry ? say(reader, ON_EXPIRY[data.onExpiry]) : '',
      renew,
      archiveNow: say(reader, 'action.archiveNow'),
      notRightPerson: say(reader, 'action.notRightPerson'),
    },
  });
}
