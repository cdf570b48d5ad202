'use strict';
// The summary of a timed run (`node scripts/test.js --timing`, test/support/timing.js): per
// project, the sum of its files' wall times and CPU, then the slowest files with what they spent.
// `node scripts/testTiming.js <lines.jsonl> [count]` prints it again from a kept file.
const { readFileSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** The timing lines of `file`, one object each. */
function readTimings(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const s = (value) => value.toFixed(1).padStart(7);

/** The summary of `timings` as text: projects' sums, then the `count` slowest files. */
function summary(timings, count = 25) {
  const lines = [
    '',
    'Test files by project (wall: summed over files that ran side by side; CPU: worker + children):',
  ];
  const projects = new Map();
  for (const t of timings) {
    const sum = projects.get(t.project) ?? { files: 0, wall: 0, cpu: 0, children: 0 };
    sum.files += 1;
    sum.wall += t.wall;
    sum.cpu += t.cpu;
    sum.children += t.children;
    projects.set(t.project, sum);
  }
  lines.push(`${'project'.padEnd(12)} files  wall s   CPU s  child s`);
  for (const [name, sum] of projects)
    lines.push(
      `${String(name).padEnd(12)} ${String(sum.files).padStart(5)} ${s(sum.wall)} ${s(sum.cpu)} ${s(sum.children)}`,
    );
  lines.push(
    '',
    `The ${count} slowest files (idle s: wall less CPU, an upper bound of the real-time waits):`,
  );
  lines.push(
    `${'wall s'.padStart(7)} ${'CPU s'.padStart(7)} ${'child s'.padStart(7)} ${'idle s'.padStart(7)}  file`,
  );
  for (const t of [...timings].sort((a, b) => b.wall - a.wall).slice(0, count)) {
    const idle = Math.max(0, t.wall - t.cpu - t.children);
    lines.push(`${s(t.wall)} ${s(t.cpu)} ${s(t.children)} ${s(idle)}  ${path.relative(root, t.file)}`);
  }
  return `${lines.join('\n')}\n`;
}

module.exports = { readTimings, summary };

if (require.main === module) {
  const [file, count] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node scripts/testTiming.js <timing lines> [count]\n');
    process.exit(2);
  }
  process.stdout.write(summary(readTimings(file), count ? Number(count) : undefined));
}
