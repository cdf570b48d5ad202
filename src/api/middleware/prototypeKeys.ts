import { ValidationFailed } from '../../domain/errors';

/**
 * Refuses a parsed JSON body holding a `__proto__` key at any depth. `JSON.parse` keeps such a key
 * as data, but the first plain assignment (a schema copying a record, a merge) turns it into the
 * object's prototype: the key vanishes from a stored document, and a query `{"__proto__": …}`
 * becomes `{}`, which matches everything. `constructor` and `prototype` are ordinary own keys
 * everywhere and stay allowed.
 *
 * The walk uses its own stack, so a deeply nested body cannot overflow the call stack; bodies that
 * cannot spell the key are not walked at all: without a `\u` escape, JSON can spell `__proto__`
 * only as itself (no other escape gives a letter or `_`), and a word such as `protocol` (every MCP
 * request of the 2026 revision names its `protocolVersion`) is no reason to walk.
 */
export function refusePrototypeKeys(value: unknown, text: string): void {
  if (!text.includes('__proto__') && !text.includes('\\u')) return;
  const stack: Array<{ node: unknown; path: string }> = [{ node: value, path: 'body' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      node.forEach((child, index) => stack.push({ node: child, path: `${path}[${index}]` }));
      continue;
    }
    for (const key of Object.keys(node)) {
      if (key === '__proto__') {
        throw new ValidationFailed('The request body holds a "__proto__" key.', [
          {
            code: 'forbiddenKey',
            target: `${path}.__proto__`,
            message: '"__proto__" is not allowed as a key: it would be dropped or change the object.',
          },
        ]);
      }
      stack.push({ node: (node as Record<string, unknown>)[key], path: `${path}.${key}` });
    }
  }
}
