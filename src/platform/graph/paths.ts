import { NotFound } from '../../domain/errors';

/**
 * An id as one path segment. `.` and `..` would be folded away by URL parsing (`/teams/..` is
 * Graph's root), so an id made of dots names nothing.
 */
export function segment(id: string): string {
  if (/^\.*$/.test(id)) throw new NotFound(`"${id}" is not an id`);
  return encodeURIComponent(id);
}

/** Quotes a string as an OData literal: `O'Neil` → `'O''Neil'`. */
export function odataString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
