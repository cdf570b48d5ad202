'use strict';
// The start benchmark: how long `node dist/main.js` takes from its spawn to "Steward is listening",
// and the CPU it spends on the way, with Node.js's compile cache (heapStart.ts enables it) and, as
// the same run's baseline, without it (NODE_DISABLE_COMPILE_CACHE=1).
//
// Each start is the embedded default on a fresh data directory (migrations, the demo tenant, the
// bot), stopped with SIGTERM once it listens. The CPU is the process's own (`/proc/<pid>/stat`,
// read just before the stop; the restart with Steward's young generation keeps the pid).
//
// Settings: BENCH_START_RUNS (starts of each kind, default 9).
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { cpuOf } = require('./processes');
const { envNumber } = require('./settings');
const { percentile } = require('./stores');

const MAIN = path.join(__dirname, '..', 'dist', 'main.js');
const SECRET = 'bench-secret-that-is-long-enough-for-hs256-0123456789';
/** The most the cached start may spend, against the uncached one. */
const TARGET_RATIO = 0.9;

/** One start: resolves with its time to listen and its CPU (ms). */
function start(env) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-start-'));
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      STEWARD_PORT: '0',
      STEWARD_HOST: '127.0.0.1',
      STEWARD_DATA_DIR: dir,
      STEWARD_AUTH_SECRET: SECRET,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const early = (code) => reject(new Error(`Steward exited (${code}) before it listened`));
    child.once('exit', early);
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      if (!output.includes('"msg":"Steward is listening"')) return;
      child.stdout.removeAllListeners('data');
      const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
      const cpuMs = cpuOf(child.pid) * 1000;
      child.off('exit', early);
      child.kill('SIGTERM');
      child.once('exit', () => {
        rmSync(dir, { recursive: true, force: true });
        resolve({ readyMs, cpuMs });
      });
    });
  });
}

async function run({ quick = false } = {}) {
  const runs = envNumber('BENCH_START_RUNS', quick ? 3 : 9, (n) => Number.isInteger(n) && n > 0);
  const kinds = [
    { name: 'without the compile cache (baseline)', env: { NODE_DISABLE_COMPILE_CACHE: '1' } },
    { name: 'with the compile cache', env: {} },
  ];
  // One start to fill the cache, not counted; then the kinds alternate, so that a change in the
  // machine's pace falls on both.
  await start({});
  const results = kinds.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [k, kind] of kinds.entries()) results[k].push(await start(kind.env));
  }
  const rows = kinds.map((kind, k) => {
    const ready = results[k].map((r) => r.readyMs).sort((a, b) => a - b);
    const cpu = results[k].map((r) => r.cpuMs).sort((a, b) => a - b);
    return {
      start: kind.name,
      runs,
      'listening after (median)': `${Math.round(percentile(ready, 0.5))} ms`,
      'CPU (median)': `${Math.round(percentile(cpu, 0.5))} ms`,
    };
  });
  const cpuMedian = (k) =>
    percentile(
      results[k].map((r) => r.cpuMs).sort((a, b) => a - b),
      0.5,
    );
  const ratio = cpuMedian(1) / cpuMedian(0);
  const targets = [
    {
      name: `a start's CPU with the compile cache <= ${TARGET_RATIO} x without`,
      met: ratio <= TARGET_RATIO,
      detail: `${ratio.toFixed(2)} x`,
    },
  ];
  const markdown =
    `\`node dist/main.js\`, the embedded default on a fresh data directory, ${runs} starts of each ` +
    'kind taken in turn, each timed from its spawn to "Steward is listening", its CPU read from ' +
    '/proc just before SIGTERM.';
  return { rows, markdown, targets };
}

module.exports = { name: 'start', description: 'how long and how much CPU a start takes', run };
