'use strict';
// The A/B runner: `node bench/ab.js <baseline dir> [name…] [--rounds N] [--baseline-node BIN] [--quick]` runs the named
// benchmarks (default: catalog and provisioning) alternately against a baseline checkout and this
// one, in the same run, so that both sides share the machine's load. The baseline dir is a built
// checkout of another commit (`git archive <commit> | tar -x -C dir`, its `node_modules`, then its
// build); this checkout's `bench/` is copied into it first, so that both sides run the same harness
// and only the product code (`dist/`) differs. Rounds alternate the order (A B, then B A, …). It
// prints one table per benchmark, each row labelled with its side, round and the load average
// before it; nothing is written to bench/history/ or RESULTS.md (copy what matters there, with the
// load).
// --baseline-node runs the baseline's server processes on another Node.js (a runtime upgrade's A/B:
// the baseline checkout installed and built with that Node); the load generator stays this one.
const { execFileSync } = require('node:child_process');
const { cpSync, existsSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const DEFAULT_BENCHMARKS = ['catalog', 'provisioning'];

function options(args) {
  const quick = args.includes('--quick');
  const valueAt = (flag) => {
    const at = args.indexOf(flag);
    return at >= 0 ? at + 1 : -1;
  };
  const roundsAt = valueAt('--rounds');
  const nodeAt = valueAt('--baseline-node');
  const rounds = roundsAt >= 0 ? Number(args[roundsAt]) : 2;
  const rest = args.filter((a, i) => !a.startsWith('--') && i !== roundsAt && i !== nodeAt);
  const [baseline, ...names] = rest;
  const usage =
    'usage: node bench/ab.js <built baseline checkout> [name…] [--rounds N] [--baseline-node BIN] [--quick]';
  if (!baseline || !existsSync(path.join(baseline, 'dist', 'main.js'))) throw new Error(usage);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 10) throw new Error('--rounds takes 1 to 10');
  const baselineNode = nodeAt >= 0 ? args[nodeAt] : undefined;
  if (nodeAt >= 0 && !(baselineNode && existsSync(baselineNode))) throw new Error(usage);
  return {
    baselineNode,
    baseline: path.resolve(baseline),
    names: names.length ? names : DEFAULT_BENCHMARKS,
    rounds,
    quick,
  };
}

async function main() {
  const { baseline, baselineNode, names, rounds, quick } = options(process.argv.slice(2));
  const here = path.resolve(__dirname, '..');
  cpSync(path.join(here, 'bench'), path.join(baseline, 'bench'), { recursive: true });
  const sides = [
    { label: 'baseline', dir: baseline, node: baselineNode },
    { label: 'this', dir: here, node: undefined },
  ];
  const versionOf = (node) =>
    execFileSync(node ?? process.execPath, ['--version'], { encoding: 'utf8' }).trim();
  for (const side of sides) side.label = `${side.label} (Node ${versionOf(side.node)})`;
  const tables = new Map(names.map((name) => [name, []]));
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? sides : [...sides].reverse();
    for (const name of names) {
      for (const side of order) {
        const bench = require(path.join(side.dir, 'bench', name));
        const load = os.loadavg()[0].toFixed(2);
        if (side.node) process.env.BENCH_NODE = side.node;
        else delete process.env.BENCH_NODE;
        console.log(`\n== ${name}, ${side.label}, round ${round} (load ${load})`);
        const outcome = await bench.run({ quick });
        for (const row of outcome.rows) tables.get(name).push({ side: side.label, round, load, ...row });
        for (const target of outcome.targets)
          console.log(`${target.met ? 'met' : 'MISSED'}: ${target.name} — ${target.detail}`);
      }
    }
  }
  for (const [name, rows] of tables) {
    console.log(`\n### ${name}\n`);
    if (rows.length === 0) continue;
    const columns = Object.keys(rows[0]);
    console.log(`| ${columns.join(' | ')} |`);
    console.log(`| ${columns.map(() => '---').join(' | ')} |`);
    for (const row of rows) console.log(`| ${columns.map((c) => String(row[c])).join(' | ')} |`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
