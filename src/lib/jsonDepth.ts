/**
 * How deeply JSON text nests, read from the text itself before anything parses, walks or
 * stringifies it: recursive code (validation, `JSON.stringify`, comparisons) overflows the stack on
 * documents nested a few thousand levels deep, and no document of this API needs more than a few.
 */

/** Deepest nesting any JSON body may have (objects and arrays both count). */
export const MAX_JSON_DEPTH = 64;

/** The position of the first bracket that passes `limit` levels, or -1 when the text stays within it. */
export function excessiveNesting(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return i;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return -1;
}
