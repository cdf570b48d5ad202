import type { SimilarTeam } from '../../client';
import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { clip, markdownText } from '../cards/cardText';
import type { SubmitRequestData } from '../shared/requestFormData';
import { DEFAULT_READER, namesIn, type Reader, say, sayCount } from '../i18n/catalog';
import similarTeamsCardTemplate from './similarTeamsCard.json';

/** What the "Teams like this already exist" card shows. */
export interface SimilarTeamsCardData {
  /** The name the person asked for (as typed). */
  name: string;
  teams: readonly SimilarTeam[];
  /** The form's answers, sent again by "Create anyway" with the check skipped. */
  request: SubmitRequestData;
}

/**
 * "Teams like this already exist": each team alike the one asked for, with its description, owners
 * and members, and Open, Ask to join (with a few words for the owners), and Create anyway, which
 * sends the same form again (the same form id, so the same request) without this check.
 */
export function renderSimilarTeamsCard(
  data: SimilarTeamsCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const teams = data.teams.map((team, index) => ({
    id: team.id,
    name: clip(team.displayName, 256),
    description: markdownText(clip(team.description ?? '', 300)),
    owners:
      team.owners.length > 0
        ? say(reader, 'joining.owners', {
            names: namesIn(
              reader,
              team.owners.map((o) => o.displayName),
            ),
          })
        : say(reader, 'joining.noOwners'),
    members: sayCount(reader, 'joining.members', team.memberCount),
    isMember: team.access === 'member',
    memberNote: say(reader, 'joining.youAreMember'),
    // A public team anyone may join is joined at once: the button says so.
    askLabel: say(reader, team.access === 'direct' ? 'joining.join' : 'joining.askToJoin'),
    webUrl: team.webUrl,
    inputId: `joinMessage${index}`,
  }));
  return renderCard('similarTeamsCard', similarTeamsCardTemplate, {
    teams,
    createAnyway: { ...data.request, skipSimilar: true },
    labels: {
      title: say(reader, 'joining.similarTitle'),
      // "You may join it" only where there is a team to join: the person may be in all of them.
      intro: sayCount(
        reader,
        teams.every((team) => team.isMember) ? 'joining.similarIntroMember' : 'joining.similarIntro',
        teams.length,
        { name: clip(data.name, 256) },
      ),
      open: say(reader, 'joining.open'),
      messageLabel: say(reader, 'joining.messageLabel'),
      messagePlaceholder: say(reader, 'joining.messagePlaceholder'),
      send: say(reader, 'joining.send'),
      createAnyway: say(reader, 'joining.createAnyway'),
      fallback: say(reader, 'joining.fallback'),
    },
  });
}
