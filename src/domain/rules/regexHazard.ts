/** The check that keeps backtracking-prone patterns out of rules (refused at save time). */
const QUANTIFIER = /[*+?]|\{(\d+)(,(\d*))?\}/y;

/**
 * Conservative star-height check: a repeated group that itself holds a quantifier or an
 * alternation (`(a+)+`, `(a|aa)*`) or any backreference can make backtracking exponential.
 */
export function findRegexHazard(pattern: string): { reason: string; index: number } | undefined {
  const open: { risky: boolean }[] = [];
  let closed: { risky: boolean } | undefined;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    const group = closed;
    closed = undefined;
    if (char === '\\') {
      if (/[1-9k]/.test(pattern[i + 1] ?? '')) return { reason: 'Backreferences are not allowed', index: i };
      i++;
    } else if (char === '[') {
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
    } else if (char === '(') {
      open.push({ risky: false });
      const prefix = /^\?(?:[:=!]|<[=!]|<[^>]*>)/.exec(pattern.slice(i + 1));
      if (prefix) i += prefix[0].length;
    } else if (char === ')') {
      closed = open.pop();
      const parent = open[open.length - 1];
      if (parent && closed?.risky) parent.risky = true;
    } else if (char === '|') {
      const parent = open[open.length - 1];
      if (parent) parent.risky = true;
    } else {
      QUANTIFIER.lastIndex = i;
      const quantifier = QUANTIFIER.exec(pattern);
      if (!quantifier) continue;
      const [text, min, comma, max] = quantifier;
      const repeats =
        min === undefined ? text !== '?' : comma !== undefined && (max === '' || Number(max) > 1);
      if ((repeats || Number(min) > 1) && group?.risky) {
        return { reason: 'Nested quantifiers risk catastrophic backtracking', index: i };
      }
      const parent = open[open.length - 1];
      if (parent) parent.risky = true;
      i += text.length - 1;
      if (pattern[i + 1] === '?') i++;
    }
  }
  return undefined;
}
