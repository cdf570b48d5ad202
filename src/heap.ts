import { setFlagsFromString } from 'node:v8';

/**
 * Sets how far V8 lets the old generation grow past what the last full collection kept before it
 * collects again (`--heap-growing-percent`; 0 restores V8's own choice).
 *
 * V8 picks that factor itself, up to 4 × on a machine with plenty of memory, and a busy Steward
 * promotes garbage steadily (every chat turn and API call keeps objects across a few young-generation
 * collections): with a live heap near 100 MiB, that let the process settle at 350–400 MiB under load
 * though it needed a third of it. At 50 % the full collections are more frequent but short (a few ms,
 * mostly concurrent), and the process's memory follows what it holds. Applies to the whole process.
 */
export function setHeapGrowth(percent: number): void {
  if (!Number.isInteger(percent) || percent < 0) throw new RangeError(`bad heap growth percent ${percent}`);
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
