#!/usr/bin/env node
// `npm test`: dist/ compiled once, then lint and typecheck beside every Jest project.
//
//   node scripts/test.js                 dist/ when stale; then lint and typecheck (their output
//                                        shown when they end) while Jest runs the unit,
//                                        integration and system projects
//   node scripts/test.js unit [args…]    one project (unit, integration or system), Jest's args after
//   … --timing                           either, then each project's summed file times and the 25
//                                        slowest files, wall and CPU (scripts/testTiming.js); with
//                                        STEWARD_TEST_TIMING=<file> the lines are kept there
//
// Measured on 2 cores (bench/RESULTS.md, "npm test"): many suites wait on timers, child processes
// and the databases, so three Jest workers and the static checks beside them keep both cores busy.
// STEWARD_TEST_WORKERS overrides the count. STEWARD_TEST_COVERAGE=1 has V8 count the coverage of
// src/ and a whole run fail below its floor (scripts/coverage.js).
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const { availableParallelism, tmpdir } = require('node:os');
const path = require('node:path');
const { readTimings, summary } = require('./testTiming');

const root = path.resolve(__dirname, '..');
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const PROJECTS = ['unit', 'integration', 'system'];
const measure = process.env.STEWARD_TEST_COVERAGE === '1';

/** Workers for `project` (all projects when undefined). */
function workers(project) {
  const fromEnv = Number(process.env.STEWARD_TEST_WORKERS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  // Pure modules keep every core busy; the other suites also wait (child processes, timers, the
  // databases), so one more worker than cores fills those waits.
  if (project === 'unit') return availableParallelism();
  return availableParallelism() + 1;
}

/**
 * Runs `command args` from the repository's root; resolves with its exit code and, when `quiet`,
 * its output (shown by the caller).
 */
function run(command, args, quiet = false, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const output = [];
    if (quiet) {
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
    }
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(output).toString('utf8') }),
    );
  });
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

/** Lint, then typecheck, their output held and written in one piece when they end. */
async function staticChecks() {
  const started = Date.now();
  for (const script of ['lint', 'typecheck']) {
    const { code, output } = await run(npm, ['run', '-s', script], true);
    if (code !== 0) {
      process.stderr.write(`\n--- npm run ${script} failed:\n${output}\n`);
      return code;
    }
  }
  process.stderr.write(`\nlint and typecheck passed (${seconds(started)}).\n`);
  return 0;
}

/**
 * With `--timing` among `args`: the file the Jest workers write each test file's time to
 * (test/support/timing.js), STEWARD_TEST_TIMING's or a fresh one, emptied; `args` without the flag.
 */
function timing(args) {
  if (!args.includes('--timing')) return { args, file: undefined };
  const file =
    process.env.STEWARD_TEST_TIMING ||
    path.join(fs.mkdtempSync(path.join(tmpdir(), 'steward-timing-')), 'files.jsonl');
  fs.writeFileSync(file, '');
  return { args: args.filter((arg) => arg !== '--timing'), file };
}

/** The summary of a timed run, written when it ends. */
function reportTiming(file) {
  if (!file) return;
  const timings = readTimings(file);
  if (timings.length > 0) process.stdout.write(summary(timings));
  if (!process.env.STEWARD_TEST_TIMING) fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

async function main() {
  const timed = timing(process.argv.slice(2));
  const [first, ...rest] = timed.args;
  const timedEnv = timed.file ? { ...process.env, STEWARD_TEST_TIMING: timed.file } : process.env;
  if (PROJECTS.includes(first)) {
    const { code } = await run(
      process.execPath,
      [jest, '--selectProjects', first, `--maxWorkers=${workers(first)}`, ...rest],
      false,
      timedEnv,
    );
    reportTiming(timed.file);
    return code;
  }
  const started = Date.now();
  // Compiled once, before Jest starts (its global setup then finds dist/ current); not type-checked
  // there, as the typecheck beside the suites checks the same sources.
  const built = await run(process.execPath, [
    path.join(root, 'scripts', 'build.js'),
    '--if-stale',
    '--no-check',
  ]);
  if (built.code !== 0) return built.code;
  // V8 counts what the suites run in-process into this directory (the suites' own child
  // processes do not inherit it: test/support/environment.ts).
  const counts = measure ? fs.mkdtempSync(path.join(tmpdir(), 'steward-coverage-')) : undefined;
  const env = counts ? { ...timedEnv, NODE_V8_COVERAGE: counts } : timedEnv;
  const [checks, suites] = await Promise.all([
    staticChecks(),
    run(
      process.execPath,
      [jest, `--maxWorkers=${workers()}`, ...(first ? [first, ...rest] : [])],
      false,
      env,
    ),
  ]);
  let covered = 0;
  if (counts) {
    // Only a whole run's figures mean anything against the floor.
    if (suites.code === 0 && !first)
      covered = (await run(process.execPath, [path.join(root, 'scripts', 'coverage.js'), counts])).code;
    fs.rmSync(counts, { recursive: true, force: true });
  }
  reportTiming(timed.file);
  process.stdout.write(`\nnpm test took ${seconds(started)}.\n`);
  return checks || suites.code || covered;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
