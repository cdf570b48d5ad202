import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { clip, plainSentence } from './cardText';

/** What the error card shows. */
export interface ErrorCardData {
  /** A plain sentence for the user; only its first line is shown, so a stack trace never is. */
  message: string;
  /** The API's `request-id` (or the bot's own) to quote to support; null when there is none. */
  requestId: string | null;
  /** The heading; default "Sorry, that did not work". */
  title?: string;
}

/** A failure as a plain sentence plus the request id, never a stack trace or raw error. */
export function renderErrorCard(data: ErrorCardData): AdaptiveCardAttachment {
  return renderCard('errorCard.json', {
    title: plainSentence(data.title ?? 'Sorry, that did not work', 80),
    message: plainSentence(data.message),
    requestId: clip(data.requestId?.trim() ?? '', 100),
  });
}
