import type { StewardClient, User } from '../../client';
import type { DirectoryPerson, PersonMatch, PersonMention } from './types';

/**
 * Who a mention is among the people the directory's searches found (the understanding engine's
 * `matchPeople`, passed in): one sure match, several when ambiguous, none when unknown.
 */
export type PeopleMatcher = (mention: PersonMention, candidates: readonly DirectoryPerson[]) => PersonMatch;

/** The searches (`GET /users?$search=`, a prefix of a name, mail or UPN) to run for one mention. */
export type DirectoryQueries = (mention: PersonMention) => readonly string[];

/** People a message may name and be looked up; any further ones are left out (unknown). */
export const MAX_MENTIONS = 10;

/** Searches per mention, people per search, and the longest search sent (the picker's own limit). */
const MAX_QUERIES = 3;
const SEARCH_TOP = 10;
const MAX_QUERY_LENGTH = 100;

/**
 * The searches for a mention when the engine gives none: the name as written and, for a name of
 * several words, its first word ("Megan B." finds Megan Bowen), since the directory searches prefixes.
 */
export function plainQueries(mention: PersonMention): string[] {
  const text = mention.text.trim();
  const first = text.split(/\s+/)[0] ?? '';
  return first && first !== text ? [text, first] : [text];
}

/** A directory user as the understanding feature reads people. */
function personOf(user: User): DirectoryPerson {
  return { id: user.id, displayName: user.displayName, mail: user.mail || null };
}

/**
 * Asks the directory who each mention may be, as the person behind `api` (so the directory shows
 * them what it shows them in the people picker), then lets `match` decide among the people found.
 * Searches repeated across mentions are sent once; a mention with no usable search, or past
 * {@link MAX_MENTIONS}, is unknown (no match) without a call. A failing search fails the whole
 * lookup, as any call of a conversation does.
 */
export async function resolvePeople(
  api: StewardClient,
  mentions: readonly PersonMention[],
  match: PeopleMatcher,
  queries: DirectoryQueries = plainQueries,
): Promise<PersonMatch[]> {
  const searches = new Map<string, Promise<DirectoryPerson[]>>();
  const search = (query: string): Promise<DirectoryPerson[]> => {
    const key = query.toLowerCase();
    let found = searches.get(key);
    if (!found) {
      found = api.getUsers({ search: query, top: SEARCH_TOP }).then((page) => page.value.map(personOf));
      searches.set(key, found);
    }
    return found;
  };
  return Promise.all(
    mentions.map(async (mention, index): Promise<PersonMatch> => {
      // Searches compared as the directory compares them (case aside), the empty ones dropped.
      const wanted = new Map<string, string>();
      for (const query of index < MAX_MENTIONS ? queries(mention) : []) {
        const text = query.trim().slice(0, MAX_QUERY_LENGTH);
        if (text && !wanted.has(text.toLowerCase())) wanted.set(text.toLowerCase(), text);
      }
      const sent = [...wanted.values()].slice(0, MAX_QUERIES);
      if (sent.length === 0) return { mention, matches: [], ambiguous: false };
      const candidates = new Map<string, DirectoryPerson>();
      for (const people of await Promise.all(sent.map(search)))
        for (const person of people) candidates.set(person.id, person);
      return match(mention, [...candidates.values()]);
    }),
  );
}
