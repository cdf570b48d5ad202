import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { clip } from '../cards/cardText';
import { DEFAULT_READER, type Reader, say } from '../i18n/catalog';
import welcomeCardTemplate from './welcomeCard.json';

/** What the welcome card shows. */
export interface WelcomeCardData {
  /** The new user's display name; null when the install event does not say. */
  userName: string | null;
}

/** The card Steward posts when it is installed: what it does, and buttons to start. */
export function renderWelcomeCard(
  data: WelcomeCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const firstName = data.userName?.trim().split(/\s+/, 1)[0];
  return renderCard('welcomeCard', welcomeCardTemplate, {
    greeting: firstName
      ? say(reader, 'welcome.greeting', { name: clip(firstName, 64) })
      : say(reader, 'welcome.greetingNoName'),
    labels: {
      fallback: say(reader, 'welcome.fallback'),
      what: say(reader, 'welcome.what'),
      commands: say(reader, 'welcome.commands'),
      requestTeam: say(reader, 'action.requestTeam'),
      myRequests: say(reader, 'action.myRequests'),
      myApprovals: say(reader, 'action.myApprovals'),
      help: say(reader, 'action.help'),
    },
  });
}
