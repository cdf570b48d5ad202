import { distance } from 'fastest-levenshtein';
import { StemmerEn } from '@nlpjs/lang-en-min';
import { StemmerFr } from '@nlpjs/lang-fr';
import { SYNONYMS } from './synonyms';
import type { TemplateChoice, TemplateMatch } from './types';
import { fold, withoutElision, words, type Word } from './text';

/**
 * Which of the templates offered a message points at. A template's name and description and the
 * message are read the same way: each word folded (no case, no accents), then either a concept of
 * the synonym table below (English and French words, and a few two-word phrases, for the same
 * idea: "deal", "client", "affaire" are all `client`) or its English and French stems. A template
 * scores by the concepts and stems it shares with the message, its name counting more than its
 * description; `because` is the person's own words that matched.
 */

/** Words that say nothing of a purpose: every template is a team. */
const GENERIC = new Set(
  (
    'team teams equipe equipes a an the for of and with to in or by one per new une un le la les des du de ' +
    'pour avec et en par au aux sur dans space espace workspace group groupe their they people every ' +
    'only may request requests its copy use instead small private public open tenant wide template ' +
    'templates modele modeles'
  ).split(' '),
);

const en = new StemmerEn();
const fr = new StemmerFr();

/** The phrase → concept table, folded. */
const CONCEPT_OF = new Map<string, string>();
for (const [concept, list] of Object.entries(SYNONYMS)) {
  for (const phrase of list) CONCEPT_OF.set(fold(phrase), concept);
}

/** The single words of the table, for a word typed with a typo ("porject", "cleint"). */
const CONCEPT_WORDS = [...CONCEPT_OF.keys()].filter((phrase) => !phrase.includes(' ') && phrase.length >= 5);

/** Whether two words differ by two letters swapped side by side ("porject", "project"). */
function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const at = [...a].findIndex((letter, i) => letter !== b[i]);
  return at >= 0 && a[at] === b[at + 1] && a[at + 1] === b[at] && a.slice(at + 2) === b.slice(at + 2);
}

/**
 * The concept of a word of five letters or more typed one letter off a word of the table, or with
 * two letters swapped; undefined when none is that near, or more than one concept is.
 */
function nearConcept(word: string): string | undefined {
  if (word.length < 5) return undefined;
  if (nearSeen.has(word)) return nearSeen.get(word) ?? undefined;
  // The words read are remembered, up to a bound: a long message repeats its words.
  if (nearSeen.size >= NEAR_SEEN_MAX) nearSeen.clear();
  const found = nearest(word);
  nearSeen.set(word, found ?? null);
  return found;
}

/** Words already compared with the table, and what they were near (null: nothing). */
const nearSeen = new Map<string, string | null>();
const NEAR_SEEN_MAX = 5000;

function nearest(word: string): string | undefined {
  const oneOff = word.length >= 6;
  const near = new Set<string>();
  for (const known of CONCEPT_WORDS)
    if (
      Math.abs(known.length - word.length) <= 1 &&
      (swapped(word, known) || (oneOff && distance(word, known) === 1))
    )
      near.add(CONCEPT_OF.get(known)!);
  return near.size === 1 ? [...near][0] : undefined;
}

interface Key {
  key: string;
  /** The words of the text it was read from (indices into the word list). */
  from: number;
  to: number;
}

/** The concepts and stems of a text's words: phrases of two words first, then single words. */
function keys(list: readonly Word[]): Key[] {
  const result: Key[] = [];
  for (let i = 0; i < list.length; i += 1) {
    const word = withoutElision(list[i]!.folded);
    const next = list[i + 1];
    const pair = next && CONCEPT_OF.get(`${word} ${withoutElision(next.folded)}`);
    if (pair) {
      result.push({ key: `#${pair}`, from: i, to: i + 1 });
      i += 1;
      continue;
    }
    if (GENERIC.has(word) || word.length < 2) continue;
    // "it" is IT only when written so; otherwise the pronoun.
    if (word === 'it' && list[i]!.raw !== 'IT') continue;
    const concept = CONCEPT_OF.get(word) ?? (/^\p{L}+$/u.test(word) ? nearConcept(word) : undefined);
    if (concept) {
      result.push({ key: `#${concept}`, from: i, to: i });
      continue;
    }
    if (word.length < 4 || /\d/.test(word)) continue;
    result.push({ key: `en:${en.stemWord(word)}`, from: i, to: i });
    result.push({ key: `fr:${fr.stemWord(word)}`, from: i, to: i });
  }
  return result;
}

interface ReadTemplate {
  choice: TemplateChoice;
  name: ReadonlySet<string>;
  description: ReadonlySet<string>;
}

/** Templates read once per list of templates (the same list object is read once). */
const readCache = new WeakMap<readonly TemplateChoice[], ReadTemplate[]>();

