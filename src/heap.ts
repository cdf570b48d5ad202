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

/**
 * The young generation's semi-space Steward runs with, MiB (`--max-semi-space-size`): the new space
 * is two of them, 32 MiB in all.
 *
 * V8 sizes it from the machine's memory. Node.js 20 (V8 11.3) stopped at 16 MiB; Node.js 24 (V8 13.6)
 * allows 32 MiB, doubled when pointers are not compressed (Node.js never compresses them): 64 MiB,
 * a 128 MiB new space. A busy Steward fills whatever it is given, so on Node.js 24 the bot's process
 * held about 100 MiB more under chat load for the same work (bench/RESULTS.md, bot, 2026-11-27),
 * while 16 MiB, Node.js 20's size, cost no measurable CPU per chat turn. Smaller gains nothing sure:
 * 8 MiB promotes more of each turn's garbage, and the old generation grows by about what the new
 * space saves.
 */
export const SEMI_SPACE_MIB = 16;

const SEMI_SPACE_FLAG = /^--max[-_]semi[-_]space[-_]size(=|$)/;

/**
 * Whether node was told the young generation's size, on its command line (`execArgv`) or in
 * NODE_OPTIONS: then that choice stands (`--max-semi-space-size=0` asks for V8's own).
 */
export function semiSpaceGiven(execArgv: readonly string[], nodeOptions = ''): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) => SEMI_SPACE_FLAG.test(arg));
}

/** What `startWithSemiSpace` found: the size was given (by the operator or a restart), or cannot be. */
export type SemiSpaceStart = 'given' | 'unsupported';

/** The parts of `process` a restart reads; a test passes its own. */
export type RestartableProcess = Pick<NodeJS.Process, 'execArgv' | 'argv' | 'env' | 'execPath' | 'execve'>;

/**
 * Makes sure this process runs with Steward's young generation (`SEMI_SPACE_MIB`): when node was
 * started without `--max-semi-space-size`, replaces the process at once by the same program with it
 * (`process.execve`: same pid, same standard streams and environment, nothing else carried over),
 * so this returns only when there is nothing to do or it cannot be done.
 *
 * V8 fixes the young generation's largest size when it creates the heap: `v8.setFlagsFromString`
 * after start-up changes nothing then (checked on Node.js 24: the new space still grew to 128 MiB),
 * unlike `--heap-growing-percent`, which V8 reads at every collection. Restarting in place keeps every
 * documented start (`npm start`, `node dist/main.js` in the image and on App Service, a cluster's
 * processes) on one setting without a wrapper process. `process.execve` exists on Linux and macOS
 * from Node.js 22.15; elsewhere ('unsupported') the process goes on with V8's own size.
 */
export function startWithSemiSpace(proc: RestartableProcess = process): SemiSpaceStart {
  if (semiSpaceGiven(proc.execArgv, proc.env.NODE_OPTIONS)) return 'given';
  if (typeof proc.execve !== 'function') return 'unsupported';
  const flag = `--max-semi-space-size=${SEMI_SPACE_MIB}`;
  try {
    proc.execve(proc.execPath, [proc.execPath, flag, ...proc.execArgv, ...proc.argv.slice(1)], proc.env);
  } catch {
    // Refused (a worker thread, an exotic platform): the process goes on as it was started.
  }
  return 'unsupported';
}
