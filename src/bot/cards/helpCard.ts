import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { clip } from './cardText';

/** What the help card shows. */
export interface HelpCardData {
  /** The text Steward did not understand, when help answers an unknown message; null otherwise. */
  notUnderstood: string | null;
}

/** The commands Steward understands, with buttons; also the answer to text it does not understand. */
export function renderHelpCard(data: HelpCardData): AdaptiveCardAttachment {
  const text = data.notUnderstood?.replace(/\s+/g, ' ').trim() ?? '';
  return renderCard('helpCard.json', { notUnderstood: clip(text, 120) });
}