function read(templates: readonly TemplateChoice[]): ReadTemplate[] {
  const cached = readCache.get(templates);
  if (cached) return cached;
  const result = templates.map((choice) => ({
    choice,
    name: new Set(keys(words(choice.name)).map((key) => key.key)),
    description: new Set(keys(words(choice.description)).map((key) => key.key)),
  }));
  readCache.set(templates, result);
  return result;
}

/** Words that name two kinds of team at once: "affaire" is a client's deal or a legal case. */
const AMBIGUOUS = new Set(['affaire', 'affaires']);

const NAME_WEIGHT = 1;
const DESCRIPTION_WEIGHT = 0.35;
/** A word only one template's description holds says which template as much as a word of a name. */
const DISTINCT_WEIGHT = 0.5;
/** A template must share at least this much with the message to be named. */
const MIN_SCORE = 0.5;

/**
 * The templates a message's words point at, best first: a share of 0..1 of how much of the
 * template's name the message names (concepts count once), with its description adding less.
 */
export function matchTemplates(
  list: readonly Word[],
  templates: readonly TemplateChoice[],
  skip: ReadonlySet<number> = new Set(),
  /** Whether a template's description counts: not for a question about one template, which names it. */
  descriptions = true,
): TemplateMatch[] {
  const message = keys(list).filter((key) => !skip.has(key.from));
  if (message.length === 0) return [];
  const matches: TemplateMatch[] = [];
  const raw = new Map<string, number>();
  const readTemplates = read(templates);
  const only = distinctive(readTemplates);
  for (const template of readTemplates) {
    let score = 0;
    const used = new Set<number>();
    const seen = new Set<string>();
    for (const key of message) {
      let weight = 0;
      if (template.name.has(key.key)) weight = NAME_WEIGHT;
      else if (descriptions && template.description.has(key.key))
        weight = only.has(key.key) ? DISTINCT_WEIGHT : DESCRIPTION_WEIGHT;
      if (!weight) continue;
      // "project" says less than "client" or "legal" in "a client project".
      if (key.key === '#project') weight *= 0.8;
      // A word of two kinds ("affaire": a client's or a legal one) says less than one of one kind.
      if (key.from === key.to && AMBIGUOUS.has(withoutElision(list[key.from]!.folded))) weight *= 0.6;
      for (let i = key.from; i <= key.to; i += 1) used.add(i);
      // A concept counts once; a word read as both an English and a French stem counts once.
      if (seen.has(key.key) || seen.has(`@${key.from}`)) continue;
      seen.add(key.key);
      seen.add(`@${key.from}`);
      score += weight;
    }
    if (score < MIN_SCORE) continue;
    // The more of the template's name the message names, the surer: a share of its name's ideas.
    const share = Math.min(1, score / Math.sqrt(Math.max(1, conceptCount(template.name))));
    const indices = [...used].sort((a, b) => a - b);
    const because = indices.map((i) => list[i]!.raw).join(' ');
    matches.push({ id: template.choice.id, because, score: Math.round(share * 100) / 100 });
    raw.set(template.choice.id, score);
  }
  // Equal shares (both names fully named): the one the message says more of comes first.
  return matches.sort((a, b) => b.score - a.score || (raw.get(b.id) ?? 0) - (raw.get(a.id) ?? 0));
}

const distinctCache = new WeakMap<readonly ReadTemplate[], ReadonlySet<string>>();

/** The words of the catalog that only one template's name or description holds. */
function distinctive(templates: readonly ReadTemplate[]): ReadonlySet<string> {
  const cached = distinctCache.get(templates);
  if (cached) return cached;
  const count = new Map<string, number>();
  for (const template of templates)
    for (const key of new Set([...template.name, ...template.description]))
      count.set(key, (count.get(key) ?? 0) + 1);
  const result = new Set([...count].filter(([, n]) => n === 1).map(([key]) => key));
  distinctCache.set(templates, result);
  return result;
}

/** How many distinct ideas a template's name holds (a word's two stems count once). */
function conceptCount(name: ReadonlySet<string>): number {
  let count = 0;
  for (const key of name) if (!key.startsWith('fr:')) count += 1;
  return count;
}

/** Whether a folded word names a kind of team in the synonym table ("legal", "projet", "deal"). */
export function isConcept(folded: string): boolean {
  return CONCEPT_OF.has(folded);
}

/** The concept a folded word names in the synonym table ("deal" → "client"), or undefined. */
export function conceptOf(folded: string): string | undefined {
  return CONCEPT_OF.get(folded);
}

const nameWordsCache = new WeakMap<readonly TemplateChoice[], ReadonlySet<string>>();

/** The folded words of the offered templates' names ("contoso", "france"): never a person's name. */
export function templateNameWords(templates: readonly TemplateChoice[]): ReadonlySet<string> {
  const cached = nameWordsCache.get(templates);
  if (cached) return cached;
  const result = new Set<string>();
  for (const template of templates) for (const word of words(template.name)) result.add(word.folded);
  nameWordsCache.set(templates, result);
  return result;
}
