import { jsonEqual, jsonValuesAtMost } from '../../src/lib/jsonEqual';

describe('jsonEqual', () => {
  test('equal documents, whatever the order of their members', () => {
    const a = JSON.parse('{"v":"2026-07-28","info":{"name":"x","version":"1"},"caps":{}}');
    const b = JSON.parse('{"caps":{},"info":{"version":"1","name":"x"},"v":"2026-07-28"}');
    expect(jsonEqual(a, b)).toBe(true);
    expect(jsonEqual([1, 'a', null], [1, 'a', null])).toBe(true);
    expect(jsonEqual(undefined, undefined)).toBe(true);
  });

  test.each([
    ['a member changed', { a: { b: 1 } }, { a: { b: 2 } }],
    ['a member more', { a: 1 }, { a: 1, b: 2 }],
    ['a member missing but as many', { a: 1, b: undefined }, { a: 1, c: 2 }],
    ['items in another order', [1, 2], [2, 1]],
    ['an array against an object with its keys', ['x'], { 0: 'x' }],
    ['a string against a number', { a: '1' }, { a: 1 }],
    ['null against an object', null, {}],
    ['absent against empty', undefined, {}],
  ])('unequal: %s', (_name, a, b) => {
    expect(jsonEqual(a, b)).toBe(false);
    expect(jsonEqual(b, a)).toBe(false);
  });

  test('past its budget the answer is undefined, not a walk of the whole document', () => {
    const big = { items: Array.from({ length: 1000 }, (_, i) => ({ i })) };
    expect(jsonEqual(big, structuredClone(big), 64)).toBeUndefined();
    expect(jsonEqual(big, structuredClone(big), 5000)).toBe(true);
  });

  test('a document nested thousands deep is compared without overflowing the stack', () => {
    const nested = (depth: number, end: string) => {
      let value: unknown = end;
      for (let i = 0; i < depth; i++) value = [value];
      return value;
    };
    expect(jsonEqual(nested(100_000, 'end'), nested(100_000, 'end'), 300_000)).toBe(true);
    expect(jsonEqual(nested(100_000, 'end'), nested(100_000, 'other'), 300_000)).toBe(false);
  });
});

describe('jsonValuesAtMost', () => {
  test('counts the value, its members and items at every depth', () => {
    expect(jsonValuesAtMost(undefined, 1)).toBe(true);
    expect(jsonValuesAtMost({ a: 1, b: [2, 3] }, 5)).toBe(true);
    expect(jsonValuesAtMost({ a: 1, b: [2, 3] }, 4)).toBe(false);
  });
});
