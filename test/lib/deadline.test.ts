import { withDeadline } from '../../src/lib/deadline';

const expired = () => new Error('too late');

describe('withDeadline', () => {
  test('what the work settles with, when it settles in time', async () => {
    await expect(withDeadline(Promise.resolve(7), 1_000, expired)).resolves.toBe(7);
    const failure = new Error('failed');
    await expect(withDeadline(Promise.reject(failure), 1_000, expired)).rejects.toBe(failure);
  });

  test('the deadline’s error when the work takes longer', async () => {
    const started = Date.now();
    const never = new Promise<number>(() => undefined);
    await expect(withDeadline(never, 20, expired)).rejects.toThrow('too late');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('work that fails after its deadline is not an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const late = new Promise<number>((_resolve, reject) => setTimeout(() => reject(new Error('late')), 30));
      await expect(withDeadline(late, 5, expired)).rejects.toThrow('too late');
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
