import { renderWelcomeCard } from './welcomeCard';
import { type Reader, say } from '../i18n/catalog';
import { cardReply, type Reply } from '../conversations/reply';

/** Greetings people open a chat with, in English and French, without punctuation. */
const GREETINGS = new Set([
  'hi',
  'hello',
  'hey',
  'hiya',
  'good morning',
  'good afternoon',
  'good evening',
  'hi steward',
  'hello steward',
  'bonjour',
  'bonsoir',
  'salut',
  'coucou',
]);

const THANKS = new Set(['thanks', 'thank you', 'thx', 'cheers', 'merci', 'merci beaucoup']);

/** The words of a message as a greeting is compared: lower case, punctuation and emoji dropped. */
function bare(words: string): string {
  return words
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A friendly answer to "hello" or "thanks"; null for any other text. */
export function smallTalk(words: string, userName: string | null, reader: Reader): Reply | null {
  const text = bare(words);
  if (GREETINGS.has(text)) return cardReply(renderWelcomeCard({ userName }, reader));
  if (THANKS.has(text)) return { kind: 'text', text: say(reader, 'talk.thanks') };
  return null;
}
