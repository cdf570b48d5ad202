import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Told when work run under it starts waiting for its turn in a shared rate budget (Microsoft
 * Graph's), and when that wait ends. A job worker listens so that a job waiting for its turn does
 * not count against the worker's slots: the wait is a timer, not work.
 */
export interface PacingListener {
  /** A wait of about `ms` starts; the function returned is called when it ends. */
  waiting(ms: number): () => void;
}

// The listener travels with the async context of the work (a job's run), so the platform's
// request path, several calls below the job, reaches it without every call passing it along.
const listeners = new AsyncLocalStorage<PacingListener>();

/** Runs `work` with `listener` told of every paced wait inside it. */
export function withPacing<T>(listener: PacingListener, work: () => Promise<T>): Promise<T> {
  return listeners.run(listener, work);
}

/** Waits `ms` for a turn in a rate budget, telling the listener of the running work, if any. */
export async function pacedWait(ms: number, sleep: (ms: number) => Promise<void>): Promise<void> {
  if (ms <= 0) return;
  const ended = listeners.getStore()?.waiting(ms);
  try {
    await sleep(ms);
  } finally {
    ended?.();
  }
}

// How long a call may wait for its budget turn, when the work says (see `withBudgetDeadline`).
const deadlines = new AsyncLocalStorage<number>();

/**
 * Runs `work` whose calls may wait at most `ms` each for a turn in a shared rate budget: a call
 * that would wait longer is not sent (the budget refuses it as busy). For best-effort work done
 * while a person waits (the similar teams shown with a request): it must neither keep them waiting
 * behind the background jobs' turns nor take those turns.
 */
export function withBudgetDeadline<T>(ms: number, work: () => Promise<T>): Promise<T> {
  return deadlines.run(ms, work);
}

/** The longest budget wait the running work allows, when it set one (`withBudgetDeadline`). */
export function budgetDeadline(): number | undefined {
  return deadlines.getStore();
}
