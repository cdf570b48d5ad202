/**
 * Whether two parsed JSON values are equal: the same members whatever their order, the same items
 * in the same order, the same primitives. At most `budget` values of `a` are compared; past that the
 * answer is undefined, so a caller never walks a large document by accident. Iterative: a deeply
 * nested value cannot overflow the stack. (A dozen lines, so no library: the deep-equal packages
 * compare any JavaScript values, prototypes and cycles included, and bound nothing.)
 */
export function jsonEqual(a: unknown, b: unknown, budget = 64): boolean | undefined {
  const pairs: Array<[unknown, unknown]> = [[a, b]];
  let compared = 0;
  while (pairs.length > 0) {
    if (++compared > budget) return undefined;
    const [x, y] = pairs.pop()!;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(y, key)) return false;
      pairs.push([(x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]]);
    }
  }
  return true;
}

/** Whether a parsed JSON value holds at most `max` values (itself, its members and items, at every depth). */
export function jsonValuesAtMost(value: unknown, max: number): boolean {
  const stack: unknown[] = [value];
  let counted = 0;
  while (stack.length > 0) {
    if (++counted > max) return false;
    const next = stack.pop();
    if (typeof next === 'object' && next !== null) stack.push(...Object.values(next));
  }
  return true;
}
