import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The first import of every program of Steward (`node dist/main.js` and each command of `dist/cli/`):
 * on an unsupported Node.js it says what to do and exits, before any native module loads. On
 * Node.js 20 the native SQLite module does not fail cleanly, it ends the process with a
 * segmentation fault; on Node.js 22.0–22.14 (no `process.execve`) the start would run with V8's own
 * young generation and warn about something else. The range is package.json's `engines.node`, the
 * one place it is written: npm reads it too (`.npmrc` makes `npm ci` refuse another version), and
 * `scripts/build.js` checks it the same way before `npm start` compiles.
 */

/** What to tell a person running Steward on Node.js `version` given `engines.node`, or undefined. */
export function runtimeProblem(version: string, range: string): string | undefined {
  const match = /^>=\s*(\d+)\.(\d+)/.exec(range);
  if (!match) throw new Error(`package.json's engines.node must read ">=MAJOR.MINOR", not "${range}"`);
  const minimum = [Number(match[1]), Number(match[2])] as const;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > minimum[0] || (major === minimum[0] && minor >= minimum[1])) return undefined;
  return (
    `Steward needs Node.js ${minimum.join('.')} or later (24 LTS recommended); this is Node.js ${version}.\n` +
    'Install Node.js 24 (from a clone, `eval "$(bash .ci/install-node)"` puts it first on this shell\'s PATH),\n' +
    'then run `npm ci` again so that the native modules are built for it.\n'
  );
}

/** package.json's `engines.node`, beside `dist/` (or `src/`) wherever the program runs from. */
function enginesRange(): string {
  const file = path.join(__dirname, '..', 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { engines: { node: string } }).engines.node;
}

const problem = runtimeProblem(process.versions.node, enginesRange());
if (problem) {
  process.stderr.write(problem);
  process.exit(1);
}
