import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { DEFAULT_READER, type Reader, say } from '../i18n/catalog';
import capabilitiesCardTemplate from './capabilitiesCard.json';

/**
 * What Steward can do when asked in the person's own words, with the buttons of the help card
 * (Request a team, My requests, Help: the typed commands are there).
 */
export function renderCapabilitiesCard(reader: Reader = DEFAULT_READER): AdaptiveCardAttachment {
  return renderCard('capabilitiesCard', capabilitiesCardTemplate, {
    lines: [
      say(reader, 'understood.can.request'),
      say(reader, 'understood.can.approvers'),
      say(reader, 'understood.can.requests'),
      say(reader, 'understood.can.expiring'),
      say(reader, 'understood.can.templates'),
    ],
    labels: {
      fallback: say(reader, 'understood.can.fallback'),
      title: say(reader, 'understood.can.title'),
      requestTeam: say(reader, 'action.requestTeam'),
      myRequests: say(reader, 'action.myRequests'),
      help: say(reader, 'action.help'),
    },
  });
}
