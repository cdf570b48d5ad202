'use strict';
// The provisioning benchmark: throughput of the job queue on the embedded platform with no added
// latency. 1 000 team requests (template `project`, no approval) are submitted over HTTP from this
// process, 50 in flight, and the run lasts until every job has completed. It runs on SQLite with one
// process in the `all` role, then on PostgreSQL with one API process and 1, 2 (and 4) worker
// processes at Steward's defaults, then 1 and 2 workers that take one job at a time each (the
// scale-out pair), each configuration from a clean data dir or a fresh database. Every Steward process is a
// child (`bench/servers/steward.js` with its role in BENCH_STEWARD_ENV); the jobs table is read
// directly from this process afterwards, and the store is checked for the teams the jobs made.
const { randomBytes } = require('node:crypto');
const { mkdtempSync, readFileSync, readdirSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { DEFAULT_TENANT_ID } = require('../dist/config');
const { EmbeddedTokenIssuer } = require('../dist/services/access/tokens');
const { seedUsers } = require('../dist/store/seed/directory');
const { openReader, statusCounts, submit, untilDone } = require('./jobLoad');
const { cpuOf, rssOf, startServer } = require('./processes');
const { adminUrl, freshPostgres, percentile } = require('./stores');

const JOBS = 1000;
const IN_FLIGHT = 50;
const TEMPLATE = 'project';
const TARGET_SQLITE_JOBS_PER_S = 100;
const TARGET_SCALE_2_WORKERS = 1.6;
/** Jobs per worker process in the scale-out pair of rows. */
const SCALE_CONCURRENCY = 1;

/** A Steward child (`bench/servers/steward.js`) with `env` (STEWARD_* settings): API, `all` or `worker` role. */
const startSteward = (label, env) =>
  startServer('steward.js', { label, env: { BENCH_STEWARD_ENV: JSON.stringify(env) } });
const SKIPPED =
  'PostgreSQL rows skipped, and with them the scale-out target: neither BENCH_DATABASE_URL nor ' +
  'STEWARD_TEST_DATABASE_URL is set (a PostgreSQL admin URL; a fresh database is created per configuration).';

/** Busy and total clock ticks of all cores together (Linux), or null. */
function hostTicks() {
  try {
    const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const ticks = values.map(Number);
    const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - ticks[3] - ticks[4], total }; // idle and iowait are not busy
  } catch {
    return null;
  }
}

/** CPU seconds of every local `postgres` process by pid (the server, when it runs on this machine). */
function postgresCpu() {
  const seconds = new Map();
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return seconds;
  }
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    const cpu = cpuOf(pid);
    if (cpu !== null) seconds.set(pid, cpu);
  }
  return seconds;
}

/** CPU seconds local PostgreSQL spent since `before` (processes that ended meanwhile are missed). */
function postgresCpuSince(before) {
  let sum = 0;
  for (const [pid, cpu] of postgresCpu()) sum += cpu - (before.get(pid) ?? 0);
  return sum;
}

/** The store's view of the run: per-job times, teams, members, channels. */
async function inspect(reader, submittedIds) {
  const jobs = await reader.query('select id, status, created_at, completed_at, team_id from jobs');
  const [teams] = await reader.query(
    'select count(*) as n, count(distinct provisioning_key) as keys from platform_teams ' +
      'where provisioning_key in (select id from jobs)',
  );
  const [others] = await reader.query(
    'select count(*) as n from platform_teams ' +
      'where provisioning_key is null or provisioning_key not in (select id from jobs)',
  );
  const [linked] = await reader.query(
    'select count(distinct j.team_id) as n from jobs j join platform_teams t on t.id = j.team_id ' +
      'and t.provisioning_key = j.id',
  );
  const [duplicateMembers] = await reader.query(
    'select count(*) as n from (select team_id, user_id from platform_members ' +
      'group by team_id, user_id having count(*) > 1) d',
  );
  const [members] = await reader.query(
    'select count(*) as n from platform_members where team_id in (select team_id from jobs)',
  );
  const [duplicateChannels] = await reader.query(
    'select count(*) as n from (select team_id, lower(display_name) as name from platform_channels ' +
      'group by team_id, lower(display_name) having count(*) > 1) d',
  );
  const known = new Set(submittedIds);
  return {
    jobs,
    unknownJobs: jobs.filter((j) => !known.has(j.id)).length,
    teams: Number(teams.n),
    distinctKeys: Number(teams.keys),
    otherTeams: Number(others.n),
    linkedTeams: Number(linked.n),
    duplicateMembers: Number(duplicateMembers.n),
    memberRows: Number(members.n),
    duplicateChannels: Number(duplicateChannels.n),
  };
}

