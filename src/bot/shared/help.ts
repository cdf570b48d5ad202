import { renderHelpCard } from './helpCard';
import type { Reader } from '../i18n/catalog';
import { cardReply, type Reply } from '../conversations/reply';

/** What Steward understands, with buttons; `notUnderstood` is the text it did not understand, if any. */
export function helpReply(
  reader: Reader,
  notUnderstood: string | null = null,
  inPlace = false,
  offTopic = false,
): Reply {
  return cardReply(renderHelpCard({ notUnderstood, offTopic }, reader), inPlace);
}
