'use strict';
// The summary of a timed run (`node scripts/test.js --timing`, test/support/timing.js): per
// project, the sum of its files' wall times and CPU, then the slowest files with what they spent.
// `node scripts/testTiming.js <lines.jsonl> [count]` prints it again from a kept file; with
// `--record`, it also writes each file's wall seconds into test/support/fileSeconds.json, the
// order the next runs start the files in (test/support/sequencer.js): record a whole run's.
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
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

const SECONDS = path.join(root, 'test', 'support', 'fileSeconds.json');

/** Writes `timings`' wall seconds over fileSeconds.json's, dropping files that are gone. */
function record(timings) {
  const seconds = JSON.parse(readFileSync(SECONDS, 'utf8'));
  for (const t of timings)
    seconds[path.relative(root, t.file).split(path.sep).join('/')] = Math.round(t.wall * 10) / 10;
  const kept = Object.entries(seconds)
    .filter(([file]) => existsSync(path.join(root, file)))
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  writeFileSync(SECONDS, `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
}

module.exports = { readTimings, summary };

if (require.main === module) {
  const args = process.argv.slice(2);
  const [file, count] = args.filter((arg) => arg !== '--record');
  if (!file) {
    process.stderr.write('usage: node scripts/testTiming.js <timing lines> [count] [--record]\n');
    process.exit(2);
  }
  const timings = readTimings(file);
  process.stdout.write(summary(timings, count ? Number(count) : undefined));
  if (args.includes('--record')) record(timings);
}
