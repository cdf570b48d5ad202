/**
 * When two teams are alike enough that someone asking for one should first see the other (issue
 * 27, "no duplicate teams"). Pure and bounded: names and descriptions are cut to a fixed length and
 * a fixed number of words before anything is compared, so one comparison costs at most
 * `MAX_WORDS² × MAX_WORD_LENGTH²` steps whatever the input; comparing a request with N teams is
 * linear in N.
 *
 * Names are compared on words, accent- and case-insensitively: "Équipe Contoso" and "equipe
 * contoso" are the same words. Words every team name carries ("team", "project", "équipe", the
 * usual prefixes a naming convention adds such as "PRJ") say nothing about what a team is for, so
 * they are left out. Two words match when they are equal, or when both are long (5 letters and
 * more) and differ by one edit (two from 9 letters): "Mercury" and "Mercuri" match, "Atlas" and
 * "Atlantic" do not. The name score is Sørensen–Dice over matched words. The purpose is the
 * template and the description's words: the same template with descriptions sharing most of their
 * words makes teams alike even under different names.
 *
 * The thresholds come from the labelled pairs of `test/domain/similarTeams.test.ts`.
 */

/** Longest text looked at: a team name (256) or a description (1024), cut beyond. */
const MAX_TEXT = 1024;
/** Words looked at per text. */
const MAX_WORDS = 32;
/** Longest word compared letter by letter (longer words are compared on their first letters). */
const MAX_WORD_LENGTH = 32;

/** Name score from which two names are alike. */
export const NAME_THRESHOLD = 0.6;
/** Description score from which two teams of the same template are alike by purpose. */
export const PURPOSE_THRESHOLD = 0.5;
/** Fewest shared description words for teams to be alike by purpose. */
const PURPOSE_MIN_SHARED = 3;

/**
 * Words that name no purpose: what team names and descriptions commonly add in English and French,
 * and the prefixes of the seeded naming conventions.
 */
const STOP_WORDS: ReadonlySet<string> = new Set([
  // English
  'a',
  'an',
  'and',
  'at',
  'by',
  'for',
  'from',
  'in',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
  'our',
  'team',
  'teams',
  'project',
  'projects',
  'group',
  'groups',
  'workspace',
  'channel',
  'new',
  // French
  'au',
  'aux',
  'de',
  'des',
  'du',
  'en',
  'et',
  'la',
  'le',
  'les',
  'l',
  'd',
  'pour',
  'sur',
  'un',
  'une',
  'equipe',
  'equipes',
  'projet',
  'projets',
  'groupe',
  'groupes',
  'espace',
  // Convention prefixes
  'prj',
  'proj',
  'grp',
  'tm',
]);

/** The words of a text that may say what it is for: accents and case folded, stop words left out. */
export function significantWords(text: string): string[] {
  const cut = text.slice(0, MAX_TEXT);
  // Plain ASCII (most names) needs no Unicode folding: the same words, several times faster.
  const ascii = PLAIN_ASCII.test(cut);
  const folded = ascii
    ? cut.toLowerCase()
    : cut
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase();
  const words: string[] = [];
  for (const word of folded.split(ascii ? ASCII_SEPARATORS : SEPARATORS)) {
    if (word === '' || STOP_WORDS.has(word)) continue;
    const short = word.slice(0, MAX_WORD_LENGTH);
    if (!words.includes(short)) words.push(short);
    if (words.length === MAX_WORDS) break;
  }
  return words;
}

const PLAIN_ASCII = /^[\x20-\x7e]*$/;
const ASCII_SEPARATORS = /[^a-z0-9]+/;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * Levenshtein distance of two short words, giving up (returning `limit + 1`) once it must exceed
 * `limit`. Written here rather than taken from a package: the domain imports no package but zod,
 * jsep and jose, and words are at most 32 letters.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (b.length > MAX_WORD_LENGTH) return editDistance(a, b.slice(0, MAX_WORD_LENGTH), limit);
  // Two rows reused from call to call: a scan of thousands of teams allocates nothing here.
  let previous = ROW_A;
  let current = ROW_B;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current[j] = value;
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

