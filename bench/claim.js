'use strict';
// The claim benchmark: what one worker's claim of the job queue costs as the queue's history
// grows. The queue keeps every job it ran (the API reads them back), so a claim must not read
// them: it reads the due jobs and the jobs workers hold through the `jobs_claim` index.
//
// For each store and each history (finished jobs already in the table, each with a provisioning
// job's size of data and log), 100 jobs are queued and claimed one a claim, as a worker with one
// free slot does, and each claim is timed. The baseline is the same run's empty history.
//
// Settings: BENCH_CLAIM_HISTORY (the largest history, default 20000).
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { randomUUID } = require('node:crypto');
const { migrate, openStore } = require('../dist/store/database');
const { JobRepository } = require('../dist/store/jobs/jobs');
const { newJobRow } = require('../dist/store/jobs/jobRows');
const { envNumber } = require('./settings');
const { freshPostgres, percentile, storeKinds } = require('./stores');

const DUE = 100;
/** Jobs due at once in the backlog case (`DUE` of them claimed, one a claim). */
const BACKLOG = 1000;
/** A finished provisioning job's data and log are a few kilobytes: the plan, the request, the steps. */
const DATA = {
  plan: {
    displayName: 'A team',
    channels: Array.from({ length: 8 }, (_, i) => ({ name: `Channel ${i}`, description: 'x'.repeat(120) })),
  },
  request: { team: { name: 'A team', description: 'y'.repeat(400) } },
};
const LOG = Array.from({ length: 30 }, (_, i) => `step ${i}: ${'z'.repeat(60)}`);
/** The most a claim may cost at the largest history, against the same run's empty one. */
const TARGET_RATIO = 2;

/** The Graph bucket new provisionings wait for (`requestClassKey('createTeam')`). */
const BUCKET = 'class:createTeam';

/** A new provisioning job of the benchmark's requester (waiting for `budgetKey` when given). */
function provisioningJob(budgetKey) {
  return {
    budgetKey,
    id: randomUUID(),
    type: 'ProvisioningRequest',
    queued: true,
    data: DATA,
    log: LOG,
    requesterId: 'bench',
  };
}

/** `count` finished jobs, written in batches. */
async function addHistory(db, count) {
  const now = new Date();
  for (let done = 0; done < count; ) {
    const batch = Math.min(200, count - done);
    const rows = Array.from({ length: batch }, () => ({
      // Finished provisionings keep the bucket their first call waited for.
      ...newJobRow(provisioningJob(BUCKET), now),
      // Not the claimed jobs' requester: those are removed after each measurement, these stay.
      requester_id: 'bench-history',
      status: 'completed',
      progress: 100,
      completed_at: now.toISOString(),
    }));
    await db.insertInto('jobs').values(rows).execute();
    done += batch;
  }
}

/**
 * Queues `queued` jobs, claims `DUE` of them one a claim, and returns each claim's time (ms),
 * sorted; the jobs left are removed.
 */
async function claims(jobs, db, queued = DUE, budgetKey = undefined) {
  const now = Date.now();
  for (let i = 0; i < queued; i++) {
    // A millisecond apart, as requests arrive.
    await jobs.insert(provisioningJob(budgetKey), new Date(now - queued + i));
  }
  const times = [];
  for (let i = 0; i < DUE; i++) {
    const started = performance.now();
    const [job] = await jobs.claim('bench-worker', 1, 60_000, Date.now());
    times.push(performance.now() - started);
    if (!job) throw new Error(`claim ${i + 1} of ${DUE} found nothing`);
    await jobs.finish(job, 'bench-worker', { status: 'completed' }, new Date());
  }
  await db.deleteFrom('jobs').where('requester_id', '=', 'bench').execute();
  return times.sort((a, b) => a - b);
}

async function run({ quick = false } = {}) {
  const largest = envNumber('BENCH_CLAIM_HISTORY', quick ? 5000 : 20000, (n) => Number.isInteger(n) && n > 0);
  const histories = [0, Math.round(largest / 4), largest];
  const { admin, kinds } = storeKinds();
  const rows = [];
  const targets = [];
  for (const kind of kinds) {
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-claim-'));
    const postgres = kind === 'postgres' ? await freshPostgres(admin) : undefined;
    const store = openStore(
      postgres
        ? { kind: 'postgres', url: postgres.url }
        : { kind: 'sqlite', file: path.join(scratch, 'steward.db') },
    );
    try {
      await migrate(store.db);
      const jobs = new JobRepository(store.db);
      let had = 0;
      const medians = [];
      for (const history of histories) {
        await addHistory(store.db, history - had);
        had = history;
        const times = await claims(jobs, store.db);
        const median = percentile(times, 0.5);
        medians.push(median);
        rows.push({
          store: kind,
          'finished jobs': history,
          'claim median': `${median.toFixed(2)} ms`,
          'claim p95': `${percentile(times, 0.95).toFixed(2)} ms`,
          'claim max': `${times.at(-1).toFixed(2)} ms`,
        });
      }
      // A backlog: many jobs due at once (after an outage, or a burst of requests).
      const backlog = await claims(jobs, store.db, BACKLOG);
      rows.push({
        store: kind,
        'finished jobs': `0, ${BACKLOG} due`,
        'claim median': `${percentile(backlog, 0.5).toFixed(2)} ms`,
        'claim p95': `${percentile(backlog, 0.95).toFixed(2)} ms`,
        'claim max': `${backlog.at(-1).toFixed(2)} ms`,
      });
      // The same backlog waiting for one Graph bucket, as new requests wait for `class:createTeam`,
      // with turns free every 10 ms (the claim numbers the bucket's jobs against its turns).
      await store.db
        .insertInto('graph_budget')
        .values({ key: BUCKET, tat: Date.now(), interval_ms: 10 })
        .execute();
      const bucketed = await claims(jobs, store.db, BACKLOG, BUCKET);
      await store.db.deleteFrom('graph_budget').where('key', '=', BUCKET).execute();
      rows.push({
        store: kind,
        'finished jobs': `0, ${BACKLOG} due in one Graph bucket`,
        'claim median': `${percentile(bucketed, 0.5).toFixed(2)} ms`,
        'claim p95': `${percentile(bucketed, 0.95).toFixed(2)} ms`,
        'claim max': `${bucketed.at(-1).toFixed(2)} ms`,
      });
      targets.push({
        name: `${kind}: a claim's median with ${largest} finished jobs <= ${TARGET_RATIO}x with none`,
        met: medians.at(-1) <= TARGET_RATIO * medians[0],
        detail: `${medians.at(-1).toFixed(2)} ms vs ${medians[0].toFixed(2)} ms`,
      });
    } finally {
      await store.close();
      await postgres?.drop();
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  const markdown =
    `One worker claims ${DUE} due jobs one at a time (limit 1, as with one free slot), with 0, ` +
    `${histories[1]} and ${largest} finished provisioning jobs (a few kB of data and log each) in ` +
    `the table; then, with that history still there, ${DUE} claims with ${BACKLOG} jobs due at ` +
    `once, and with ${BACKLOG} due waiting for one Graph bucket (a turn every 10 ms). Each claim ` +
    'timed from the benchmark process, the store opened in-process.';
  return { rows, markdown, targets };
}

module.exports = { name: 'claim', description: 'a job claim against the queue’s history', run };
