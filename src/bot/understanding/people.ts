import { distance } from 'fastest-levenshtein';
import { fold } from './text';
import type { DirectoryPerson, PersonMatch, PersonMention } from './types';

/**
 * Who the people named in a message are. A mention matches a person of the directory when each
 * of its words matches a different word of the person's name or mail (no case, no accents, no
 * apostrophes), exactly or within a small edit distance (fastest-levenshtein): one letter for a
 * word of four to six letters, two from seven. The closest people win; more than one is ambiguous.
 */

/** Mentions and directories are read up to these sizes; anything longer is cut. */
const MAX_MENTION_CHARS = 100;
const MAX_WORDS = 6;

function nameWords(text: string): string[] {
  return fold(text.slice(0, MAX_MENTION_CHARS))
    .replace(/['.]/g, '')
    .split(/[\s_-]+/)
    .filter((word) => word.length > 0)
    .slice(0, MAX_WORDS);
}

function allowedTypos(word: string): number {
  if (word.length >= 7) return 2;
  if (word.length >= 4) return 1;
  return 0;
}

const isMail = (text: string) => text.includes('@');

/** The words a person is known by: their name's and their mail's local part's. */
function personWords(person: DirectoryPerson): string[] {
  const words = nameWords(person.displayName);
  if (person.mail)
    for (const word of nameWords(person.mail.split('@')[0] ?? ''))
      if (!words.includes(word)) words.push(word);
  return words;
}

/**
 * How far a mention is from a person: the sum of the edits its words need, or undefined when a word
 * matches none of the person's words. Each of the person's words is used once.
 */
function cost(mention: readonly string[], person: readonly string[]): number | undefined {
  const free = [...person];
  let total = 0;
  for (const word of mention) {
    let best = -1;
    let bestCost = Infinity;
    for (const [i, candidate] of free.entries()) {
      const d = word === candidate ? 0 : distance(word, candidate);
      if (d <= allowedTypos(candidate) && d < bestCost) {
        best = i;
        bestCost = d;
      }
    }
    if (best < 0) return undefined;
    free.splice(best, 1);
    total += bestCost;
  }
  return total;
}

function matchOne(mention: PersonMention, directory: readonly DirectoryPerson[]): PersonMatch {
  const text = mention.text.trim().slice(0, MAX_MENTION_CHARS);
  if (isMail(text)) {
    const wanted = fold(text);
    const local = wanted.split('@')[0] ?? '';
    const exact = directory.filter((person) => person.mail !== null && fold(person.mail) === wanted);
    const found =
      exact.length > 0
        ? exact
        : directory.filter((person) => person.mail !== null && fold(person.mail).split('@')[0] === local);
    return { mention, matches: found, ambiguous: found.length > 1 };
  }
  const words = nameWords(text);
  if (words.length === 0) return { mention, matches: [], ambiguous: false };
  let best = Infinity;
  let matches: DirectoryPerson[] = [];
  for (const person of directory) {
    const c = cost(words, personWords(person));
    if (c === undefined) continue;
    if (c < best) {
      best = c;
      matches = [person];
    } else if (c === best) matches.push(person);
  }
  return { mention, matches, ambiguous: matches.length > 1 };
}

/** Who each mention may be, in the order of the mentions. */
export function matchPeople(
  mentions: readonly PersonMention[],
  directory: readonly DirectoryPerson[],
): PersonMatch[] {
  return mentions.map((mention) => matchOne(mention, directory));
}

/**
 * What to send to the directory's search (`GET /users?$search=`) to find a mention's candidates on
 * a directory that searches by prefix: the name as written, then the first three letters of each
 * of its words (with and without accents), so that a name typed with a typo past its third letter
 * still finds its candidates. For a mail: the mail and its local part.
 */
export function directoryQueries(mention: PersonMention): string[] {
  const text = mention.text.trim().slice(0, MAX_MENTION_CHARS);
  if (!text) return [];
  const queries = new Set<string>([text]);
  if (isMail(text)) {
    const local = text.split('@')[0];
    if (local) queries.add(local);
    return [...queries];
  }
  for (const word of text.split(/[\s'’_-]+/).slice(0, MAX_WORDS)) {
    const letters = [...word];
    if (letters.length < 3) continue;
    const prefix = letters.slice(0, 3).join('');
    queries.add(prefix);
    const plain = prefix.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    queries.add(plain);
  }
  return [...queries];
}
