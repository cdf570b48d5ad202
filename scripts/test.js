#!/usr/bin/env node
// `npm test`: dist/ compiled once, then lint and typecheck beside every Jest project.
//
//   node scripts/test.js                 dist/ when stale; then lint and typecheck (their output
//                                        shown when they end) while Jest runs the unit,
//                                        integration and system projects
//   node scripts/test.js unit [args…]    one project (unit, integration or system), Jest's args after
//
// Measured on 2 cores (bench/RESULTS.md, "npm test"): many suites wait on timers, child processes
// and the databases, so three Jest workers and the static checks beside them keep both cores busy.
// STEWARD_TEST_WORKERS overrides the count; STEWARD_TEST_COVERAGE=1 measures V8 coverage against
// the floor in jest.config.js (it triples the CPU the suites spend: bench/RESULTS.md).
'use strict';

const { spawn } = require('node:child_process');
const { availableParallelism } = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const PROJECTS = ['unit', 'integration', 'system'];
const coverage = process.env.STEWARD_TEST_COVERAGE === '1' ? ['--coverage'] : [];

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
function run(command, args, quiet = false) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
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

async function main() {
  const [first, ...rest] = process.argv.slice(2);
  if (PROJECTS.includes(first)) {
    const { code } = await run(process.execPath, [
      jest,
      '--selectProjects',
      first,
      `--maxWorkers=${workers(first)}`,
      ...coverage,
      ...rest,
    ]);
    return code;
  }
  const started = Date.now();
  // Compiled once, before Jest starts (its global setup then finds dist/ current).
  const built = await run(process.execPath, [path.join(root, 'scripts', 'build.js'), '--if-stale']);
  if (built.code !== 0) return built.code;
  const [checks, suites] = await Promise.all([
    staticChecks(),
    run(process.execPath, [
      jest,
      `--maxWorkers=${workers()}`,
      ...coverage,
      ...(first ? [first, ...rest] : []),
    ]),
  ]);
  process.stdout.write(`\nnpm test took ${seconds(started)}.\n`);
  return checks || suites.code;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
