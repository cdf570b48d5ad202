import { setTimeout as wait } from 'node:timers/promises';

/**
 * Waits `ms` milliseconds. With a signal, rejects with the signal's reason as soon as it aborts (at
 * once when it already has), so that a caller who gives up gets back what it aborted with.
 */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await wait(ms, undefined, signal ? { signal } : undefined);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}
