import { isDeepStrictEqual } from 'node:util';
import { type ErrorDetail, ValidationFailed } from './errors';
import { TEAM_READ_ONLY_FIELDS, type Team, type TeamChange, type TeamUpdate } from '../contract';

/**
 * What a `PATCH /teams/{id}` body changes in `current`. Clients often send back the Team exactly
 * as GET returned it: read-only fields are accepted when equal to the current value and dropped,
 * and any that differs is a 400 naming it. Writable fields equal to the current value are dropped
 * too, so the change (and its audit record) lists only what really changes. A `description` of
 * null, as GET shows a team without one, clears it.
 */
export function teamChangeOf(update: TeamUpdate, current: Team): TeamChange {
  const details: ErrorDetail[] = [];
  for (const field of TEAM_READ_ONLY_FIELDS) {
    if (update[field] !== undefined && !isDeepStrictEqual(update[field], current[field])) {
      details.push({
        code: 'readOnly',
        target: `body.${field}`,
        message: `${field} is read-only: send the current value (${JSON.stringify(current[field])}) or leave it out.`,
      });
    }
  }
  if (details.length > 0) throw new ValidationFailed('The request changes read-only fields.', details);
  const change: Record<string, unknown> = {};
  const readOnly = new Set<string>(TEAM_READ_ONLY_FIELDS);
  for (const [field, value] of Object.entries(update)) {
    if (value === undefined || readOnly.has(field)) continue;
    const wanted = field === 'description' && value === null ? '' : value;
    const now = (current as Record<string, unknown>)[field];
    if (isDeepStrictEqual(wanted, now) || (field === 'description' && wanted === '' && now === null))
      continue;
    change[field] = wanted;
  }
  return change as TeamChange;
}
