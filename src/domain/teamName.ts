/** Team-name rules checked before any provisioning job is queued (governance.md, "Naming conventions"). */

import { TEAM_NAME_MAX_LENGTH } from '../contract/limits';

export { TEAM_NAME_MAX_LENGTH };

const FORBIDDEN_CHARACTERS: ReadonlySet<string> = new Set(['"', '*', ':', '<', '>', '?', '/', '\\']);

/** Returns why `name` (the final name, after conventions) cannot be a team name, or null if it can. */
export function validateTeamName(name: string): string | null {
  if (name.length === 0) return 'Team name must not be empty.';
  if (name.trim().length === 0) return 'Team name must not be only whitespace.';
  // Code points, not UTF-16 units: an emoji is one character to the person typing it.
  let length = 0;
  for (const character of name) {
    length++;
    if (FORBIDDEN_CHARACTERS.has(character)) {
      return `Team name must not contain the character '${character}' (forbidden: " * : < > ? / \\).`;
    }
  }
  if (length > TEAM_NAME_MAX_LENGTH) {
    return `Team name must be at most ${TEAM_NAME_MAX_LENGTH} characters long (it has ${length}).`;
  }
  return null;
}
