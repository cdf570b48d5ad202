import { randomUUID } from 'node:crypto';

/** Graph's wire conventions the simulator shares: replies, error bodies, paths, OData literals and filters. */

export type Json = Record<string, unknown>;

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export class HttpError extends Error {
  constructor(readonly reply: Reply) {
    super(String((reply.body as { error?: { message?: string } }).error?.message));
  }
}

export function fail(status: number, code: string, message: string): Reply {
  return {
    status,
    body: {
      error: { code, message, innerError: { date: new Date().toISOString(), 'request-id': randomUUID() } },
    },
  };
}

/**
 * The longest group `displayName` Graph takes: the group resource's displayName is "Maximum length
 * is 256 characters" (microsoft-graph-docs-contrib, api-reference/v1.0/resources/group.md).
 */
export const GROUP_DISPLAY_NAME_MAX_LENGTH = 256;

/** Graph's refusal of a group (or a team's group) whose `displayName` is longer than it takes; null if it fits. */
export function displayNameRefusal(displayName: unknown, code = 'Request_BadRequest'): Reply | null {
  if (typeof displayName !== 'string' || Array.from(displayName).length <= GROUP_DISPLAY_NAME_MAX_LENGTH)
    return null;
  return fail(400, code, "Invalid value specified for property 'displayName' of resource 'Group'.");
}

export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(fail(400, 'BadRequest', 'Unable to read JSON request payload.'));
  }
}

export function oauthError(error: string, description: string): Json {
  return { error, error_description: description, error_codes: [], timestamp: new Date().toISOString() };
}

/** `/teams('x')/operations('y')` → `/teams/x/operations/y`; alternate keys keep their parentheses. */
export function normalise(rawPath: string): string {
  const path = decodeURIComponent(rawPath);
  return path.replace(
    /\/(\w+)\('((?:[^']|'')*)'\)/g,
    (_m, segment: string, id: string) => `/${segment}/${id}`,
  );
}

export function unquote(literal: string): string {
  const match = /^'((?:[^']|'')*)'$/.exec(literal);
  return (match?.[1] ?? literal).replace(/''/g, "'");
}

export function settingsIn(body: Json): Record<string, Json> {
  const names = ['memberSettings', 'guestSettings', 'messagingSettings', 'funSettings', 'discoverySettings'];
  return Object.fromEntries(
    names.filter((n) => body[n] && typeof body[n] === 'object').map((n) => [n, body[n] as Json]),
  );
}

/** The `$filter` forms Steward sends: `startsWith(f,'v')`, `f eq 'v'` and `f in ('a','b')`, joined by `or`. */
export function parseFilter(filter: string): (item: Json) => boolean {
  const literal = "'((?:[^']|'')*)'";
  const clause = new RegExp(
    `^\\s*(?:startsWith\\((\\w+),${literal}\\)|(\\w+) eq ${literal}|(\\w+) in \\(([^)]*)\\))\\s*(?:or\\s+|$)`,
    'i',
  );
  const tests: Array<(item: Json) => boolean> = [];
  let rest = filter;
  while (rest.trim()) {
    const m = clause.exec(rest);
    if (!m) throw new HttpError(fail(400, 'BadRequest', `Invalid filter clause: ${rest}`));
    rest = rest.slice(m[0].length);
    const text = (item: Json, field: string) => String(item[field] ?? '').toLowerCase();
    if (m[1]) {
      const [field, prefix] = [m[1], unquote(`'${m[2]}'`).toLowerCase()];
      tests.push((item) => typeof item[field] === 'string' && text(item, field).startsWith(prefix));
    } else if (m[3]) {
      const [field, value] = [m[3], unquote(`'${m[4]}'`).toLowerCase()];
      tests.push((item) => text(item, field) === value);
    } else {
      const field = m[5] as string;
      const values = [...(m[6] ?? '').matchAll(new RegExp(literal, 'g'))].map((v) =>
        unquote(v[0]).toLowerCase(),
      );
      tests.push((item) => values.includes(text(item, field)));
    }
  }
  return (item) => tests.some((test) => test(item));
}
