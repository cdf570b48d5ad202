import type { BudgetBucket } from '../../domain/graphBudget';

/** A run of turns this process reserved in one bucket: calls may go from `from` to `until`. */
interface TurnWindow {
  from: number;
  until: number;
  /** When this process's calls in the window go (or went), in order of assignment. */
  taken: number[];
}

/** A closed interval of instants, `[start, end]`. */
type Span = [number, number];

/** Bucket windows that ended this long ago are forgotten. */
const FORGET_AFTER_MS = 60_000;

/**
 * The turns this process holds in the Graph budget's buckets. A reservation takes several turns of
 * a bucket at once (`turns` in `BudgetBucket`): the shared row's time moves `turns` intervals on,
 * and this process may send up to that many calls in the window, each an interval from the others
 * it sends there. Every process's windows of a bucket follow each other in the shared row, so
 * calls kept inside their windows and an interval apart keep to the bucket's rate across
 * processes, as one reservation per call did, for a fraction of the statements. Several jobs of a
 * process share its class windows; a team's and a channel's windows serve the one job on them.
 */
export class BudgetTurns {
  private readonly windows = new Map<string, TurnWindow[]>();

  /**
   * The earliest instant, not before `after`, at which a call drawing on every bucket of
   * `buckets` fits in this process's windows; undefined when they cannot serve it.
   */
  earliest(buckets: readonly BudgetBucket[], after: number): number | undefined {
    let free: Span[] = [[after, Infinity]];
    for (const bucket of buckets) {
      free = intersect(free, this.freeSpans(bucket, after));
      if (free.length === 0) return undefined;
    }
    return free[0]![0];
  }

  /** Takes the turn at `at` in every bucket (its window must contain it: see `earliest`). */
  take(buckets: readonly BudgetBucket[], at: number): void {
    for (const bucket of buckets) {
      const window = this.windows.get(bucket.key)?.find((w) => w.from <= at && at <= w.until);
      window?.taken.push(at);
    }
  }

  /** The call went at `sent` rather than at its turn `at`: its neighbours keep their distance from then. */
  moved(buckets: readonly BudgetBucket[], at: number, sent: number): void {
    if (sent === at) return;
    for (const bucket of buckets) {
      for (const window of this.windows.get(bucket.key) ?? []) {
        const index = window.taken.indexOf(at);
        if (index >= 0) window.taken[index] = sent;
      }
    }
  }

  /**
   * Adds a window of `turns` turns starting at `from`. `lateBy` is how long the reservation took to
   * answer: the shared row's window began somewhere in that time, so the local window starts at its
   * latest possible start and ends at its earliest possible end, inside the shared one either way.
   */
  add(bucket: BudgetBucket, turns: number, from: number, lateBy: number): void {
    const interval = Math.ceil(bucket.intervalMs);
    // A single turn (or a window a slow answer shrank to nothing) is served at its start, as one
    // reservation per call always was.
    const window = { from, until: Math.max(from, from - lateBy + (turns - 1) * interval), taken: [] };
    const list = this.windows.get(bucket.key) ?? [];
    list.push(window);
    this.windows.set(bucket.key, list);
  }

  /**
   * How many turns to reserve in `bucket`: `classTurns` in a class, shared by every job of the
   * process; half as many in a team's or a channel's bucket, which serves the one job on it (a few
   * calls between its parks); one member addition, four a minute.
   */
  turnsFor(bucket: BudgetBucket, classTurns: number): number {
    if (bucket.key.startsWith('members:')) return 1;
    return bucket.key.startsWith('class:') ? classTurns : Math.max(1, Math.floor(classTurns / 2));
  }

  /** Graph throttled these buckets: this process's turns in them are given up. */
  forget(keys: readonly string[]): void {
    for (const key of keys) this.windows.delete(key);
  }

  /** Drops windows long over. */
  sweep(now: number): void {
    for (const [key, list] of this.windows) {
      const kept = list.filter((w) => w.until >= now - FORGET_AFTER_MS);
      if (kept.length === 0) this.windows.delete(key);
      else this.windows.set(key, kept);
    }
  }

  /**
   * The instants of `bucket`'s windows, from `after` on, at which a call keeps an interval from
   * every call this process sends on the bucket, in order.
   */
  private freeSpans(bucket: BudgetBucket, after: number): Span[] {
    const interval = Math.ceil(bucket.intervalMs);
    const all = this.windows.get(bucket.key) ?? [];
    const taken = all.flatMap((w) => w.taken).filter((at) => at > after - interval);
    const list = all.filter((w) => w.until >= after);
    const spans: Span[] = [];
    for (const window of list) {
      let parts: Span[] = [[window.from, window.until]];
      for (const at of taken) {
        parts = parts.flatMap(([start, end]): Span[] => {
          if (end <= at - interval || start >= at + interval) return [[start, end]];
          const kept: Span[] = [];
          if (start <= at - interval) kept.push([start, at - interval]);
          if (end >= at + interval) kept.push([at + interval, end]);
          return kept;
        });
      }
      spans.push(...parts);
    }
    return spans.sort((a, b) => a[0] - b[0]);
  }
}

/** The instants in both sorted span lists. */
function intersect(a: readonly Span[], b: readonly Span[]): Span[] {
  const out: Span[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const start = Math.max(a[i]![0], b[j]![0]);
    const end = Math.min(a[i]![1], b[j]![1]);
    if (start <= end) out.push([start, end]);
    if (a[i]![1] < b[j]![1]) i++;
    else j++;
  }
  return out;
}
