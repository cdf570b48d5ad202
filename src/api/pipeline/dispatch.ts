import { policyOf } from '../../domain/rbac';
import { API_BASE, type Route } from '../route';
import type { RouteEntry } from './serve';

/** A matched route and its path's parameters. */
export interface Match {
  entry: RouteEntry;
  params: Record<string, string>;
  /** The query string, without its `?`. */
  search: string;
}

interface Compiled {
  entry: RouteEntry;
  /** Each segment below API_BASE: its text, or null for a parameter. */
  segments: (string | null)[];
  names: string[];
}

/**
 * The API's routes by method and number of path segments, to find a request's route without the
 * router's work (the request path's first stage, docs/explanation/request-lifecycle.md). It
 * answers only what it is sure the router would answer the same: a request target under
 * API_BASE of plain characters (no percent-escape, `;`, `#`, backslash, empty segment or trailing
 * slash, no parameter over 100 characters) that matches a route exactly. Anything else is left
 * to the router (404, 405, and every route that is not the API's).
 */
export class RouteTable {
  private readonly byKey = new Map<string, Compiled[]>();

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      const parts = route.path.split('/').slice(1);
      const compiled: Compiled = {
        entry: { route, policy: policyOf(route.operationId) },
        segments: parts.map((part) => (part.startsWith('{') ? null : part)),
        names: parts.filter((part) => part.startsWith('{')).map((part) => part.slice(1, -1)),
      };
      const key = `${route.method.toUpperCase()} ${parts.length}`;
      const list = this.byKey.get(key) ?? [];
      list.push(compiled);
      // The router prefers a fixed segment to a parameter at the first place two paths differ.
      list.sort((a, b) => specificity(a, b));
      this.byKey.set(key, list);
    }
  }

  /** The route of `method` and request target `url`, or undefined when the router must decide. */
  find(method: string | undefined, url: string | undefined): Match | undefined {
    if (
      method === undefined ||
      url === undefined ||
      !url.startsWith(API_BASE) ||
      url.charCodeAt(API_BASE.length) !== SLASH
    )
      return undefined;
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url.slice(API_BASE.length + 1) : url.slice(API_BASE.length + 1, queryAt);
    if (!plain(path)) return undefined;
    const segments = path.split('/');
    const candidates = this.byKey.get(`${method} ${segments.length}`);
    if (!candidates) return undefined;
    for (const candidate of candidates) {
      const params = matchOf(candidate, segments);
      if (params) {
        const search = queryAt < 0 ? '' : url.slice(queryAt + 1);
        const hash = search.indexOf('#');
        return { entry: candidate.entry, params, search: hash < 0 ? search : search.slice(0, hash) };
      }
    }
    return undefined;
  }
}

const SLASH = 0x2f;
const MAX_PARAM_LENGTH = 100;

/** Negative when `a` wins over `b`: a fixed segment before a parameter, at the first difference. */
function specificity(a: Compiled, b: Compiled): number {
  for (let i = 0; i < a.segments.length; i++) {
    const fixedA = a.segments[i] !== null;
    const fixedB = b.segments[i] !== null;
    if (fixedA !== fixedB) return fixedA ? -1 : 1;
  }
  return 0;
}

/** The parameters of `segments` on `candidate`'s path, or undefined when they do not match. */
function matchOf(candidate: Compiled, segments: string[]): Record<string, string> | undefined {
  let params: Record<string, string> | undefined;
  let named = 0;
  for (let i = 0; i < segments.length; i++) {
    const fixed = candidate.segments[i];
    const segment = segments[i]!;
    if (fixed !== null) {
      if (fixed !== segment) return undefined;
    } else {
      if (segment.length > MAX_PARAM_LENGTH) return undefined;
      params ??= {};
      params[candidate.names[named++]!] = segment;
    }
  }
  return params ?? {};
}

/**
 * True for a path of printable ASCII without the characters the router decodes or cuts at
 * (`%`, `;`, `#`, `\`) or quotes, nor an empty segment (`//`, a trailing `/`, an empty path).
 */
function plain(path: string): boolean {
  if (path.length === 0) return false;
  let previous = SLASH;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || UNSAFE[c] === 1) return false;
    if (c === SLASH && previous === SLASH) return false;
    previous = c;
  }
  return previous !== SLASH;
}

const UNSAFE = new Uint8Array(128);
for (const c of '%;#\\"<>`{}|^\'?') UNSAFE[c.charCodeAt(0)] = 1;
