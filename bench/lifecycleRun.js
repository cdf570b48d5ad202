'use strict';
// One measured lifecycle pass, in its own process (`node --expose-gc bench/lifecycleRun.js <json>`):
// seeds N teams in the embedded tenant, then runs, interleaved, a read-only walk (the preview's work:
// the platform's pages and the decisions, writing nothing) and full evaluations (decisions recorded,
// audit records, events, archive jobs queued, after the activity report is read), timing each and
// sampling RSS at every page and every 50 ms, with V8's heap growth as given (Steward's by default).
// Prints JSON; with `"trace": true` also the memory at each page (every 50th after a full collection).
const { randomUUID } = require('node:crypto');
const pino = require('pino');
const { loadConfig } = require('../dist/config');
const { buildServices } = require('../dist/compose/services');
const { createEmbeddedPlatform } = require('../dist/platform/embedded');
const { migrate, openStore } = require('../dist/store/database');
const { DirectoryRepository } = require('../dist/store/directory/directory');
const { setHeapGrowth } = require('../dist/heap');

const DAY = 86_400_000;
const {
  kind,
  url,
  file,
  teams: N,
  evaluations,
  heapGrowthPercent,
  phase = 'measure',
  pageSize,
  trace = false,
} = JSON.parse(process.argv[2]);
const MiB = 2 ** 20;

/** `process.memoryUsage()` in MiB, for the per-page trace. */
function memory() {
  const m = process.memoryUsage();
  return {
    rss: m.rss / MiB,
    heapUsed: m.heapUsed / MiB,
    heapTotal: m.heapTotal / MiB,
    external: m.external / MiB,
  };
}

/** Teams created over the last 400 days (so some have expired, some are in a notice window), 2 owners each but every 100th. */
async function seed(db) {
  const now = Date.now();
  const batch = 500;
  for (let start = 0; start < N; start += batch) {
    const teams = [];
    const members = [];
    for (let i = start; i < Math.min(N, start + batch); i++) {
      const id = `bench-team-${String(i).padStart(6, '0')}`;
      const created = new Date(now - Math.floor((i / N) * 400 * DAY)).toISOString();
      teams.push({
        id,
        provisioning_key: null,
        display_name: `Bench team ${i}`,
        description: null,
        visibility: 'private',
        mail_nickname: `benchteam${i}`,
        classification: null,
        specialization: null,
        internal_id: null,
        sensitivity_label_id: null,
        settings: '{}',
        is_archived: 0,
        site_read_only: 0,
        created_at: created,
      });
      if (i % 100 === 0) continue;
      for (const role of ['owner', 'owner', 'member']) {
        members.push({ id: randomUUID(), team_id: id, user_id: randomUUID(), role, created_at: created });
      }
    }
    await db.insertInto('platform_teams').values(teams).execute();
    await db.insertInto('platform_members').values(members).execute();
  }
}

async function main() {
  const database = kind === 'sqlite' ? { kind, file } : { kind, url };
  const store = openStore(database);
  await migrate(store.db);
  // Seeding runs in a process of its own (`phase: "seed"`), so its garbage does not raise the RSS
  // the measuring process starts from.
  if (phase === 'seed') {
    await seed(store.db);
    await store.close();
    return;
  }
  const config = loadConfig({
    STEWARD_DATABASE_URL: kind === 'sqlite' ? `sqlite:${file}` : url,
    STEWARD_AUTH_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
    STEWARD_LIFECYCLE_EVALUATION_AT: 'off',
    STEWARD_LOG_LEVEL: 'silent',
    ...(pageSize ? { STEWARD_LIFECYCLE_PAGE_SIZE: String(pageSize) } : {}),
  });
  const platform = createEmbeddedPlatform({
    directory: new DirectoryRepository(store.db),
    db: store.db,
    publicUrl: () => 'http://127.0.0.1',
  });
  // RSS is sampled at every page the walker reads as well as every 50 ms: on SQLite a round runs
  // on microtasks (better-sqlite3 is synchronous), so an interval timer alone misses its peak.
  // With `trace`, the memory at each page, and every 50th after a full collection: what is live.
  const pages = [];
  let peak = Infinity;
  const listTeams = platform.lifecycle.listTeams.bind(platform.lifecycle);
  platform.lifecycle.listTeams = (cursor, size) => {
    const sample = memory();
    peak = Math.max(peak, sample.rss * MiB);
    if (trace) {
      if (pages.length % 50 === 0 && global.gc) {
        global.gc();
        sample.liveHeap = process.memoryUsage().heapUsed / MiB;
      }
      pages.push(sample);
    }
    return listTeams(cursor, size);
  };
  const services = buildServices(config, { store, platform }, pino({ level: 'silent' }), {
    onQueued: () => {},
  });
  await services.lifecycle.setPolicy(
    { id: 'bench', kind: 'app', roles: new Set(), privileged: true, tenantId: config.tenantId },
    {
      expiration: { enabled: true, days: 365, renewalNoticeDays: [30, 7], onExpiry: 'archive' },
      inactivity: { enabled: true, days: 180, onInactive: 'notify' },
      ownership: { minimumOwners: 1, onOwnerless: 'notifyGovernance' },
      guestReview: { enabled: false, everyDays: 90 },
    },
  );
  const today = new Date().toISOString().slice(0, 10);
  // The process as deployed sets V8's heap growth (`STEWARD_HEAP_GROWTH_PERCENT`, main.ts); 0 is V8's own.
  setHeapGrowth(heapGrowthPercent ?? config.heapGrowthPercent);
  global.gc?.();
  const baseRss = process.memoryUsage().rss;
  peak = baseRss;
  const liveHeapBeforeMiB = process.memoryUsage().heapUsed / MiB;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const rounds = [];
  for (let round = 0; round < evaluations; round++) {
    let start = process.hrtime.bigint();
    const preview = await services.lifecycle.preview(today, 1);
    const walkMs = Number(process.hrtime.bigint() - start) / 1e6;
    // An evaluation as its job runs it: the activity report read into the store, then every team.
    start = process.hrtime.bigint();
    const activity = await services.lifecycleEvaluations.importActivity();
    const activityMs = Number(process.hrtime.bigint() - start) / 1e6;
    const log = [activity, ...(await services.lifecycleEvaluations.evaluate(today, `bench-${round}`))];
    const evaluateMs = Number(process.hrtime.bigint() - start) / 1e6;
    global.gc?.();
    const liveHeapMiB = process.memoryUsage().heapUsed / MiB;
    rounds.push({
      walkMs,
      activityMs,
      evaluateMs,
      liveHeapMiB,
      teams: preview.teamsEvaluated,
      actions: preview['@odata.count'],
      log,
    });
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const jobs = await store.db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('type', '=', 'TeamArchiveRequest')
    .executeTakeFirstOrThrow();
  await store.close();
  process.stdout.write(
    JSON.stringify({
      rounds,
      baseRssMiB: baseRss / MiB,
      peakRssMiB: peak / MiB,
      liveHeapBeforeMiB,
      archiveJobs: Number(jobs.n),
      ...(trace ? { pages } : {}),
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
