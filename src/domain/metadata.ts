import type { ErrorDetail } from './errors';

/** A JSON value as metadata documents hold them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A metadata document: a JSON object. */
export type JsonObject = { [key: string]: Json };

/** The largest metadata document, serialised as JSON (64 KiB). */
export const MAX_DOCUMENT_BYTES = 64 * 1024;
/** The deepest nesting of objects and arrays a document or query may have. */
export const MAX_DEPTH = 32;
/** A namespace: 1–64 letters, digits, `.`, `_` or `-`. */
export const NAMESPACE_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Why `value` cannot be stored as a metadata document or used as a query (empty when it can): too
 * large, too deep, or a string holding U+0000 (which PostgreSQL's jsonb cannot store).
 */
export function documentProblems(value: JsonObject, target: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (bytes > MAX_DOCUMENT_BYTES) {
    problems.push({
      code: 'tooLarge',
      target,
      message: `The document is ${bytes} bytes as JSON; at most ${MAX_DOCUMENT_BYTES} are allowed.`,
    });
  }
  const walk = (node: Json, depth: number): string | undefined => {
    if (typeof node === 'string') return node.includes('\u0000') ? 'A string holds U+0000.' : undefined;
    if (node === null || typeof node !== 'object') return undefined;
    if (depth > MAX_DEPTH) return `Objects and arrays nest deeper than ${MAX_DEPTH} levels.`;
    for (const [key, child] of Array.isArray(node) ? node.entries() : Object.entries(node)) {
      if (typeof key === 'string' && key.includes('\u0000')) return 'A key holds U+0000.';
      const problem = walk(child, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  };
  const problem = walk(value, 1);
  if (problem) problems.push({ code: 'invalidValue', target, message: problem });
  return problems;
}

/**
 * `patch` merged into `doc`: objects merge recursively, arrays and scalars replace, and `null`
 * deletes the key. Neither argument is changed.
 */
export function deepMerge(doc: JsonObject, patch: JsonObject): JsonObject {
  const merged = new Map<string, Json>(Object.entries(doc));
  for (const [key, value] of Object.entries(patch)) {
    const current = merged.get(key);
    if (value === null) merged.delete(key);
    else if (isJsonObject(value) && current !== undefined && isJsonObject(current))
      merged.set(key, deepMerge(current, value));
    else if (isJsonObject(value)) merged.set(key, withoutNulls(value));
    else merged.set(key, value);
  }
  // fromEntries defines own properties, so a `__proto__` key stays data rather than a prototype.
  return Object.fromEntries(merged) as JsonObject;
}

/** A new object's keys set to `null` mean "absent", as they would when merged into an existing one. */
function withoutNulls(value: JsonObject): JsonObject {
  return deepMerge({}, value);
}

/**
 * True when `doc` contains `query` the way PostgreSQL's jsonb `@>` decides it: objects contain
 * every key of the query with a contained value, arrays contain an element containing each query
 * element, scalars are equal (same type and value).
 */
export function contains(doc: Json, query: Json): boolean {
  if (Array.isArray(query)) {
    if (!Array.isArray(doc)) return false;
    return query.every((wanted) => doc.some((element) => contains(element, wanted)));
  }
  if (isJsonObject(query)) {
    if (!isJsonObject(doc)) return false;
    return Object.entries(query).every(
      ([key, wanted]) => Object.prototype.hasOwnProperty.call(doc, key) && contains(doc[key]!, wanted),
    );
  }
  return doc === query;
}

/** One scalar of a document and where it sits: `path` names object keys and array levels (`[]`). */
export interface Leaf {
  path: string;
  /** The scalar, JSON-encoded (`1` and `"1"` differ). */
  value: string;
}

/**
 * Every scalar of `doc` with its path, e.g. `{a: {b: [1, {c: true}]}}` gives `a.b[]` = `1` and
 * `a.b[].c` = `true`. A document containing a query has every leaf of the query, so leaves index
 * containment (empty objects and arrays have none, so they never narrow a search). Keys are escaped
 * (`\`, `.`, `[`) so that different paths never collide.
 */
export function leaves(doc: JsonObject): Leaf[] {
  const found = new Map<string, Leaf>();
  // `parent` is undefined only for the document itself, so a key `""` still adds a path segment.
  const walk = (node: Json, parent: string | undefined) => {
    const path = parent ?? '';
    if (Array.isArray(node)) {
      for (const element of node) walk(element, `${path}[]`);
    } else if (isJsonObject(node)) {
      for (const [key, child] of Object.entries(node)) {
        const escaped = key.replace(/[\\.[]/g, (c) => `\\${c}`);
        walk(child, parent === undefined ? escaped : `${path}.${escaped}`);
      }
    } else {
      const leaf = { path, value: JSON.stringify(node) };
      found.set(`${leaf.path}\u0000${leaf.value}`, leaf);
    }
  };
  walk(doc, undefined);
  return [...found.values()];
}
