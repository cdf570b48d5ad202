import { TEAM_NAME_MAX_LENGTH } from '../../client';
import type { MessageKey } from '../i18n/en';
import { DEFAULT_READER, numberFor, type Reader, say } from '../i18n/catalog';

/** Characters Teams refuses in a team name. */
const FORBIDDEN_NAME_CHARACTERS = /["*:<>?/\\]/;

/**
 * Why `name` cannot be a team name (empty, too long, a forbidden character), or null, in the
 * reader's words. `max` is the longest name allowed: Graph's limit, or what a naming convention's
 * additions leave of it. The form's inputs set no `maxLength`, which cut pasted text without a word:
 * a name too long is said, with its length, instead.
 */
export function teamNameProblem(
  name: string,
  reader: Reader = DEFAULT_READER,
  max: number = TEAM_NAME_MAX_LENGTH,
): string | null {
  if (name.trim() === '') return say(reader, 'problem.nameEmpty');
  const length = Array.from(name).length;
  if (length > max) return tooLong(reader, 'problem.nameLong', length, max);
  if (FORBIDDEN_NAME_CHARACTERS.test(name)) return say(reader, 'problem.nameCharacters');
  return null;
}

/** "The team name has 300 characters: keep it to at most 256." */
export function tooLong(reader: Reader, key: MessageKey, length: number, max: number): string {
  return say(reader, key, { count: numberFor(reader, length), max: numberFor(reader, max) });
}
