import { sleep } from '../../src/lib/sleep';

describe('sleep', () => {
  test('resolves after about the time asked', async () => {
    const started = Date.now();
    await expect(sleep(50)).resolves.toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  test('rejects with the signal’s reason as soon as it aborts', async () => {
    const controller = new AbortController();
    const reason = new Error('gave up');
    const started = Date.now();
    setTimeout(() => controller.abort(reason), 20);
    await expect(sleep(10_000, controller.signal)).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('rejects at once with the reason of a signal that has already aborted', async () => {
    const reason = new Error('already');
    await expect(sleep(10_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  test('a signal that never aborts lets the wait end', async () => {
    await expect(sleep(5, new AbortController().signal)).resolves.toBeUndefined();
  });
});
