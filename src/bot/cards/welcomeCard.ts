import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { clip } from './cardText';

/** What the welcome card shows. */
export interface WelcomeCardData {
  /** The new user's display name; null when the install event does not say. */
  userName: string | null;
}

/** The card Steward posts when it is installed: what it does, and buttons to start. */
export function renderWelcomeCard(data: WelcomeCardData): AdaptiveCardAttachment {
  const firstName = data.userName?.trim().split(/\s+/, 1)[0];
  return renderCard('welcomeCard.json', {
    greeting: firstName ? `Hi ${clip(firstName, 64)}, I am Steward` : 'Hi, I am Steward',
  });
}
