#!/usr/bin/env node
// `npm test`: lint, typecheck, dist/ compiled once, then every Jest project.
//
//   node scripts/test.js                 lint and typecheck, then the unit, integration and system
//                                        projects, one file at a time
//   node scripts/test.js unit [args…]    one project (unit, integration or system), Jest's args after
//
// One file at a time: measured on 2 cores (bench/RESULTS.md, "npm test"), the suites are bound by
// the CPU, not by their waits. One worker keeps a core for the database, the child processes and
// the tools the suites start; more workers finished no sooner and made timing-sensitive suites
// (timers driven by a moved clock, bot round trips) miss their windows. The unit project, pure
// modules, runs on every core when run alone. STEWARD_TEST_WORKERS overrides the count;
// STEWARD_TEST_COVERAGE=1 measures V8 coverage against the floor in jest.config.js (it doubles the
// CPU the suites spend).
'use strict';

const { spawn } = require('node:child_process');
const { availableParallelism } = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const PROJECTS = ['unit', 'integration', 'system'];

/** Workers for `project` (all projects when undefined). */
function workers(project) {
  const fromEnv = Number(process.env.STEWARD_TEST_WORKERS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return project === 'unit' ? availableParallelism() : 1;
}

const coverage = process.env.STEWARD_TEST_COVERAGE === '1' ? ['--coverage'] : [];

/** Runs `command args` from the repository's root; resolves with its exit code. */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const npmRun = (script) => run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '-s', script]);

async function main() {
  const [first, ...rest] = process.argv.slice(2);
  if (PROJECTS.includes(first)) {
    return run(process.execPath, [
      jest,
      '--selectProjects',
      first,
      `--maxWorkers=${workers(first)}`,
      ...coverage,
      ...rest,
    ]);
  }
  const started = Date.now();
  for (const script of ['lint', 'typecheck']) {
    const code = await npmRun(script);
    if (code !== 0) return code;
  }
  // Compiled once, before Jest starts (its global setup then finds dist/ current).
  const built = await run(process.execPath, [path.join(root, 'scripts', 'build.js'), '--if-stale']);
  if (built !== 0) return built;
  const code = await run(process.execPath, [
    jest,
    `--maxWorkers=${workers()}`,
    ...coverage,
    ...(first ? [first, ...rest] : []),
  ]);
  process.stdout.write(`\nnpm test took ${Math.round((Date.now() - started) / 1000)} s.\n`);
  return code;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
