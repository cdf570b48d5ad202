import { BoundedCache } from '../../src/lib/boundedCache';

describe('BoundedCache', () => {
  test('keeps a value until its expiry, then forgets it', () => {
    const cache = new BoundedCache<string, number>(10);
    cache.set('a', 1, 1000);
    expect(cache.get('a', 999)).toBe(1);
    expect(cache.get('a', 1000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test('when full, the oldest entry makes room; setting a key again makes it the newest', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3);
    cache.set('c', 4);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(3);
    expect(cache.get('c')).toBe(4);
    expect(cache.size).toBe(2);
  });

  test('getOrMake makes a value once per key, and again once it was evicted', () => {
    const cache = new BoundedCache<string, { n: number }>(1);
    let made = 0;
    const make = () => ({ n: ++made });
    const first = cache.getOrMake('a', make);
    expect(cache.getOrMake('a', make)).toBe(first);
    expect(made).toBe(1);
    cache.getOrMake('b', make);
    expect(cache.getOrMake('a', make)).toEqual({ n: 3 });
    expect(made).toBe(3);
  });
});
