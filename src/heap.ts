import { accessSync, constants } from 'node:fs';
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

/**
 * What `startWithSemiSpace` found: the size was given (by the operator or a restart), or the
 * process goes on without it, saying why.
 */
export type SemiSpaceStart = 'given' | { unsupported: string };

/** The parts of `process` a restart reads; a test passes its own. */
export type RestartableProcess = Pick<NodeJS.Process, 'execArgv' | 'argv' | 'env' | 'execPath' | 'execve'>;

/** Linux's limit on one argument or environment string, terminator included (MAX_ARG_STRLEN). */
const ARG_STRING_MAX = 128 * 1024;
/**
 * A bound on argv and the environment together, pointers included: Linux allows a quarter of the
 * stack's limit (2 MiB with the usual 8 MiB stack), and never less than 128 KiB.
 */
const ARGS_TOTAL_MAX = 1024 * 1024;

/**
 * Why execve(2) would fail for `executable`, `args` and `env`, or undefined. Checked before the
 * call because a failure of the system call itself is not an exception: Node.js has already run
 * the process's exit handlers and aborts it (`Execve` in src/node_process_methods.cc). The causes
 * that can be seen beforehand: a node binary that is gone or not executable (an upgrade in place),
 * or an argument or environment too large (E2BIG).
 */
export function restartRefusal(
  executable: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): string | undefined {
  try {
    accessSync(executable, constants.X_OK);
  } catch (error) {
    return `${executable} cannot be run again (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  const strings = [...args, ...Object.entries(env).map(([name, value]) => `${name}=${value ?? ''}`)];
  if (strings.some((text) => Buffer.byteLength(text) + 1 > ARG_STRING_MAX))
    return 'an argument or environment variable is over 128 KiB';
  const total = strings.reduce((sum, text) => sum + Buffer.byteLength(text) + 1 + 8, 0);
  if (total > ARGS_TOTAL_MAX) return 'the arguments and environment are over 1 MiB together';
  return undefined;
}

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
 * from Node.js 22.15; elsewhere, or where the restart could fail (`restartRefusal`: a failed
 * execve(2) aborts the process), the process goes on with V8's own size and says why.
 */
export function startWithSemiSpace(proc: RestartableProcess = process): SemiSpaceStart {
  if (semiSpaceGiven(proc.execArgv, proc.env.NODE_OPTIONS)) return 'given';
  if (typeof proc.execve !== 'function') return { unsupported: 'this Node.js has no process.execve' };
  const args = [
    proc.execPath,
    `--max-semi-space-size=${SEMI_SPACE_MIB}`,
    ...proc.execArgv,
    ...proc.argv.slice(1),
  ];
  const refusal = restartRefusal(proc.execPath, args, proc.env);
  if (refusal) return { unsupported: refusal };
  try {
    proc.execve(proc.execPath, args, proc.env);
  } catch (error) {
    // Refused before the system call (a worker thread, a standard stream that cannot be kept open):
    // nothing has changed, and the process goes on as it was started.
    return { unsupported: `process.execve refused (${(error as Error).message})` };
  }
  return { unsupported: 'process.execve returned' };
}
