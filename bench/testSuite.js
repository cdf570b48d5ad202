'use strict';
// How long the project's own tests take: each Jest project as `npm test` runs it (scripts/test.js),
// its wall time and the CPU it and its children spent, against the target for the whole.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { childrenCpu } = require('../test/support/timing');

const root = path.resolve(__dirname, '..');
const TARGET_S = 300;

/** Runs `node scripts/test.js <project>`; resolves with its exit code, wall and CPU seconds. */
function project(name) {
  return new Promise((resolve) => {
    const cpuBefore = childrenCpu();
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [path.join(root, 'scripts', 'test.js'), name, '--silent'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      const cpuAfter = childrenCpu();
      resolve({
        code,
        wall,
        cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
      });
    });
  });
}

async function run({ quick = false } = {}) {
  const names = quick ? ['unit'] : ['unit', 'integration', 'system'];
  const rows = [];
  let total = 0;
  for (const name of names) {
    const { code, wall, cpu } = await project(name);
    total += wall;
    rows.push({
      project: name,
      passed: code === 0 ? 'yes' : `no (exit ${code})`,
      'wall s': wall.toFixed(1),
      'CPU s': cpu === undefined ? 'n/a' : cpu.toFixed(1),
    });
  }
  rows.push({ project: 'all', passed: '', 'wall s': total.toFixed(1), 'CPU s': '' });
  return {
    rows,
    markdown:
      'Each Jest project run as `npm test` runs it (`scripts/test.js <project>`), one after another, with ' +
      'STEWARD_TEST_DATABASE_URL as set (PostgreSQL when it is). Lint and typecheck are not included. ' +
      'CPU counts the project’s processes and their children.',
    targets: quick
      ? []
      : [{ name: `all projects ≤ ${TARGET_S} s`, met: total <= TARGET_S, detail: `${total.toFixed(0)} s` }],
  };
}

module.exports = {
  name: 'test-suite',
  description: `The test suite's projects, wall and CPU time; target: all of them in ≤ ${TARGET_S} s.`,
  run,
};
