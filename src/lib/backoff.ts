/** How a wait grows from one attempt to the next. */
export interface Backoff {
  /** The wait of attempt 0, ms. */
  baseMs: number;
  /** Each attempt waits this many times the one before (default 2). */
  factor?: number;
  /** The longest wait, ms. */
  capMs: number;
  /**
   * The share of the wait drawn at random, from 0 (none: the wait is exact, the default) to 1 (full
   * jitter: anywhere from 0 to the wait). 0.5 keeps half the wait and draws the other half, so that
   * clients refused together neither come back together nor much sooner than asked.
   */
  jitter?: number;
}

/**
 * The wait before attempt `attempt` (0 for the first retry), in whole milliseconds, rounded down:
 * `min(capMs, baseMs × factor^attempt)`, of which the `jitter` share is scaled by `random()`, a
 * number in [0, 1). With full jitter the wait is in [0, ceiling); without, it is the ceiling.
 *
 * A wait that grows from the last one, whatever that was (a server's `Retry-After`, a poll that
 * started over), is attempt 1 from it: `backoffMs({ baseMs: lastMs, capMs }, 1)`.
 */
export function backoffMs(policy: Backoff, attempt: number, random: () => number = Math.random): number {
  const { baseMs, factor = 2, capMs, jitter = 0 } = policy;
  // 0 × factor^attempt stays 0 when factor^attempt overflows to Infinity.
  const grown = baseMs === 0 ? 0 : baseMs * factor ** Math.max(0, attempt);
  const ceiling = Math.min(capMs, grown);
  if (jitter === 0) return Math.floor(ceiling);
  return Math.floor(ceiling * (1 - jitter) + ceiling * jitter * random());
}
