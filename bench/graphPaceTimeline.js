'use strict';
// Where a graph-pace run's time went, from what it recorded with BENCH_GRAPH_PACE_TIMELINE_DIR and
// Steward's debug log (BENCH_GRAPH_PACE_LOG_LEVEL=debug, the processes' stderr saved to a file):
//
//   node bench/graphPaceTimeline.js <timeline dir> <configuration, e.g. postgres-1> [stderr log]
//
// Prints, from the simulator's side, each request class's calls let through per 10 s window
// against its scaled rate (the `other` class bounds the `project` benchmark's minimum), when the
// bottleneck class first and last ran near its rate (the ramp and the tail); and from Steward's
// log, the in-process waits for budget turns, the parks by reason, and how late after its due time
// a parked or queued job was taken up again.
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { PUBLISHED_GRAPH_LIMITS } = require('../dist/domain/graphBudget');

const WINDOW_MS = 10_000;

function quantiles(values) {
  if (values.length === 0) return 'none';
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const sum = sorted.reduce((s, v) => s + v, 0);
  const f = (ms) => `${(ms / 1000).toFixed(2)} s`;
  return `n ${sorted.length}, sum ${f(sum)}, mean ${f(sum / sorted.length)}, p50 ${f(at(0.5))}, p90 ${f(at(0.9))}, max ${f(sorted[sorted.length - 1])}`;
}

function logLines(file) {
  if (!file) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return undefined;
      }
    })
    .filter(Boolean);
}

function main() {
  const [dir, configuration, logFile] = process.argv.slice(2);
  if (!dir || !configuration) throw new Error('usage: graphPaceTimeline.js <dir> <configuration> [log]');
  const simulator = JSON.parse(readFileSync(path.join(dir, `${configuration}.simulator.json`), 'utf8'));
  const { started, jobs } = JSON.parse(readFileSync(path.join(dir, `${configuration}.jobs.json`), 'utf8'));
  const scale = Number(process.env.BENCH_GRAPH_PACE_SCALE || 0.2);
  const rates = {
    createTeam: PUBLISHED_GRAPH_LIMITS.createTeamPerSecond * scale,
    cloneTeam: PUBLISHED_GRAPH_LIMITS.cloneTeamPerSecond * scale,
    channelOrTab: PUBLISHED_GRAPH_LIMITS.channelOrTabPerSecond * scale,
    other: PUBLISHED_GRAPH_LIMITS.otherPerSecond * scale,
  };
  const end = Math.max(...jobs.map((j) => Date.parse(j.completed_at)));
  const makespan = (end - started) / 1000;
  const windows = Math.ceil((end - started) / WINDOW_MS);
  const perWindow = Object.fromEntries(Object.keys(rates).map((k) => [k, new Array(windows).fill(0)]));
  const refused = {};
  for (const [at, klass, refusedBy] of simulator.decisions) {
    if (refusedBy) refused[refusedBy] = (refused[refusedBy] ?? 0) + 1;
    else if (at >= started && at <= end) perWindow[klass][Math.floor((at - started) / WINDOW_MS)] += 1;
  }
  console.log(`makespan ${makespan.toFixed(1)} s; 429s by bucket ${JSON.stringify(refused)}`);
  console.log(`calls let through per ${WINDOW_MS / 1000} s window, as a share of the class's scaled rate:`);
  for (const [klass, counts] of Object.entries(perWindow)) {
    const total = counts.reduce((s, n) => s + n, 0);
    if (total === 0) continue;
    const shares = counts.map((n) => Math.round((100 * n) / (rates[klass] * (WINDOW_MS / 1000))));
    console.log(
      `  ${klass.padEnd(12)} ${total} calls, ${(total / rates[klass]).toFixed(1)} s at its rate: ${shares.join(' ')}`,
    );
  }
  const other = perWindow.other;
  const busy = (n) => n >= 0.8 * rates.other * (WINDOW_MS / 1000);
  const first = other.findIndex(busy);
  const last = other.length - 1 - [...other].reverse().findIndex(busy);
  console.log(
    `other ≥ 80 % of its rate: windows ${first}..${last} (${(first * WINDOW_MS) / 1000} s to ${((last + 1) * WINDOW_MS) / 1000} s)`,
  );
  const firstOther = simulator.decisions.find(([at, klass, r]) => klass === 'other' && !r && at >= started);
  if (firstOther)
    console.log(`first other call ${((firstOther[0] - started) / 1000).toFixed(1)} s after the first submit`);
  const created = simulator.decisions.filter(
    ([at, klass, r]) => klass === 'createTeam' && !r && at >= started,
  );
  if (created.length > 0) {
    console.log(
      `POST /teams let through: ${created.length}, last at ${((created[created.length - 1][0] - started) / 1000).toFixed(1)} s`,
    );
  }
  const done = jobs.map((j) => (Date.parse(j.completed_at) - started) / 1000).sort((a, b) => a - b);
  const at = (share) => done[Math.min(done.length - 1, Math.floor(share * done.length))].toFixed(1);
  console.log(
    `jobs completed by: 10 % ${at(0.1)} s, 50 % ${at(0.5)} s, 90 % ${at(0.9)} s, last ${done[done.length - 1].toFixed(1)} s`,
  );

  const lines = logLines(logFile);
  if (lines.length === 0) return;
  const waits = {};
  for (const line of lines.filter((l) => l.graphBudget)) {
    const kind = line.graphBudget.buckets[0];
    (waits[kind] ??= []).push(line.graphBudget.waitedMs);
  }
  console.log("in-process waits for a budget turn, by the call's class:");
  for (const [kind, values] of Object.entries(waits)) console.log(`  ${kind}: ${quantiles(values)}`);
  const parks = {};
  for (const line of lines.filter((l) => l.park)) (parks[line.park.for] ??= []).push(line.park.afterMs);
  console.log('parks, by what the job waits for (the time asked):');
  for (const [reason, values] of Object.entries(parks)) console.log(`  ${reason}: ${quantiles(values)}`);
  const late = {};
  const held = [];
  for (const line of lines.filter((l) => l.claim)) {
    held.push(line.held);
    for (const claim of line.claim)
      (late[claim.waiting ?? `new (${claim.status})`] ??= []).push(claim.lateMs);
  }
  console.log('claims: how late after its due time a job was taken up, by what it waited for:');
  for (const [reason, values] of Object.entries(late)) console.log(`  ${reason}: ${quantiles(values)}`);
  if (held.length > 0)
    console.log(`jobs in hand when claiming: ${quantiles(held.map((n) => n * 1000)).replace(/ s/g, '')}`);
}

main();
