'use strict';
// The soak benchmark: one Steward (SQLite, the `all` role: API and job worker in one process) under
// a steady mixed load for a few minutes — catalog reads, the caller's templates, people search,
// metadata writes and queries, audit pages, and provisioning requests at a steady rate. The run is
// cut in time slices; each reports requests, errors, latency percentiles and the server's RSS, and
// the targets compare the end of the run with its start after a warm-up: no errors, no p99 drift,
// flat memory. BENCH_SOAK_SECONDS sets the length (default 180), BENCH_SOAK_RATE the mixed requests
// a second (default 300, besides the provisioning requests); STEWARD_HEAP_GROWTH_PERCENT, when set,
// is passed to the server to compare a heap-growth setting with the default.
const { randomBytes } = require('node:crypto');
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const SQLite = require('better-sqlite3');
const { DEFAULT_TENANT_ID } = require('../dist/config');
const { EmbeddedTokenIssuer } = require('../dist/services/access/tokens');
const { seedUsers } = require('../dist/store/seed/directory');
const { rssOf, startServer } = require('./processes');
const { load, window } = require('./soakLoad');

const MEGAN = '00000000-0000-0000-0000-000000000021'; // GLOBAL_ADMIN: catalog, metadata, audit
const ALEX = '00000000-0000-0000-0000-000000000020';
const PROVISIONING_PER_S = 5;
const NAMESPACE = 'soak';
// Targets: the rules, stated once.
const MAX_P99_RATIO = 1.5;
const P99_SLACK_MS = 2;
const MAX_RSS_GROWTH = 0.1;
const MAX_RSS_GROWTH_MIB = 30;

/** The mixed requests: weight, expected status, and the request itself (i counts requests of the kind). */
function mix({ admin, alex, teams }) {
  const prefixes = [...new Set(seedUsers.map((u) => u.displayName.slice(0, 2).toLowerCase()))];
  const api = '/api/v1.0';
  return [
    { name: 'catalog', weight: 15, expect: 200, make: () => ['GET', `${api}/catalog/templates`, admin] },
    {
      name: 'my templates',
      weight: 25,
      expect: 200,
      make: () => ['GET', `${api}/me/catalog/templates`, alex],
    },
    {
      name: 'people search',
      weight: 20,
      expect: 200,
      make: (i) => [
        'GET',
        `${api}/users?$search=${encodeURIComponent(prefixes[i % prefixes.length])}&$top=10`,
        alex,
      ],
    },
    {
      name: 'metadata put',
      weight: 10,
      expect: 200,
      make: (i) => {
        const k = i % teams.length;
        const body = { code: `S-${k}`, revision: i, region: ['emea', 'amer', 'apac'][k % 3], tags: ['soak'] };
        return ['PUT', `${api}/teams/${teams[k]}/metadata/${NAMESPACE}`, admin, body];
      },
    },
    {
      name: 'metadata query',
      weight: 15,
      expect: 200,
      make: (i) => ['POST', `${api}/metadata/${NAMESPACE}/query`, admin, { code: `S-${i % teams.length}` }],
    },
    {
      name: 'audit page',
      weight: 15,
      expect: 200,
      make: () => ['GET', `${api}/audit_trails/team_provisioning/records?$top=50`, admin],
    },
  ];
}

const mib = (bytes) => (bytes / 2 ** 20).toFixed(1);
const ms = (value) => value.toFixed(2);

/** Seconds of the run, of one slice, and of the warm-up that the comparisons leave out. */
function timing(quick) {
  const value = process.env.BENCH_SOAK_SECONDS;
  const seconds = quick ? 20 : value ? Number(value) : 180;
  if (!Number.isInteger(seconds) || seconds < 20 || seconds > 3600)
    throw new Error(`BENCH_SOAK_SECONDS must be a whole number of seconds from 20 to 3600, got "${value}"`);
  const sliceSeconds = seconds >= 120 ? 10 : 2;
  // A sixth of the run warms up (JIT, caches, the store's pages), at least one slice.
  const warmupSlices = Math.max(1, Math.round(seconds / 6 / sliceSeconds));
  return { seconds, sliceSeconds, warmupSlices };
}

