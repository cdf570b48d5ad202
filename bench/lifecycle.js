'use strict';
// The lifecycle evaluator over a large tenant: each store in its own process (bench/lifecycleRun.js).
const { execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freshPostgres, storeKinds } = require('./stores');

/**
 * V8's heap growth in each configuration: V8's own choice (the baseline: up to 4 × what the last
 * full collection kept) and Steward's setting as `node dist/main.js` applies it
 * (`STEWARD_HEAP_GROWTH_PERCENT`, default 50), which is what a deployed worker runs with.
 */
const HEAP_SETTINGS = [
  { label: "V8's own (baseline)", percent: 0, deployed: false },
  { label: 'as deployed (50 %)', percent: undefined, deployed: true },
];

/** `BENCH_LIFECYCLE_HEAP=deployed` runs only the deployed setting (a shorter A/B with `bench/ab.js`). */
function heapSettings() {
  return process.env.BENCH_LIFECYCLE_HEAP === 'deployed'
    ? HEAP_SETTINGS.filter((h) => h.deployed)
    : HEAP_SETTINGS;
}

async function run({ quick = false } = {}) {
  const teams = quick ? 10_000 : 100_000;
  const { admin, kinds } = storeKinds();
  const rows = [];
  const targets = [];
  for (const kind of kinds) {
    // Baseline first, then Steward as deployed, each in a fresh process and database.
    for (const heap of heapSettings()) {
      const scratch = mkdtempSync(path.join(os.tmpdir(), 'steward-lifecycle-'));
      const pg = kind === 'postgres' ? await freshPostgres(admin) : undefined;
      try {
        const args = {
          kind,
          url: pg?.url,
          file: path.join(scratch, 'bench.sqlite'),
          teams,
          evaluations: 2,
          heapGrowthPercent: heap.percent,
        };
        const runPhase = (phase) =>
          execFileSync(
            process.execPath,
            ['--expose-gc', path.join(__dirname, 'lifecycleRun.js'), JSON.stringify({ ...args, phase })],
            { encoding: 'utf8', maxBuffer: 16 * 2 ** 20, stdio: ['ignore', 'pipe', 'inherit'] },
          );
        runPhase('seed');
        const out = runPhase('measure');
        const result = JSON.parse(out);
        const growth = result.peakRssMiB - result.baseRssMiB;
        result.rounds.forEach((round, index) => {
          rows.push({
            store: kind,
            'heap growth': heap.label,
            round: index + 1,
            teams: round.teams,
            'actions due': round.actions,
            'read-only walk s': (round.walkMs / 1000).toFixed(1),
            'activity s': (round.activityMs / 1000).toFixed(1),
            'evaluation s': (round.evaluateMs / 1000).toFixed(1),
            'live heap after MiB': round.liveHeapMiB.toFixed(1),
            'RSS growth MiB': growth.toFixed(1),
          });
        });
        if (!heap.deployed) continue;
        const first = result.rounds[0];
        targets.push({
          name: `${kind}: an evaluation over ${teams} teams under 60 s`,
          met: result.rounds.every((r) => r.evaluateMs < 60_000),
          detail: result.rounds
            .map((r) => `${(r.evaluateMs / 1000).toFixed(1)} s (${r.log.join(' ')})`)
            .join('; '),
        });
        targets.push({
          name: `${kind}: RSS growth during the evaluations under 50 MiB`,
          met: growth < 50,
          detail:
            `${result.baseRssMiB.toFixed(1)} MiB before, ${result.peakRssMiB.toFixed(1)} MiB at most; live heap ` +
            `${result.liveHeapBeforeMiB.toFixed(1)} MiB before, ${result.rounds.map((r) => r.liveHeapMiB.toFixed(1)).join(' / ')} ` +
            `after each round; first round ${first.actions} actions, ${result.archiveJobs} archive jobs queued`,
        });
      } finally {
        await pg?.drop();
        rmSync(scratch, { recursive: true, force: true });
      }
    }
  }
  const markdown = [
    `${teams} teams in the embedded tenant (created over the last 400 days; every 100th without owners),`,
    'a tenant policy of expiry after 365 days (notices at 30 and 7, archive), inactivity after 180 days',
    '(notify) and at least one owner, seeded by a process of its own. Each measurement runs in its own',
    'process (`--expose-gc`, collected before measuring): two rounds of a read-only walk (the preview: pages of 200 teams and their decisions, nothing',
    'written; the baseline) then a full evaluation (records, audit records, events and archive jobs, one',
    'transaction per page, after the activity report is read into the store, as the job does). The first',
    'evaluation acts on every team due; the second finds each action done. Each store runs twice: with',
    "V8's own heap growth (the baseline) and with Steward's as deployed (`STEWARD_HEAP_GROWTH_PERCENT`, 50 %);",
    'the targets are judged on the second. RSS is sampled at every page the walker reads and every 50 ms;',
    'growth is the peak over the RSS before the first round. Live heap: `heapUsed` after a full collection.',
  ].join('\n');
  return { rows, markdown, targets };
}

module.exports = {
  name: 'lifecycle',
  description:
    'The lifecycle evaluator over 100 000 teams on SQLite and PostgreSQL; targets: < 60 s, RSS growth < 50 MiB.',
  run,
};
