import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { clip, plainSentence } from './cardText';
import { DEFAULT_READER, type Reader, say } from '../i18n/catalog';
import errorCardTemplate from './errorCard.json';

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
export function renderErrorCard(
  data: ErrorCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const requestId = clip(data.requestId?.trim() ?? '', 100);
  const generic = say(reader, 'error.generic');
  return renderCard('errorCard', errorCardTemplate, {
    title: plainSentence(data.title ?? say(reader, 'error.title'), 80, generic),
    message: plainSentence(data.message, 300, generic),
    requestId,
    labels: {
      requestId: say(reader, 'error.requestId', { id: requestId }),
      myRequests: say(reader, 'action.myRequests'),
      help: say(reader, 'action.help'),
    },
  });
}
