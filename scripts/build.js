#!/usr/bin/env node
/**
 * Compiles src/ into dist/ (`npm run build`) when dist/ is missing or was compiled from other
 * sources, and says so otherwise (--force compiles all the same); --if-stale does the same quietly
 * (`npm start` and the command-line tools run it first).
 *
 * dist/ records a hash of what it was compiled from (src/ and the tsconfig files), so "current"
 * does not depend on file times, and the production start (`npm ci --omit=dev`, no TypeScript)
 * runs a current dist/ without a compiler. A build compiles into a new directory and swaps it in,
 * so a process already running from dist/ never finds it half-written or gone. --no-check emits
 * without type-checking, for `npm test`, which type-checks beside it.
 */
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

/**
 * Why this Node.js cannot run Steward, or undefined. `npm start` compiles before it starts, so on an
 * unsupported Node.js (20 ends with a segmentation fault in the native SQLite module) it says so
 * before a compilation that would be wasted. The range is package.json's `engines.node`, as in
 * src/runtime.ts, which checks the same when `dist/` starts (this file cannot load TypeScript).
 */
function runtimeProblem(version = process.versions.node) {
  const range = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node;
  const minimum = /^>=\s*(\d+)\.(\d+)/.exec(range).slice(1).map(Number);
  const [major, minor] = version.split('.').map(Number);
  if (major > minimum[0] || (major === minimum[0] && minor >= minimum[1])) return undefined;
  return (
    `Steward needs Node.js ${minimum.join('.')} or later (24 LTS recommended); this is Node.js ${version}.\n` +
    'Install Node.js 24 (from a clone, `eval "$(bash .ci/install-node)"` puts it first on this shell\'s PATH),\n' +
    'then run `npm ci` again so that the native modules are built for it.\n'
  );
}
const DIST = path.join(ROOT, 'dist');
const STAMP = '.source-hash';
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json'];

/** A hash of every file the build reads, in a stable order; undefined when src/ is absent. */
function sourceHash(root = ROOT) {
  if (!fs.existsSync(path.join(root, 'src'))) return undefined;
  const hash = crypto.createHash('sha256');
  const add = (relative) => {
    const full = path.join(root, relative);
    const stat = fs.statSync(full, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(full).sort()) add(path.join(relative, name));
      return;
    }
    hash.update(`${relative.split(path.sep).join('/')}\0`);
    hash.update(fs.readFileSync(full));
    hash.update('\0');
  };
  for (const input of INPUTS) add(input);
  return hash.digest('hex');
}

/** Whether dist/ holds the compilation of the present sources (or there are no sources to compile). */
function isCurrent(root = ROOT) {
  const dist = path.join(root, 'dist');
  if (!fs.existsSync(path.join(dist, 'main.js'))) return false;
  const expected = sourceHash(root);
  if (expected === undefined) return true;
  const stamp = path.join(dist, STAMP);
  return fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === expected;
}

class BuildError extends Error {}

/**
 * Compiles into a fresh directory, then replaces dist/ with it. Without `check`, TypeScript only
 * emits (`--noCheck`: the same files, a third of the CPU), for a caller that type-checks beside it
 * (`npm test` runs `npm run typecheck` meanwhile).
 */
function build({ check = true } = {}) {
  let tsc;
  try {
    tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  } catch {
    throw new BuildError(
      'dist/ is missing or was compiled from other sources, and TypeScript is not installed ' +
        '(npm ci --omit=dev). Build where the dev dependencies are installed (npm ci && npm run build), ' +
        'then copy dist/.',
    );
  }
  const hash = sourceHash();
  // Beside dist/ on the same file system (for the rename), in a place every tool already ignores.
  const work = path.join(ROOT, 'node_modules', '.cache', 'steward-build');
  const next = path.join(work, `dist-${process.pid}`);
  fs.rmSync(next, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  try {
    execFileSync(
      process.execPath,
      [
        tsc,
        '-p',
        'tsconfig.build.json',
        '--outDir',
        next,
        '--tsBuildInfoFile',
        path.join(next, '.tsbuildinfo'),
        ...(check ? [] : ['--noCheck']),
      ],
      { cwd: ROOT, stdio: 'inherit' },
    );
  } catch {
    fs.rmSync(next, { recursive: true, force: true });
    throw new BuildError('TypeScript reported errors; dist/ is unchanged.');
  }
  fs.writeFileSync(path.join(next, STAMP), `${hash}\n`);
  const old = path.join(work, `old-${process.pid}`);
  if (fs.existsSync(DIST)) fs.renameSync(DIST, old);
  try {
    fs.renameSync(next, DIST);
  } catch (error) {
    // Another build swapped its dist/ in first: it compiled the same sources.
    if (!['ENOTEMPTY', 'EEXIST'].includes(error.code)) throw error;
    fs.rmSync(next, { recursive: true, force: true });
  }
  fs.rmSync(old, { recursive: true, force: true });
}

module.exports = { build, isCurrent, sourceHash, runtimeProblem, BuildError };

if (require.main === module) {
  const problem = runtimeProblem();
  if (problem) {
    process.stderr.write(problem);
    process.exit(1);
  }
  try {
    // Compiled once, where the compiler is: a later `npm run build` of the same sources (App
    // Service's build after its install of production packages, a container's second stage) finds
    // dist/ current and leaves it. --force compiles all the same.
    if (!process.argv.includes('--force') && isCurrent()) {
      if (!process.argv.includes('--if-stale'))
        process.stderr.write(
          'build: dist/ is already compiled from these sources (--force compiles again).\n',
        );
      process.exit(0);
    }
    if (process.argv.includes('--if-stale'))
      process.stderr.write('Compiling src/ into dist/ (it was missing or out of date)…\n');
    build({ check: !process.argv.includes('--no-check') });
  } catch (error) {
    if (!(error instanceof BuildError)) throw error;
    process.stderr.write(`build: ${error.message}\n`);
    process.exit(1);
  }
}
