'use strict';
// The bench runner: `node bench/run.js [name…] [--quick]` runs the named benchmarks (default: all
// but those run only when named, as bot-blind), prints their tables and appends a dated section
// with the machine's description to the benchmark's history, history/<name>.md (RESULTS.md holds
// each benchmark's latest figures, updated by hand).
// It requires the compiled `dist/`, so run it through `npm run bench` (which builds first).
// Exit code: 0 when every benchmark ran, even if a target was missed (misses are reported as
// MISSED); 1 when a benchmark crashed; 2 for an unknown benchmark name.
const { execFileSync } = require('node:child_process');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/**
 * Every benchmark by name. Each exports { name, description, run({ quick }) } where run resolves
 * { rows, markdown, targets }: rows (objects with the same keys) become the printed and recorded
 * table, markdown says what was measured, targets are [{ name, met, detail }].
 */
const BENCHMARKS = {
  catalog: require('./catalog'),
  provisioning: require('./provisioning'),
  metadata: require('./metadata'),
  audit: require('./audit'),
  soak: require('./soak'),
  bot: require('./bot'),
  'bot-blind': require('./botBlind'),
  hostileRules: require('./hostileRules'),
  'graph-pace': require('./graphPace'),
  lifecycle: require('./lifecycle'),
  'api-statements': require('./apiStatements'),
  'lifecycle-graph': require('./lifecycleGraph'),
  'test-suite': require('./testSuite'),
  understanding: require('./understanding'),
  driftApply: require('./driftApply'),
  claim: require('./claim'),
  start: require('./start'),
  mcp: require('./mcp'),
};

/**
 * Benchmarks run only when named: a blind set is measured once, on purpose, then it is development
 * data (bench/blind/README.md); a run of every benchmark must not spend it.
 */
const NAMED_ONLY = new Set(['bot-blind']);

/** Where a benchmark's dated runs are kept, oldest first: `bench/history/<name>.md`. */
function historyFile(name) {
  return path.join(__dirname, 'history', `${name}.md`);
}

/** The first lines of a history file that does not exist yet. */
function historyHeader(name) {
  return [
    `# ${name}: every run`,
    '',
    `The latest figures, target and baseline: [RESULTS.md](../RESULTS.md#${name.toLowerCase()}). The runs`,
    'below are kept as they were recorded, in the order they were recorded; `npm run bench` appends new',
    'ones at the end.',
    '',
  ].join('\n');
}

/** The short commit, marked when tracked files differ from it; `unknown` outside a git checkout. */
function commit() {
  const git = (...args) =>
    execFileSync('git', args, {
      cwd: __dirname,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  try {
    const head = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    commit: commit(),
    // Other work on the machine skews the numbers; the 1-minute load average before the run shows it.
    load: os.loadavg()[0].toFixed(2),
  };
}

/** Rows (objects with the same keys) as cells, header first, with each column's width. */
function grid(rows) {
  const columns = Object.keys(rows[0]);
  const cells = [columns, ...rows.map((row) => columns.map((c) => String(row[c])))];
  const widths = columns.map((_c, i) => Math.max(...cells.map((line) => line[i].length)));
  // The first column (names) reads left-aligned, the figures right-aligned.
  const pad = (values) => values.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i])));
  return { cells, widths, pad };
}

/** Prints rows as an aligned text table. */
function printTable(rows) {
  const { cells, widths, pad } = grid(rows);
  console.log(pad(cells[0]).join('  '));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const values of cells.slice(1)) console.log(pad(values).join('  '));
}

/** Rows as a Markdown table with aligned, padded columns, readable as plain text. */
function markdownTable(rows) {
  const { cells, widths, pad } = grid(rows);
  const line = (values) => `| ${values.join(' | ')} |`;
  const rule = widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`));
  return [line(pad(cells[0])), line(rule), ...cells.slice(1).map((values) => line(pad(values)))].join('\n');
}

const verdict = (target) => `${target.met ? 'met' : 'MISSED'}: ${target.name} — ${target.detail}`;

async function main() {
  const args = process.argv.slice(2);
  // Quick mode is a smoke check (a few seconds per server); its numbers are not recorded.
  const quick = args.includes('--quick') || process.env.BENCH_QUICK === '1';
  const names = args.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !(n in BENCHMARKS));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark: ${unknown.join(', ')}. Known: ${Object.keys(BENCHMARKS).join(', ')}.`);
    return 2;
  }
  const host = machine();
  console.log(
    `${host.cores} cores (${host.cpu}), ${host.memory}, Node ${host.node}, ${host.platform}, ` +
      `commit ${host.commit}, load average ${host.load}`,
  );
  let crashed = false;
  const summary = [];
  for (const name of names.length > 0 ? names : Object.keys(BENCHMARKS).filter((n) => !NAMED_ONLY.has(n))) {
    const bench = BENCHMARKS[name];
    console.log(`\n== ${bench.name}: ${bench.description}${quick ? ' (quick)' : ''}\n`);
    let outcome;
    try {
      outcome = await bench.run({ quick });
    } catch (error) {
      crashed = true;
      console.error(`${bench.name} crashed:`, error);
      summary.push(`CRASHED: ${bench.name} — ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (outcome.rows.length > 0) printTable(outcome.rows);
    console.log('');
    for (const target of outcome.targets) console.log(verdict(target));
    summary.push(...outcome.targets.map((target) => `${bench.name}: ${verdict(target)}`));
    if (quick) continue;
    const section = [
      `\n## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — ${bench.name}\n`,
      `Machine: ${host.cores} cores, ${host.cpu}, ${host.memory} RAM, Node ${host.node}, ${host.platform}; ` +
        `commit ${host.commit}; load average before the run ${host.load}.\n`,
      outcome.markdown,
      '',
      ...(outcome.rows.length > 0 ? [markdownTable(outcome.rows), ''] : []),
      ...outcome.targets.map((t) => `- ${verdict(t)}`),
      '',
    ].join('\n');
    // Rewritten rather than appended so that exactly one blank line separates the sections.
    const history = historyFile(bench.name);
    const previous = existsSync(history) ? readFileSync(history, 'utf8') : historyHeader(bench.name);
    writeFileSync(history, `${previous.trimEnd()}\n${section}`);
    console.log(
      `\nRecorded in ${path.relative(process.cwd(), history)}; ` +
        `if it is the new reference, update its figures in ${path.relative(process.cwd(), path.join(__dirname, 'RESULTS.md'))}.`,
    );
  }
  // One line a target, every benchmark together, so that a full run ends with its verdicts.
  console.log(
    `\n== Summary\n\n${summary.map((line) => (line.length > 200 ? `${line.slice(0, 199)}…` : line)).join('\n')}`,
  );
  return crashed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