const ROW_A = new Int32Array(MAX_WORD_LENGTH + 1);
const ROW_B = new Int32Array(MAX_WORD_LENGTH + 1);

/** Whether two significant words are the same word, give or take a typing slip. */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 5) return false;
  const allowed = shorter >= 9 ? 2 : 1;
  return editDistance(a, b, allowed) <= allowed;
}

/** Sørensen–Dice over words matched one to one: 1 for the same words, 0 for none in common. */
function wordScore(a: readonly string[], b: readonly string[]): { score: number; shared: number } {
  if (a.length === 0 || b.length === 0) return { score: 0, shared: 0 };
  const used = new Set<number>();
  let shared = 0;
  for (const word of a) {
    const index = b.findIndex((other, i) => !used.has(i) && sameWord(word, other));
    if (index >= 0) {
      used.add(index);
      shared++;
    }
  }
  return { score: (2 * shared) / (a.length + b.length), shared };
}

/** How alike two team names are, from 0 to 1. */
export function nameSimilarity(a: string, b: string): number {
  return wordScore(significantWords(a), significantWords(b)).score;
}

/** What a team is compared on. */
export interface TeamLikeness {
  name: string;
  description?: string | null;
  templateId?: string | null;
}

/** Why two teams are alike, and how much (0 to 1, for ordering); undefined when they are not. */
export interface Similarity {
  score: number;
  reason: 'name' | 'purpose';
}

/** A team's words, folded once: what a scan compares each candidate with. */
interface Prepared {
  name: string[];
  /** The description's words, computed only when a purpose is compared. */
  description: () => string[];
  templateId: string | null;
}

function prepare(team: TeamLikeness): Prepared {
  let description: string[] | undefined;
  return {
    name: significantWords(team.name),
    description: () => (description ??= significantWords(team.description ?? '')),
    templateId: team.templateId ?? null,
  };
}

/** Whether `candidate` is alike `wanted` by name or by purpose, and how much. */
export function similarity(wanted: TeamLikeness, candidate: TeamLikeness): Similarity | undefined {
  return preparedSimilarity(prepare(wanted), candidate);
}

function preparedSimilarity(wanted: Prepared, candidate: TeamLikeness): Similarity | undefined {
  const name = wordScore(wanted.name, significantWords(candidate.name)).score;
  const sameTemplate = !!wanted.templateId && wanted.templateId === candidate.templateId;
  // A purpose needs shared description words: with the name alike already, they only order.
  const purpose =
    sameTemplate && wanted.description().length > 0
      ? wordScore(wanted.description(), significantWords(candidate.description ?? ''))
      : { score: 0, shared: 0 };
  if (name >= NAME_THRESHOLD)
    return { score: Math.min(1, name + (sameTemplate ? 0.05 : 0) + purpose.score * 0.1), reason: 'name' };
  if (purpose.score >= PURPOSE_THRESHOLD && purpose.shared >= PURPOSE_MIN_SHARED)
    return { score: Math.min(0.59, 0.3 + purpose.score * 0.25 + name * 0.2), reason: 'purpose' };
  return undefined;
}

/** The candidates alike `wanted`, most alike first, at most `limit`. */
export function mostSimilar<T extends TeamLikeness>(
  wanted: TeamLikeness,
  candidates: readonly T[],
  limit: number,
): Array<{ candidate: T; similarity: Similarity }> {
  const alike: Array<{ candidate: T; similarity: Similarity }> = [];
  const prepared = prepare(wanted);
  for (const candidate of candidates) {
    const found = preparedSimilarity(prepared, candidate);
    if (found) alike.push({ candidate, similarity: found });
  }
  return alike.sort((x, y) => y.similarity.score - x.similarity.score).slice(0, limit);
}

/**
 * Whether a team's name answers a directory search: alike it (`similarity`), or holding every
 * significant word of the search at the start of one of its words ("merc" finds "Mercury launch").
 */
export function answersSearch(search: string, name: string): boolean {
  const wanted = significantWords(search);
  if (wanted.length === 0) return false;
  if (nameSimilarity(search, name) >= NAME_THRESHOLD) return true;
  const words = significantWords(name);
  return wanted.every((word) => words.some((other) => other.startsWith(word)));
}
