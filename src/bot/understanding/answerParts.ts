import type { TurnContext } from 'botbuilder';
import type { CatalogTemplate, StewardClient } from '../../client';
import type { CardVerb } from '../cards/cardVerbs';
import { clip, markdownText } from '../cards/cardText';
import type { Reply } from '../conversations/reply';
import { type Reader, say } from '../i18n/catalog';
import type { MessageKey } from '../i18n/en';
import type { VerbDependencies } from '../verbTypes';
import type { Intent, NotOffered, PersonMatch, PersonMention, TemplateMatch, Understanding } from './types';

/**
 * What each feature's answers to the intents it owns (`<feature>/<feature>Intents.ts`) share: the
 * turn they answer, and the words of the message a template was chosen by. The answers are merged
 * in `intentAnswers.ts`, where the compiler requires one for every intent.
 */

/**
 * Who the people a message names are, asked as the person behind `api` (the integration:
 * `directoryLookup.ts`'s `resolvePeople` with the understanding engine's matcher).
 */
export type PeopleResolver = (
  api: StewardClient,
  mentions: readonly PersonMention[],
) => Promise<PersonMatch[]>;

/** A message understood, as an intent's answer reads it. */
export interface IntentTurn {
  context: TurnContext;
  deps: VerbDependencies;
  understood: Understanding;
  /** The reader of the turn (in the message's language). */
  reader: Reader;
  resolvePeople: PeopleResolver;
  /** Runs a verb of the table as its typed command would (`status <team>`, `my requests`). */
  runVerb(verb: CardVerb, data: Record<string, unknown>): Promise<Reply>;
}

/**
 * The bot's answer to an intent, in the reader's language, with names and never ids. Nothing is
 * created by an answer: a request comes back as the request form, prefilled. Calls to the API are
 * made as the person; a failure is the error card of the conversation it belongs to.
 */
export interface IntentAnswer {
  answer(turn: IntentTurn): Promise<Reply> | Reply;
  /** The answer depends on the templates offered to the person: the message is read again against them. */
  readsTemplates?: true;
}

/** The intents one feature answers (all of them, merged in intentAnswers.ts, answer every intent). */
export type FeatureIntents = Partial<Record<Intent, IntentAnswer>>;

/** The person's words as the cards show them: one line, in italics without breaking them. */
export const wordsOf = (match: TemplateMatch): string =>
  markdownText(clip(match.because.replace(/\s+/g, ' ').trim(), 80));

/**
 * The sentence `key` with the person's words in it, or `plainKey` when the engine gave no words
 * (an empty `*…*` would show as two asterisks).
 */
export function withWords(
  reader: Reader,
  key: MessageKey,
  plainKey: MessageKey,
  match: TemplateMatch,
  values: Record<string, string> = {},
): string {
  const words = wordsOf(match);
  return words ? say(reader, key, { ...values, words }) : say(reader, plainKey, values);
}

/** A name as typed, quoted as the reader quotes ("“Luc”", "« Luc »"), shown as its characters. */
export const quotedName = (reader: Reader, text: string): string =>
  say(reader, 'quoted', { text: markdownText(clip(text.replace(/\s+/g, ' ').trim(), 64)) });

/** A template's name, quoted, for a sentence. */
export const templateNamed = (reader: Reader, template: CatalogTemplate): string =>
  say(reader, 'quoted', { text: clip(template.templateConfiguration.name, 120) });

/**
 * The templates the message points at that are offered to the person (best first), and the words
 * of the first one it points at (for "not offered to you").
 */
export function offered(
  understood: Understanding,
  mine: readonly CatalogTemplate[],
): { fits: Array<{ template: CatalogTemplate; match: TemplateMatch }>; pointed: TemplateMatch | null } {
  const byId = new Map(mine.map((template) => [template.templateConfiguration.id ?? '', template]));
  const seen = new Set<string>();
  const fits = understood.templates.flatMap((match) => {
    const template = match.id ? byId.get(match.id) : undefined;
    if (!template || seen.has(match.id)) return [];
    seen.add(match.id);
    return [{ template, match }];
  });
  return { fits, pointed: understood.templates[0] ?? null };
}

/**
 * Why a template asked for is not offered to the person: its name, who the catalog offers it to
 * (its audience in the catalog's plain words).
 */
export function notOfferedWhy(reader: Reader, asked: NotOffered): string {
  const template = say(reader, 'quoted', { text: clip(asked.name, 120) });
  const audience = asked.audience?.replace(/\s+/g, ' ').trim();
  return audience
    ? say(reader, 'understood.unavailable', {
        template,
        audience: say(reader, 'quoted', { text: markdownText(clip(audience, 200)) }),
      })
    : say(reader, 'understood.unavailable.unsaid', { template });
}