/**
 * One configuration from a clean store: starts its processes, submits `count` requests, waits for
 * every job, stops the processes and measures from the jobs table.
 */
async function runConfiguration({
  name,
  kind,
  workers,
  scale = false,
  count,
  admin,
  timeoutMs,
  settings = {},
}) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-provisioning-'));
  const secret = randomBytes(48).toString('base64url');
  const database = kind === 'postgres' ? await freshPostgres(admin) : undefined;
  const base = {
    STEWARD_DATA_DIR: scratch,
    STEWARD_AUTH_SECRET: secret,
    STEWARD_EMBEDDED_LATENCY_MS: '0',
    STEWARD_RATE_LIMIT_FACTOR: '100000',
    ...(database
      ? { STEWARD_DATABASE_URL: database.url }
      : { STEWARD_DATABASE_URL: `sqlite:${path.join(scratch, 'steward.db')}` }),
    // Worker knobs from the environment, for tuning runs; unset means Steward's defaults.
    ...pick(['STEWARD_WORKER_CONCURRENCY', 'STEWARD_JOB_POLL_MS', 'STEWARD_DATABASE_POOL_SIZE']),
    ...settings,
  };
  const processes = [];
  let reader;
  try {
    const role = kind === 'sqlite' ? 'all' : 'api';
    const api = await startSteward(`${name}: ${role}`, { ...base, STEWARD_ROLE: role });
    processes.push(api);
    // Workers start once the API has migrated and seeded the store.
    for (let i = 0; i < workers; i += 1) {
      processes.push(await startSteward(`${name}: worker ${i + 1}`, { ...base, STEWARD_ROLE: 'worker' }));
    }
    console.log(processes.map((p) => `${p.label} (pid ${p.pid})`).join(', '));
    reader = await openReader(kind, database ? database.url : path.join(scratch, 'steward.db'));
    const before = await statusCounts(reader);
    const tokens = await mintTokens(secret);

    const peakRss = new Map(processes.map((p) => [p.pid, rssOf(p.pid)]));
    const sampler = setInterval(() => {
      for (const p of processes) {
        const sample = rssOf(p.pid);
        if (sample !== null) peakRss.set(p.pid, Math.max(peakRss.get(p.pid) ?? 0, sample));
      }
    }, 100);
    const cpuBefore = new Map(processes.map((p) => [p.pid, cpuOf(p.pid)]));
    const pgBefore = database?.local ? postgresCpu() : undefined;
    const hostBefore = hostTicks();
    const benchBefore = process.cpuUsage();
    const started = performance.now();
    let submission;
    let counts;
    let wall;
    try {
      const runId = randomBytes(3).toString('hex');
      submission = await submit(api.url, tokens, count, {
        inFlight: IN_FLIGHT,
        bodyOf: (i) => ({ template: { id: TEMPLATE }, team: { name: `bench ${runId} ${i}` } }),
      });
      const submitSeconds = (performance.now() - started) / 1000;
      const finishedBefore = (before.completed ?? 0) + (before.failed ?? 0);
      counts = await untilDone(reader, finishedBefore + submission.submitted.length, timeoutMs, processes);
      wall = { submitSeconds, waitSeconds: (performance.now() - started) / 1000 };
    } finally {
      clearInterval(sampler);
    }
    const hostAfter = hostTicks();
    const bench = process.cpuUsage(benchBefore);
    const cpu = new Map(processes.map((p) => [p.pid, delta(cpuOf(p.pid), cpuBefore.get(p.pid))]));
    const pgCpu = pgBefore ? postgresCpuSince(pgBefore) : null;
    for (const p of processes.splice(0)) await p.stop();

    const found = await inspect(
      reader,
      submission.submitted.map((s) => s.id),
    );
    return {
      name,
      kind,
      workers,
      scale,
      count,
      submission,
      counts,
      found,
      wall,
      peakRss: [...peakRss.values()],
      rssApi: peakRss.get(api.pid),
      rssWorkers: [...peakRss.entries()].filter(([pid]) => pid !== api.pid).map(([, v]) => v),
      cpuApi: cpu.get(api.pid),
      cpuWorkers: [...cpu.entries()].filter(([pid]) => pid !== api.pid).map(([, v]) => v),
      pgCpu,
      benchCpu: (bench.user + bench.system) / 1e6,
      host:
        hostBefore && hostAfter
          ? (hostAfter.busy - hostBefore.busy) / (hostAfter.total - hostBefore.total)
          : null,
    };
  } finally {
    for (const p of processes) await p.stop();
    await reader?.close();
    await database?.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The named variables of this process's environment that are set. */
function pick(names) {
  return Object.fromEntries(names.filter((n) => process.env[n]).map((n) => [n, process.env[n]]));
}

const delta = (after, before) => (after === null || before === null ? null : after - before);

/** A bearer token for every seed person, with the app roles embedded mode gives them. */
function mintTokens(secret) {
  const issuer = new EmbeddedTokenIssuer(secret, DEFAULT_TENANT_ID);
  return Promise.all(seedUsers.map((u) => issuer.mint({ id: u.id, roles: u.appRoles }, 6 * 3600)));
}

/** Measurements and checks of one finished configuration. */
function analyse(result) {
  const { submission, found, count } = result;
  const submittedAt = new Map(submission.submitted.map((s) => [s.id, s.at]));
  const mine = found.jobs.filter((j) => submittedAt.has(j.id));
  const completed = mine.filter((j) => j.status === 'completed' && j.completed_at);
  const firstSubmit = Math.min(...submission.submitted.map((s) => s.at));
  const lastCompletion = Math.max(...completed.map((j) => Date.parse(j.completed_at)));
  const seconds = (lastCompletion - firstSubmit) / 1000;
  const done = completed
    .map((j) => Date.parse(j.completed_at) - Date.parse(j.created_at))
    .sort((a, b) => a - b);
  const post = submission.submitted.map((s) => s.latency).sort((a, b) => a - b);
  const problems = [];
  if (submission.failures.length > 0)
    problems.push(`${submission.failures.length} requests refused (first: ${submission.failures[0]})`);
  if (completed.length !== count) problems.push(`${completed.length}/${count} jobs completed`);
  const failed = mine.filter((j) => j.status === 'failed').length;
  if (failed > 0) problems.push(`${failed} jobs failed`);
  if (found.unknownJobs > 0) problems.push(`${found.unknownJobs} jobs in the store that were not submitted`);
  if (found.teams !== count || found.distinctKeys !== count)
    problems.push(`${found.teams} teams with a job's provisioning key, ${found.distinctKeys} distinct keys`);
  if (found.linkedTeams !== count) problems.push(`${found.linkedTeams} jobs point at their own team`);
  if (found.duplicateMembers > 0) problems.push(`${found.duplicateMembers} duplicate membership rows`);
  if (found.memberRows < count) problems.push(`only ${found.memberRows} membership rows for ${count} teams`);
  if (found.duplicateChannels > 0) problems.push(`${found.duplicateChannels} duplicate channels`);
  return {
    jobsPerSecond: completed.length / seconds,
    seconds,
    done,
    post,
    problems,
    failed,
  };
}

const mib = (bytes) => (bytes === null || bytes === undefined ? 'n/a' : `${(bytes / 2 ** 20).toFixed(0)}`);
const pct = (seconds, wall) => (seconds === null ? 'n/a' : `${Math.round((100 * seconds) / wall)}%`);
const msOf = (n) => `${Math.round(n)} ms`;
const hostShare = (result) => (result.host === null ? 'n/a' : `${Math.round(100 * result.host)} %`);

/** A table row of one configuration. */
function rowOf(result, measured) {
  const wall = result.wall.waitSeconds;
  return {
    configuration: result.name,
    'jobs/s': measured.jobsPerSecond.toFixed(1),
    'first submit → last done': `${measured.seconds.toFixed(2)} s`,
    'all submitted': `${result.wall.submitSeconds.toFixed(2)} s`,
    'POST p50': msOf(percentile(measured.post, 0.5)),
    'POST p99': msOf(percentile(measured.post, 0.99)),
    'done p50': msOf(percentile(measured.done, 0.5)),
    'done p99': msOf(percentile(measured.done, 0.99)),
    'done max': msOf(measured.done[measured.done.length - 1] ?? NaN),
    'RSS max API (MiB)': mib(result.rssApi),
    'RSS max workers (MiB)': result.rssWorkers.length > 0 ? result.rssWorkers.map(mib).join(' / ') : '—',
    'CPU API': pct(result.cpuApi, wall),
    'CPU workers':
      result.cpuWorkers.length > 0 ? result.cpuWorkers.map((c) => pct(c, wall)).join(' / ') : '—',
    'CPU postgres': result.pgCpu === null ? '—' : pct(result.pgCpu, wall),
    'CPU bench': pct(result.benchCpu, wall),
    'host CPU': result.host === null ? 'n/a' : `${Math.round(100 * result.host)}%`,
    checks: measured.problems.length === 0 ? 'ok' : 'FAILED',
  };
}

/** Worker-process counts for the PostgreSQL rows, from BENCH_PROVISIONING_WORKERS (default 1,2,4). */
function workerCounts() {
  const value = process.env.BENCH_PROVISIONING_WORKERS || '1,2,4';
  const counts = value.split(',').map((v) => Number(v.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 16))
    throw new Error(`BENCH_PROVISIONING_WORKERS must list worker counts like 1,2,4, got "${value}"`);
  return counts;
}

/** Team requests per configuration: BENCH_PROVISIONING_JOBS, else 1 000 (shorter A/B runs on a shared machine). */
function jobCount() {
  const value = process.env.BENCH_PROVISIONING_JOBS || String(JOBS);
  const n = Number(value);
  if (!Number.isInteger(n) || n < IN_FLIGHT || n > 100_000)
    throw new Error(
      `BENCH_PROVISIONING_JOBS must be a whole number from ${IN_FLIGHT} to 100000, got "${value}"`,
    );
  return n;
}

async function run({ quick = false } = {}) {
  const count = quick ? 100 : jobCount();
  const timeoutMs = 600_000;
  const admin = adminUrl();
  const configurations = [{ name: 'SQLite, 1 process (all)', kind: 'sqlite', workers: 0 }];
  if (admin) {
    for (const n of workerCounts()) {
      configurations.push({
        name: `PostgreSQL, API + ${n} worker${n === 1 ? '' : 's'}`,
        kind: 'postgres',
        workers: n,
      });
    }
  }
  if (admin) {
    // The scale-out pair: one job at a time per worker process, so that one worker leaves most of a
    // small machine idle and a second one has cores to use (the rows above show where they run out).
    for (const n of [1, 2]) {
      configurations.push({
        name: `PostgreSQL, API + ${n} worker${n === 1 ? '' : 's'}, ${SCALE_CONCURRENCY} job at a time each`,
        kind: 'postgres',
        workers: n,
        scale: true,
        settings: { STEWARD_WORKER_CONCURRENCY: String(SCALE_CONCURRENCY) },
      });
    }
  }
  const rows = [];
  const results = [];
  for (const configuration of configurations) {
    const result = await runConfiguration({ ...configuration, count, admin, timeoutMs });
    const measured = analyse(result);
    results.push({ ...result, measured });
    rows.push(rowOf(result, measured));
    for (const problem of measured.problems) console.log(`${configuration.name}: ${problem}`);
  }

  const sqlite = results.find((r) => r.kind === 'sqlite');
  const pg = (n, scale = false) =>
    results.find((r) => r.kind === 'postgres' && r.workers === n && Boolean(r.scale) === scale);
  const targets = [
    {
      name: `SQLite (one process) >= ${TARGET_SQLITE_JOBS_PER_S} jobs/s`,
      met: sqlite.measured.jobsPerSecond >= TARGET_SQLITE_JOBS_PER_S,
      detail: `${sqlite.measured.jobsPerSecond.toFixed(1)} jobs/s`,
    },
  ];
  if (pg(1) && pg(2)) {
    const ratio = pg(2).measured.jobsPerSecond / pg(1).measured.jobsPerSecond;
    targets.push({
      name: `PostgreSQL 2 workers >= ${TARGET_SCALE_2_WORKERS} × 1 worker, Steward's default concurrency`,
      met: ratio >= TARGET_SCALE_2_WORKERS,
      detail:
        `${ratio.toFixed(2)} × (${pg(2).measured.jobsPerSecond.toFixed(1)} / ` +
        `${pg(1).measured.jobsPerSecond.toFixed(1)} jobs/s)` +
        (pg(4)
          ? `; 4 workers ${(pg(4).measured.jobsPerSecond / pg(1).measured.jobsPerSecond).toFixed(2)} ×`
          : '') +
        `; host CPU ${hostShare(pg(1))} with one worker, ${hostShare(pg(2))} with two`,
    });
  } else if (admin) {
    targets.push({
      name: `PostgreSQL 2 workers >= ${TARGET_SCALE_2_WORKERS} × 1 worker`,
      met: false,
      detail: 'not measured: BENCH_PROVISIONING_WORKERS must include 1 and 2',
    });
  } else {
    console.log(`${SKIPPED}\n`);
  }
  if (pg(1, true) && pg(2, true)) {
    const [one, two] = [pg(1, true), pg(2, true)];
    const ratio = two.measured.jobsPerSecond / one.measured.jobsPerSecond;
    targets.push({
      name: `PostgreSQL 2 workers >= ${TARGET_SCALE_2_WORKERS} × 1 worker, ${SCALE_CONCURRENCY} job at a time each`,
      met: ratio >= TARGET_SCALE_2_WORKERS,
      detail:
        `${ratio.toFixed(2)} × (${two.measured.jobsPerSecond.toFixed(1)} / ` +
        `${one.measured.jobsPerSecond.toFixed(1)} jobs/s); host CPU ${hostShare(one)} with one worker, ` +
        `${hostShare(two)} with two`,
    });
  }
  const problems = results.flatMap((r) => r.measured.problems.map((p) => `${r.name}: ${p}`));
  targets.push({
    name: 'every job completed, one team per job (distinct provisioning keys), no duplicate members or channels',
    met: problems.length === 0,
    detail:
      problems.length === 0
        ? `${results.length} configuration${results.length === 1 ? '' : 's'} × ${count} jobs`
        : problems.join('; '),
  });

  const knobs = pick(['STEWARD_WORKER_CONCURRENCY', 'STEWARD_JOB_POLL_MS', 'STEWARD_DATABASE_POOL_SIZE']);
  const markdown = [
    `${count} \`POST /api/v1.0/teams/provisioning\` (template \`${TEMPLATE}\`, no approval) from the ${seedUsers.length}`,
    `seed people, ${IN_FLIGHT} in flight over one undici pool, embedded platform with no latency, until every job completed;`,
    `each configuration on a clean data dir or a fresh database. Worker settings: ${
      Object.keys(knobs).length > 0
        ? Object.entries(knobs)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')
        : 'Steward defaults (concurrency 4 per process, poll 500 ms, PostgreSQL pool 10)'
    }.`,
    'jobs/s = jobs ÷ (first submit → last `completed_at`); `done` = `completed_at` − `created_at` from the jobs table;',
    'CPU columns are shares of one core over the whole run (`host CPU`: of all cores), `CPU postgres` sums the local',
    "server processes, `CPU bench` is the load generator's (this process). With `host CPU` near 100 % the machine,",
    'not the number of worker processes, bounds the throughput.' + (admin ? '' : ` ${SKIPPED}`),
    ...(admin
      ? [
          `The last two rows are the scale-out pair: the same run with ${SCALE_CONCURRENCY} job at a time per worker`,
          '(`STEWARD_WORKER_CONCURRENCY`), so that one worker process cannot fill the cores by itself and the ratio',
          'shows whether a second process adds throughput (claims that do not serialise, no lost or repeated jobs)',
          'rather than how many cores the machine has left.',
        ]
      : []),
  ].join('\n');
  return { rows, markdown, targets };
}

module.exports = {
  name: 'provisioning',
  description:
    'Provisioning throughput on the embedded platform (1 000 jobs, 50 in flight): SQLite in one process, ' +
    'PostgreSQL with one API and 1, 2, 4 worker processes, then 1 and 2 workers at one job at a time each; ' +
    'targets: SQLite >= 100 jobs/s, 2 workers >= 1.6 × 1.',
  run,
};
