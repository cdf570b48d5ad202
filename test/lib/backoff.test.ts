import { backoffMs } from '../../src/lib/backoff';

describe('backoffMs', () => {
  test('without jitter: base × factor^attempt, up to the cap, in whole milliseconds', () => {
    const waits = [0, 1, 2, 3, 4, 5, 6, 7].map((attempt) =>
      backoffMs({ baseMs: 1000, capMs: 60_000 }, attempt),
    );
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
    expect(backoffMs({ baseMs: 1000, capMs: 60_000 }, -3)).toBe(1000);
    expect(backoffMs({ baseMs: 1000, capMs: 60_000 }, 5_000)).toBe(60_000);
    expect(backoffMs({ baseMs: 0, capMs: 60_000 }, 5_000)).toBe(0);
    const grown = [0, 1, 2, 3, 4].map((attempt) =>
      backoffMs({ baseMs: 5000, factor: 1.5, capMs: 20_000 }, attempt),
    );
    expect(grown).toEqual([5000, 7500, 11_250, 16_875, 20_000]);
    expect(backoffMs({ baseMs: 16_875, factor: 1.5, capMs: 120_000 }, 1)).toBe(25_312);
  });

  test('a wait that grows from the last one is attempt 1 from it', () => {
    expect(backoffMs({ baseMs: 700, capMs: 1000 }, 1)).toBe(1000);
    expect(backoffMs({ baseMs: 300, capMs: 1000 }, 1)).toBe(600);
  });

  test('full jitter draws the whole wait: [0, ceiling)', () => {
    const policy = { baseMs: 100, capMs: 1_000, jitter: 1 };
    [100, 200, 400, 800, 1_000, 1_000].forEach((ceiling, attempt) => {
      expect(backoffMs(policy, attempt, () => 0)).toBe(0);
      expect(backoffMs(policy, attempt, () => 0.5)).toBe(ceiling / 2);
      expect(backoffMs(policy, attempt, () => 0.999_999)).toBe(ceiling - 1);
      for (let i = 0; i < 100; i++) {
        const wait = backoffMs(policy, attempt);
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(wait).toBeLessThan(ceiling);
        expect(Number.isInteger(wait)).toBe(true);
      }
    });
  });

  test('half jitter keeps half the wait and draws the other half: [ceiling / 2, ceiling)', () => {
    const policy = { baseMs: 500, capMs: 30_000, jitter: 0.5 };
    expect([0, 1, 2].map((attempt) => backoffMs(policy, attempt, () => 0.5))).toEqual([375, 750, 1500]);
    expect(backoffMs(policy, 0, () => 0)).toBe(250);
    expect(backoffMs(policy, 0, () => 0.999_999)).toBe(499);
    expect(backoffMs(policy, 10, () => 0)).toBe(15_000);
  });
});
