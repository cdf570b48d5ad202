/**
 * The first `token` in `source` from `start` that is not inside a quoted string ('…' or "…", with
 * backslash escapes), or -1 (none, or the quotes do not balance before it).
 */
export function indexOutsideQuotes(source: string, token: string, start = 0): number {
  let quote = '';
  for (let i = start; i < source.length; i++) {
    const char = source[i];
    if (quote) {
      if (char === '\\') i++;
      else if (char === quote) quote = '';
    } else if (source.startsWith(token, i)) {
      return i;
    } else if (char === "'" || char === '"') {
      quote = char;
    }
  }
  return -1;
}
