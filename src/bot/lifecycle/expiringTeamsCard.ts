import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { clip } from '../cards/cardText';
import { dayFor, DEFAULT_READER, numberFor, type Reader, say } from '../i18n/catalog';
import expiringTeamsCardTemplate from './expiringTeamsCard.json';

/** Teams the card shows at most (each with its buttons, well within Teams' size limit). */
export const EXPIRING_TEAMS_SHOWN = 10;

/** One of the person's teams that expires or is inactive soon. */
export interface ExpiringTeam {
  teamId: string;
  name: string;
  /** `expiring` (renew it), `expired` (renew it before the policy acts), `inactive` (keep it). */
  state: 'expiring' | 'expired' | 'inactive';
  /** The day (`YYYY-MM-DD`) it expires, or expired, when it has one. */
  expiresOn: string | null;
  /** How long a renewal lasts (the policy's days), for the Renew button. */
  renewDays: number;
  /** The day (`YYYY-MM-DD`) of its last activity, when known. */
  lastActivityDate: string | null;
}

/**
 * The person's teams that expire or are inactive soon, each with the lifecycle cards' own
 * buttons: Renew (expiring, expired) or Keep it (inactive), and Archive (which asks to confirm).
 */
export function renderExpiringTeamsCard(
  teams: readonly ExpiringTeam[],
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  return renderCard('expiringTeamsCard', expiringTeamsCardTemplate, {
    teams: teams.slice(0, EXPIRING_TEAMS_SHOWN).map((team) => ({
      teamId: team.teamId,
      name: clip(team.name, 120),
      state: stateLine(team, reader),
      renew: team.state !== 'inactive',
      renewLabel:
        team.renewDays === 365
          ? say(reader, 'action.renewYear')
          : say(reader, 'action.renewDays', { days: numberFor(reader, team.renewDays) }),
      keep: team.state === 'inactive',
      notice: team.state === 'inactive' ? 'inactivity' : 'renewal',
    })),
    labels: {
      fallback: say(reader, 'understood.expiring.fallback'),
      title: say(reader, 'understood.expiring.title'),
      scope: say(reader, 'understood.expiring.scope'),
      keep: say(reader, 'action.keepIt'),
      archive: say(reader, 'action.archive'),
    },
  });
}

function stateLine(team: ExpiringTeam, reader: Reader): string {
  if (team.state === 'inactive')
    return team.lastActivityDate
      ? say(reader, 'understood.expiring.inactiveSince', { date: dayFor(reader, team.lastActivityDate) })
      : say(reader, 'understood.expiring.inactive');
  const date = dayFor(reader, team.expiresOn ?? '');
  return say(
    reader,
    team.state === 'expired' ? 'understood.expiring.expiredOn' : 'understood.expiring.expiresOn',
    {
      date,
    },
  );
}