async function run({ quick = false } = {}) {
  const { seconds, sliceSeconds, warmupSlices } = timing(quick);
  const rate = Number(process.env.BENCH_SOAK_RATE || 300);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-soak-'));
  const file = path.join(scratch, 'steward.db');
  const secret = randomBytes(48).toString('base64url');
  const server = await startServer('steward.js', {
    label: 'steward (soak)',
    env: {
      BENCH_STEWARD_ENV: JSON.stringify({
        STEWARD_DATA_DIR: scratch,
        STEWARD_DATABASE_URL: `sqlite:${file}`,
        STEWARD_AUTH_SECRET: secret,
        STEWARD_EMBEDDED_LATENCY_MS: '0',
        // Counted on every request, never refusing: the soak measures Steward, not its budgets.
        STEWARD_RATE_LIMIT_FACTOR: '100000',
        // A heap-growth setting to compare with Steward's default, when given.
        ...(process.env.STEWARD_HEAP_GROWTH_PERCENT
          ? { STEWARD_HEAP_GROWTH_PERCENT: process.env.STEWARD_HEAP_GROWTH_PERCENT }
          : {}),
      }),
    },
  });
  const reader = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const teams = reader
      .prepare('select id from platform_teams order by id')
      .all()
      .map((r) => r.id);
    if (teams.length === 0) throw new Error('the embedded tenant has no teams to write metadata to');
    const issuer = new EmbeddedTokenIssuer(secret, DEFAULT_TENANT_ID);
    const ttl = seconds + 3600;
    const admin = await issuer.mint({ id: MEGAN, roles: ['GLOBAL_ADMIN'] }, ttl);
    const alex = await issuer.mint({ id: ALEX, roles: [] }, ttl);
    const people = await Promise.all(seedUsers.map((u) => issuer.mint({ id: u.id, roles: u.appRoles }, ttl)));
    const runId = randomBytes(3).toString('hex');
    const provision = {
      name: 'provisioning',
      expect: 201,
      make: (i) => [
        'POST',
        '/api/v1.0/teams/provisioning',
        people[i % people.length],
        { template: { id: 'project' }, team: { name: `soak ${runId} ${i}` } },
      ],
    };
    const kinds = mix({ admin, alex, teams });
    const idleRss = rssOf(server.pid);
    console.log(`${seconds} s at ${rate} mixed requests/s + ${PROVISIONING_PER_S} provisioning requests/s…`);
    const { slices, errorSamples, counts } = await load(server, kinds, provision, {
      seconds,
      sliceSeconds,
      rate,
      provisioningRate: PROVISIONING_PER_S,
    });
    // Every provisioning job ends; one that failed or never ends is an error of the run too.
    const submitted = counts.get('provisioning') ?? 0;
    const jobs = await jobsSettled(reader, 60_000);
    return report({
      slices,
      errorSamples,
      counts,
      jobs,
      submitted,
      idleRss,
      seconds,
      sliceSeconds,
      warmupSlices,
      rate,
    });
  } finally {
    reader.close();
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Job counts by status once none is waiting or running (or after `timeoutMs`). */
async function jobsSettled(reader, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = reader
      .prepare("select status, count(*) as n from jobs where type = 'ProvisioningRequest' group by status")
      .all();
    const counts = Object.fromEntries(rows.map((r) => [r.status, r.n]));
    const open = rows.filter((r) => !['completed', 'failed'].includes(r.status)).reduce((a, r) => a + r.n, 0);
    if (open === 0 || Date.now() > deadline) return counts;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The table (one row per slice), the description and the targets. */
function report({
  slices,
  errorSamples,
  counts,
  jobs,
  submitted,
  idleRss,
  seconds,
  sliceSeconds,
  warmupSlices,
  rate,
}) {
  const rows = slices.map((s) => {
    const w = window([s]);
    return {
      slice: `${s.index * sliceSeconds}–${(s.index + 1) * sliceSeconds} s${s.index < warmupSlices ? ' (warm-up)' : ''}`,
      'req/s': (s.requests / sliceSeconds).toFixed(0),
      errors: s.errors,
      shed: s.shed,
      'p50 ms': ms(w.p50),
      'p99 ms': ms(w.p99),
      'RSS MiB': mib(w.rss),
    };
  });
  const measured = slices.slice(warmupSlices);
  // The comparison windows: a sixth of the run (at least one slice) just after warm-up, and at the end.
  const span = Math.max(1, Math.min(warmupSlices, Math.floor(measured.length / 2)));
  const first = window(measured.slice(0, span));
  const lastWindow = window(measured.slice(-span));
  const all = window(slices);
  const shed = slices.reduce((a, s) => a + s.shed, 0);
  const completed = jobs.completed ?? 0;
  const jobProblems =
    completed === submitted
      ? []
      : [`${completed} of ${submitted} provisioning jobs completed (${JSON.stringify(jobs)})`];
  const errorRate = all.errors / Math.max(1, all.requests);
  const p99Limit = Math.max(first.p99 * MAX_P99_RATIO, first.p99 + P99_SLACK_MS);
  const growth = lastWindow.rss - first.rss;
  const growthLimit = Math.max(first.rss * MAX_RSS_GROWTH, MAX_RSS_GROWTH_MIB * 2 ** 20);
  const windowText = `${span * sliceSeconds} s`;
  const slope = rssSlope(measured, sliceSeconds);
  const targets = [
    {
      name: 'error rate 0 (every answer the expected status, every provisioning job completed)',
      met: all.errors === 0 && jobProblems.length === 0,
      detail:
        `${all.errors} errors in ${all.requests} requests (${(100 * errorRate).toFixed(3)} %), ` +
        `${completed}/${submitted} jobs completed; ${shed} requests shed at the in-flight cap` +
        [...errorSamples, ...jobProblems].map((e) => `; ${e}`).join(''),
    },
    {
      name: `p99 drift: p99 of the last ${windowText} <= ${MAX_P99_RATIO} × (or + ${P99_SLACK_MS} ms of) the first ${windowText} after warm-up`,
      met: lastWindow.p99 <= p99Limit,
      detail: `${ms(first.p99)} ms → ${ms(lastWindow.p99)} ms (${(lastWindow.p99 / first.p99).toFixed(2)} ×); p50 ${ms(first.p50)} → ${ms(lastWindow.p50)} ms`,
    },
    {
      name: `RSS flat after warm-up: mean RSS of the last ${windowText} within ${100 * MAX_RSS_GROWTH} % or ${MAX_RSS_GROWTH_MIB} MiB (the larger) of the first ${windowText} after warm-up`,
      met: growth <= growthLimit,
      detail: `${mib(first.rss)} → ${mib(lastWindow.rss)} MiB (${growth >= 0 ? '+' : ''}${mib(growth)} MiB, ${((100 * growth) / first.rss).toFixed(1)} %); trend after warm-up ${slope === null ? 'n/a' : `${slope >= 0 ? '+' : ''}${slope.toFixed(1)}`} MiB/min; idle before the load ${idleRss === null ? 'n/a' : mib(idleRss)} MiB`,
    },
  ];
  const mixText = [...counts.entries()].map(([name, n]) => `${name} ${n}`).join(', ');
  const markdown = [
    `One Steward process (SQLite, role \`all\`: API and 4 job workers), embedded platform with no latency, rate limits counted`,
    `but raised (factor 100 000), under ${rate} mixed requests/s plus ${PROVISIONING_PER_S} provisioning requests/s (template`,
    `\`project\`, from the 32 seed people) for ${seconds} s, at most 64 in flight over one undici pool (requests over that are`,
    `shed and counted: not errors, but a sign the server fell behind). Mix: catalog 15 %, my templates 25 %, people search 20 %, metadata put 10 %, metadata query 15 %,`,
    `audit page 15 %; sent: ${mixText}. Slices of ${sliceSeconds} s; the first ${warmupSlices} are warm-up. RSS is the server's,`,
    'sampled every second and averaged per slice. An error is any answer other than the expected status (200, or 201',
    'for provisioning) or a failed connection.',
  ].join('\n');
  return { rows, markdown, targets };
}

/** Least-squares slope of the slices' mean RSS, MiB a minute: a steady leak shows here first. */
function rssSlope(slices, sliceSeconds) {
  const points = slices
    .map((s) => ({ x: ((s.index + 0.5) * sliceSeconds) / 60, y: window([s]).rss / 2 ** 20 }))
    .filter((p) => p.y > 0);
  if (points.length < 2) return null;
  const mx = points.reduce((a, p) => a + p.x, 0) / points.length;
  const my = points.reduce((a, p) => a + p.y, 0) / points.length;
  const sxy = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return sxy / sxx;
}

module.exports = {
  name: 'soak',
  description:
    'Soak under mixed load (one process, SQLite; BENCH_SOAK_SECONDS, default 180): error rate 0, ' +
    'p99 drift <= 1.5 ×, RSS flat after warm-up (< 10 % or < 30 MiB)',
  run,
};
