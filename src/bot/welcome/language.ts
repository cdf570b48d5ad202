import type { TurnContext } from 'botbuilder';
import { languageNamed, readerIn, readerOf, type Reader, say } from '../i18n/catalog';
import { readerOfTurn, type Reply, setReaderOfTurn } from '../conversations/reply';
import type { BotIdentity } from '../shared/botIdentity';
import { senderKnown } from '../knownSender';
import type { ReachState } from '../reachState';
import type { WelcomeState } from './welcomeState';

/** The id a person's language choice is kept under: their directory id, else their channel id. */
function personOf(context: TurnContext): string {
  return context.activity.from?.aadObjectId || context.activity.from?.id || '';
}

/**
 * Sets the turn's reader: the language the person chose (`language fr`), else their client's
 * `locale`; dates in their `localTimezone` either way. A person may read Steward in another
 * language than their Teams client's, and a client that always sends one locale (such as a test
 * chat) can still be read in French.
 */
export async function resolveReader(context: TurnContext, welcomeState: WelcomeState): Promise<Reader> {
  const fromClient = readerOf(context.activity.locale, context.activity.localTimezone);
  const person = personOf(context);
  // The client's language when the choice cannot be read: the turn still gets its answer.
  const chosen = person ? await welcomeState.language(person).catch(() => undefined) : undefined;
  const reader = chosen ? readerIn(fromClient, chosen) : fromClient;
  setReaderOfTurn(context, reader);
  return reader;
}

/** The words after `language` (or French `langue`) when `words` is that command; null otherwise. */
export function languageCommand(words: string): string | null {
  const match = /^(?:language|langue)(?:\s+(.*))?$/.exec(words);
  return match ? (match[1] ?? '').trim() : null;
}

/** Verbs of speaking or switching, in English and French ("talk to me in French", "parle-moi en anglais"). */
const SPEAK =
  /^(?:speak|talk|write|answer|reply|respond|switch|change|use|chat|set|reset|revert|go|parl\w*|ecri\w*|ecrire|repon\w*|pass\w*|utilis\w*|bascul\w*|discut\w*|chang\w*|remet\w*|revien\w*|reven\w*|mets)$/;
/** The language of one's Teams client, by its words: "back to automatic", "la langue par défaut". */
const AUTOMATIC = /^(?:auto|automatic|automatically|automatique|automatiquement|default|defaut)$/;
const LANGUAGE_WORDS = /^(?:language|languages|langue|langues)$/;
/** The languages Steward speaks, by their names in either language. */
const LANGUAGE_NAMES: Record<string, 'en' | 'fr'> = {
  english: 'en',
  anglais: 'en',
  french: 'fr',
  francais: 'fr',
};
/** Words of a request or a question about teams: "a team for French speakers" asks for no language. */
const OF_TEAMS =
  /^(?:teams?|equipes?|requests?|demandes?|templates?|modeles?|channels?|canal|canaux|communit\w*|communaute)$/;

/**
 * The language a person asks Steward to speak in their own words ("can you talk to me in French?",
 * "parle-moi en anglais désormais"): a verb of speaking or switching and one language's name, in
 * a short message about nothing else; null otherwise. `words`: folded as `plain` folds them.
 */
export function languageAskedFor(words: string): 'en' | 'fr' | 'auto' | null {
  const list = words.split(/[^a-z']+/).filter(Boolean);
  if (list.length > 14 || list.some((word) => OF_TEAMS.test(word))) return null;
  const speaks = list.some((word) => SPEAK.test(word));
  // "switch your language back to automatic", "remets la langue par défaut": the client's language again.
  if (speaks && list.some((word) => LANGUAGE_WORDS.test(word)) && list.some((word) => AUTOMATIC.test(word)))
    return 'auto';
  const named = new Set(list.flatMap((word) => LANGUAGE_NAMES[word] ?? []));
  if (named.size !== 1 || !speaks) return null;
  return [...named][0] ?? null;
}

/**
 * `language fr` / `language en` / `language auto`: remembers the person's choice (or forgets it),
 * and answers in the language now in force; anything else gets the command's usage.
 */
export async function chooseLanguage(
  context: TurnContext,
  deps: { welcomeState: WelcomeState; reachState: ReachState; identity: Pick<BotIdentity, 'knows'> },
  choice: string,
): Promise<Reply> {
  const person = personOf(context);
  const language = languageNamed(choice);
  const auto = ['auto', 'teams', 'default'].includes(choice.toLowerCase());
  if (!person || (!language && !auto))
    return { kind: 'text', text: say(readerOfTurn(context), 'language.usage') };
  // Kept only for someone the directory knows (see knownSender.ts).
  if (!(await senderKnown(context, deps.identity)))
    return { kind: 'text', text: say(readerOfTurn(context), 'error.unknownPerson') };
  await deps.welcomeState.saveLanguage(person, language);
  const reader = await resolveReader(context, deps.welcomeState);
  // Cards the bot sends them unasked (an approval card) use the reader it remembers for them.
  const aadObjectId = context.activity.from?.aadObjectId;
  const known = aadObjectId ? await deps.reachState.user(aadObjectId) : undefined;
  if (aadObjectId && known) await deps.reachState.saveUser(aadObjectId, { ...known, reader });
  return { kind: 'text', text: say(reader, language ? 'language.set' : 'language.auto') };
}
