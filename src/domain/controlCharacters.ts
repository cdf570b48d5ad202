/**
 * The one text rule of every request: no control characters in any string or key, whatever the
 * field. PostgreSQL refuses U+0000 outright (a raw database error, then a 500), and the others
 * (escape sequences, backspace, bell) have no place in names, ids or descriptions and only serve to
 * mislead whoever later reads the text. Tab, line feed and carriage return are kept, since
 * descriptions, welcome messages and metadata are multi-line.
 */

// C0 controls but tab (09), line feed (0A) and carriage return (0D); DEL; the C1 controls.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Where the first refused character is: a dotted path and the character's code, or undefined. */
export function findControlCharacter(
  value: unknown,
  path = '',
): { target: string; codePoint: number } | undefined {
  if (typeof value === 'string') {
    const found = CONTROL.exec(value);
    return found ? { target: path, codePoint: found[0].charCodeAt(0) } : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    const target = path ? `${path}.${key}` : key;
    const inKey = CONTROL.exec(key);
    if (inKey) return { target, codePoint: inKey[0].charCodeAt(0) };
    const inChild = findControlCharacter(child, target);
    if (inChild) return inChild;
  }
  return undefined;
}
