/** Building request URLs: path parameters, query strings, and following `@odata.nextLink`. */

/** The API's path prefix. */
export const API_PREFIX = '/api/v1.0';

/** A query parameter's value; `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | Date | undefined;

/**
 * Fills `{name}` holes of a path template with percent-encoded values. A value that is empty, or
 * `.` / `..` (which URL parsing resolves away, even percent-encoded), is refused rather than sent
 * to another path.
 */
export function expandPath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_hole, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
      throw new TypeError(`Path parameter "${name}" must be a non-empty string other than "." or "..".`);
    }
    return encodeURIComponent(value);
  });
}

/** `?a=1&b=2` from the defined entries of `query` (dates as ISO 8601), or `''` when none. */
export function queryString(query: Readonly<Record<string, QueryValue>> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    search.set(name, value instanceof Date ? value.toISOString() : String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * The path (below the API prefix) and query of a server-sent `@odata.nextLink`, to be requested
 * from the client's own base URL: the link's host is never contacted, so the token goes nowhere
 * else, and a link outside the API is refused.
 */
export function nextLinkPath(nextLink: string): string {
  const url = new URL(nextLink, 'http://next-link.invalid');
  const at = url.pathname.indexOf(`${API_PREFIX}/`);
  if (at < 0) throw new TypeError(`Not a link into the API: ${url.pathname}`);
  return `${url.pathname.slice(at + API_PREFIX.length)}${url.search}`;
}

/** A path below the API prefix: `template` with `params` filled in, then `query`. */
export function apiPath(
  template: string,
  params?: Readonly<Record<string, string>>,
  query?: Readonly<Record<string, QueryValue>>,
): string {
  return `${expandPath(template, params)}${queryString(query)}`;
}
