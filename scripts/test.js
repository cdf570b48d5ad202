#!/usr/bin/env node
// `npm test`: lint, typecheck and every Jest project, on as many cores as each can use.
//
//   node scripts/test.js                 lint and typecheck, then the unit, integration and system
//                                        projects (the system one beside the others, in series)
//   node scripts/test.js unit [args…]    one project (unit, integration or system), Jest's args after
//
// The unit and integration projects share one Jest run with a worker a core; the system
// project runs in a second Jest run at the same time, one file after another, because its files
// measure whole processes (memory, crashes, shutdown deadlines) and start heavy tools (the Agents
// Playground with Chromium, nginx, the Agents Toolkit). Its output is held and printed after the
// first run's, so the two never interleave. Coverage (V8's, no instrumentation) is measured on the
// unit and integration run in CI, against the floor in jest.config.js.
'use strict';

const { spawn } = require('node:child_process');
const { availableParallelism } = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const PROJECTS = ['unit', 'integration', 'system'];

/**
 * Workers of the unit and integration run: one a core. Measured on 2 cores (bench/RESULTS.md,
 * "npm test"), the suites are bound by the CPU more than by their waits: 3 or 4 workers finished no
 * sooner than 2 and spent more CPU.
 */
function workers() {
  const fromEnv = Number(process.env.STEWARD_TEST_WORKERS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return Math.max(2, availableParallelism());
}

/**
 * Coverage doubles the CPU the suites spend (V8's counts turned into per-file reports for each test
 * file), so it is measured in CI (`CI` set) and on request (`STEWARD_TEST_COVERAGE=1`).
 */
const coverage = Boolean(process.env.CI) || process.env.STEWARD_TEST_COVERAGE === '1';

/**
 * Runs `command args` from the repository's root; resolves with its exit code. With `hold`, its
 * output is kept and returned instead of printed.
 */
function run(command, args, { hold = false, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const chunks = [];
    if (hold) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks) }),
    );
  });
}

const npmRun = (script) => run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '-s', script]);

async function main() {
  const [first, ...rest] = process.argv.slice(2);
  if (PROJECTS.includes(first)) {
    const serial = first === 'system' ? ['--runInBand'] : [`--maxWorkers=${workers()}`];
    const { code } = await run(process.execPath, [jest, '--selectProjects', first, ...serial, ...rest]);
    return code;
  }
  const started = Date.now();
  for (const script of ['lint', 'typecheck']) {
    const { code } = await npmRun(script);
    if (code !== 0) return code;
  }
  // Compiled once, before either Jest run starts (their global setups find it current).
  const built = await run(process.execPath, [path.join(root, 'scripts', 'build.js'), '--if-stale']);
  if (built.code !== 0) return built.code;

  process.stdout.write('\nThe system project runs beside the others; its report follows theirs.\n');
  const system = run(process.execPath, [jest, '--selectProjects', 'system', '--runInBand'], { hold: true });
  const others = await run(process.execPath, [
    jest,
    '--selectProjects',
    'unit',
    'integration',
    `--maxWorkers=${workers()}`,
    ...(coverage ? ['--coverage'] : []),
    ...(first ? [first, ...rest] : []),
  ]);
  const held = await system;
  process.stdout.write('\n--- the system project\n');
  process.stdout.write(held.output);
  process.stdout.write(`\nnpm test took ${Math.round((Date.now() - started) / 1000)} s.\n`);
  return others.code || held.code;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
