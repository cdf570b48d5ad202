/**
 * The one text rule of every request: no control characters in any string or key. PostgreSQL
 * refuses U+0000 outright (a raw database error, then a 500), and the others (escape sequences,
 * backspace, bell) have no place in names, ids or descriptions and only serve to mislead whoever
 * later reads the text.
 *
 * Two variants. A single-line field (a name, a display name, an id, a URL, a query parameter, any
 * key) refuses tab and line breaks too: Teams and Graph show names on one line, and a line break in
 * one forges extra lines in whatever lists it. A field the wire schema marks `multiLine` (a
 * description, a welcome message, an approver's message, a rule) keeps tab, line feed and
 * carriage return (`multiLine` in `wire/registry.ts`); so does free-form JSON (metadata documents), which has no schema to say.
 * Single-line is the default, so a new field is strict until its schema says otherwise.
 *
 * The same walk refuses text that is not well-formed Unicode: a lone surrogate (`"\ud800"` in JSON)
 * has no UTF-8 form, so PostgreSQL refuses it (another raw database error) and Graph cannot show it.
 *
 * And the format characters (Unicode category Cf) that change how text reads rather than what it
 * says: the bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
 * U+202A–U+202E, U+2066–U+2069; Unicode's bidirectional algorithm, UAX #9), with which
 * `RTL\u202Egnp.exe` shows as `RTLexe.png` (the "Trojan Source" trick, CVE-2021-42574); the
 * deprecated shaping and digit-shape controls (U+206A–U+206F), and the interlinear annotation
 * characters (U+FFF9–U+FFFB), which hide text between them. The rest of Cf stays allowed, as
 * text needs it: the zero-width joiner and non-joiner (U+200D, U+200C) shape Arabic, Persian and
 * Indic words and join emoji sequences (👩‍💻), tag characters (U+E0020–U+E007F) spell
 * subdivision flags, the soft hyphen and the Arabic number signs are written text.
 *
 * Property names are looked up as the schema's own keys only: `constructor` or `toString` in a
 * request is an unknown field like any other, never a function found on the prototype.
 */
import { z } from 'zod';
import { MULTI_LINE } from '../contract/registry';

// Multi-line text: C0 controls but tab (09), line feed (0A) and carriage return (0D); DEL; C1;
// (with the `u` flag, a pair being one code point above U+FFFF) a surrogate standing alone; and
// the format characters that change how text reads (see above).
const CONTROL =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ud800-\udfff\u061c\u200e\u200f\u202a-\u202e\u2066-\u206f\ufff9-\ufffb]/u;
// Single-line text: every C0 control, DEL and C1, lone surrogates, and the same format characters.
const LINE_CONTROL =
  /[\u0000-\u001f\u007f-\u009f\ud800-\udfff\u061c\u200e\u200f\u202a-\u202e\u2066-\u206f\ufff9-\ufffb]/u;

/** What a refused character is: a control, half of a surrogate pair, or a format character that changes how text reads. */
export type RefusedKind = 'control' | 'loneSurrogate' | 'formatCharacter';

function kindOf(codePoint: number): RefusedKind {
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return 'loneSurrogate';
  return codePoint <= 0x9f ? 'control' : 'formatCharacter';
}

/**
 * A refused character: where (a dotted path), its code, whether the field was single-line, and
 * what it is (`loneSurrogate`: text that is not well-formed Unicode).
 */
export interface ControlCharacter {
  target: string;
  codePoint: number;
  singleLine: boolean;
  loneSurrogate: boolean;
  kind: RefusedKind;
}

/** The first character of `text` a one-line field (or, `singleLine` false, a multi-line one) refuses. */
export function refusedCharacterOf(
  text: string,
  singleLine = true,
): { index: number; codePoint: number; loneSurrogate: boolean; kind: RefusedKind } | undefined {
  const found = (singleLine ? LINE_CONTROL : CONTROL).exec(text);
  if (!found) return undefined;
  const codePoint = found[0].charCodeAt(0);
  const kind = kindOf(codePoint);
  return { index: found.index, codePoint, loneSurrogate: kind === 'loneSurrogate', kind };
}

/**
 * Where the first refused character of `value` is, read against `schema` (the route's schema of
 * that part of the request), or undefined.
 */
export function findControlCharacter(
  value: unknown,
  path: string,
  schema: z.ZodType,
): ControlCharacter | undefined {
  return walk(value, path, candidates(schema));
}

/** The schemas a value may be read against; `undefined` means free-form JSON (no schema). */
type Candidates = readonly z.ZodType[] | undefined;

function walk(value: unknown, path: string, schemas: Candidates): ControlCharacter | undefined {
  if (typeof value === 'string') return check(value, path, !isMultiLine(schemas));
  if (typeof value !== 'object' || value === null) return undefined;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    const target = path ? `${path}.${key}` : key;
    const found =
      (Array.isArray(value) ? undefined : check(key, target, true)) ??
      walk(child, target, childOf(schemas, key, Array.isArray(value)));
    if (found) return found;
  }
  return undefined;
}

function check(text: string, target: string, singleLine: boolean): ControlCharacter | undefined {
  const found = refusedCharacterOf(text, singleLine);
  return found
    ? { target, codePoint: found.codePoint, singleLine, loneSurrogate: found.loneSurrogate, kind: found.kind }
    : undefined;
}

function isMultiLine(schemas: Candidates): boolean {
  return !schemas || schemas.some((s) => z.globalRegistry.get(s)?.[MULTI_LINE] === true);
}

/** The schemas of a child: an object's property, a record's value, an array's element. */
function childOf(schemas: Candidates, key: string, inArray: boolean): Candidates {
  if (!schemas) return undefined;
  const children: z.ZodType[] = [];
  for (const schema of schemas) {
    const def = schema._zod.def as unknown as Record<string, unknown>;
    let child: unknown;
    if (inArray && def.type === 'array') child = def.element;
    else if (def.type === 'object') {
      const shape = def.shape as Record<string, unknown>;
      child = Object.hasOwn(shape, key) ? shape[key] : def.catchall;
    } else if (def.type === 'record') child = def.valueType;
    else if (def.type === 'unknown' || def.type === 'any') return undefined;
    if (child) {
      const found = candidates(child as z.ZodType);
      if (!found) return undefined;
      children.push(...found);
    }
  }
  return children;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

/**
 * The schemas that say what a value may be: wrappers (optional, default, …) and the input side of
 * a transform unwrapped, unions spread out. `undefined` when any of them takes free-form JSON.
 */
function candidates(schema: z.ZodType): Candidates {
  if (z.globalRegistry.get(schema)?.[MULTI_LINE] === true) return [schema];
  const def = schema._zod.def as unknown as Record<string, unknown>;
  const type = def.type as string;
  if (type === 'unknown' || type === 'any') return undefined;
  if (WRAPPERS.has(type)) return candidates(def.innerType as z.ZodType);
  if (type === 'pipe') return candidates(def.in as z.ZodType);
  if (type === 'lazy') return candidates((def.getter as () => z.ZodType)());
  if (type === 'union') {
    const all: z.ZodType[] = [];
    for (const option of def.options as z.ZodType[]) {
      const found = candidates(option);
      if (!found) return undefined;
      all.push(...found);
    }
    return all;
  }
  return [schema];
}
