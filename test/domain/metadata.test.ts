import {
  contains,
  deepMerge,
  documentProblems,
  NAMESPACE_PATTERN,
  type Json,
  type JsonObject,
  leaves,
  MAX_DOCUMENT_BYTES,
} from '../../src/domain/metadata';

describe('deepMerge', () => {
  test('merges objects recursively, replaces arrays and scalars, and null deletes a key', () => {
    const doc: JsonObject = { a: { b: 1, c: [1, 2], d: { e: 'x' } }, f: true, g: 'keep' };
    const merged = deepMerge(doc, { a: { b: 2, c: [3], d: { z: 0 } }, f: null, h: [{ i: 1 }] });
    expect(merged).toEqual({ a: { b: 2, c: [3], d: { e: 'x', z: 0 } }, g: 'keep', h: [{ i: 1 }] });
    expect(doc).toEqual({ a: { b: 1, c: [1, 2], d: { e: 'x' } }, f: true, g: 'keep' });
  });

  test('an object replaces a scalar or an array, a scalar replaces an object; nulls in new objects vanish', () => {
    expect(deepMerge({ a: 1, b: [1], c: { d: 1 } }, { a: { x: 1 }, b: { y: null, z: 2 }, c: 5 })).toEqual({
      a: { x: 1 },
      b: { z: 2 },
      c: 5,
    });
  });

  test('deleting an absent key is harmless, and __proto__ stays a plain key', () => {
    expect(deepMerge({ a: 1 }, { nope: null })).toEqual({ a: 1 });
    const merged = deepMerge({}, JSON.parse('{"__proto__": {"polluted": true}}') as JsonObject);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(merged)).toEqual(['__proto__']);
  });
});

describe('contains (jsonb @> semantics)', () => {
  const doc: JsonObject = {
    project: { code: 'AP-11', costCenter: 4711, tags: ['red', 'blue'] },
    people: [
      { name: 'Alex', roles: ['owner', 'member'] },
      { name: 'Megan', roles: ['member'] },
    ],
    matrix: [1, [2, 3]],
    empty: {},
    nothing: null,
  };
  const cases: Array<[Json, boolean]> = [
    [{}, true],
    [{ project: {} }, true],
    [{ project: { code: 'AP-11' } }, true],
    [{ project: { code: 'AP-12' } }, false],
    [{ project: { costCenter: 4711 } }, true],
    [{ project: { costCenter: '4711' } }, false],
    [{ project: { tags: ['blue'] } }, true],
    [{ project: { tags: ['blue', 'red', 'blue'] } }, true],
    [{ project: { tags: ['green'] } }, false],
    [{ project: { tags: [] } }, true],
    [{ project: { tags: 'blue' } }, false],
    [{ people: [{ name: 'Alex' }, { name: 'Megan' }] }, true],
    [{ people: [{ name: 'Megan', roles: ['owner'] }] }, false],
    [{ people: [{ roles: ['owner'] }] }, true],
    [{ matrix: [[3]] }, true],
    [{ matrix: [2] }, false],
    [{ empty: {} }, true],
    [{ empty: [] }, false],
    [{ nothing: null }, true],
    [{ missing: null }, false],
    [{ project: { code: 'AP-11' }, other: 1 }, false],
  ];
  test.each(cases)('%j → %s', (query, expected) => {
    expect(contains(doc, query)).toBe(expected);
  });

  test('scalars of different types are not equal', () => {
    expect(contains({ a: 1 }, { a: '1' })).toBe(false);
    expect(contains({ a: true }, { a: 1 })).toBe(false);
    expect(contains({ a: null }, { a: false })).toBe(false);
    expect(contains({ a: 0 }, { a: -0 })).toBe(true);
  });
});

describe('leaves', () => {
  test('names every scalar by its path, with array levels marked []', () => {
    expect(leaves({ a: { b: [1, { c: true }] }, d: 'x', e: {}, f: [] })).toEqual([
      { path: 'a.b[]', value: '1' },
      { path: 'a.b[].c', value: 'true' },
      { path: 'd', value: '"x"' },
    ]);
  });

  test('escapes keys so that different paths never collide, and lists a repeated leaf once', () => {
    const paths = (doc: JsonObject) => leaves(doc).map((l) => l.path);
    expect(paths({ 'a.b': 1 })).not.toEqual(paths({ a: { b: 1 } }));
    expect(paths({ '': { a: 1 } })).not.toEqual(paths({ a: 1 }));
    expect(paths({ 'a[]': 1 })).not.toEqual(paths({ a: [1] }));
    expect(leaves({ a: [1, 1] })).toEqual([{ path: 'a[]', value: '1' }]);
  });

  test('a document containing a query holds every leaf of the query', () => {
    const doc: JsonObject = { a: [{ x: 1, y: [2, 3] }, { x: 4 }], b: { c: 'd' } };
    const query: JsonObject = { a: [{ y: [3] }, { x: 4 }], b: { c: 'd' } };
    expect(contains(doc, query)).toBe(true);
    const held = new Set(leaves(doc).map((l) => `${l.path}=${l.value}`));
    for (const leaf of leaves(query)) expect(held.has(`${leaf.path}=${leaf.value}`)).toBe(true);
  });
});

describe('namespaces and document limits', () => {
  test('a namespace is 1–64 letters, digits, ".", "_" or "-"', () => {
    for (const ok of ['a', 'provisioning', 'com.contoso_app-1', 'x'.repeat(64)])
      expect(NAMESPACE_PATTERN.test(ok)).toBe(true);
    for (const bad of ['', 'x'.repeat(65), 'has space', 'a/b', 'ünï', 'a:b'])
      expect(NAMESPACE_PATTERN.test(bad)).toBe(false);
  });

  test('documents over 64 KiB, nested too deep, or holding U+0000 are refused with details', () => {
    expect(documentProblems({ a: 'x'.repeat(MAX_DOCUMENT_BYTES - 10) }, 'body')).toEqual([]);
    expect(documentProblems({ a: 'x'.repeat(MAX_DOCUMENT_BYTES) }, 'body')).toEqual([
      expect.objectContaining({ code: 'tooLarge', target: 'body' }),
    ]);
    let deep: Json = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(documentProblems({ deep }, 'body')).toEqual([expect.objectContaining({ code: 'invalidValue' })]);
    expect(documentProblems({ a: 'nul\u0000' }, 'body')).toHaveLength(1);
    expect(documentProblems({ 'k\u0000': 1 }, 'body')).toHaveLength(1);
  });
});
