'use strict';
// The API request's own database statements: how many statements one request sends, by kind, for
// the provisioning `POST` the graph-pace benchmark sends, the `GET /jobs/{id}` a client polls with,
// and a catalog `GET`. Steward runs alone (`STEWARD_ROLE=api`, no worker, so nothing else writes) in
// its own process, counting every statement it sends (bench/servers/steward.js, SQLite's included);
// requests go one at a time from one caller, after a warm-up, so caches are as in a steady run. Two
// limit settings: the benchmarks' raised limits (factor 100 000, as graph-pace), and the contract's
// own (factor 1), where a caller may send only 6 tier-1 and 20 tier-2 calls a minute.
// Settings: BENCH_API_STATEMENTS_REQUESTS (default 100, at the raised limits).
const { mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { DEFAULT_TENANT_ID } = require('../dist/config');
const { EmbeddedTokenIssuer } = require('../dist/services/access/tokens');
const { seedUsers } = require('../dist/store/seed/directory');
const { startServer } = require('./processes');
const { freshPostgres, storeKinds } = require('./stores');

/** What a statement is, by its text: the request pipeline's own (rate limits, queue state) or the route's. */
function kindOf(text) {
  if (/rate_limits/.test(text)) return 'rate limits';
  if (/steward_meta|data_version|LISTEN/i.test(text)) return 'queue state';
  return 'route';
}

/** The statements tallied by kind so far (the server's `statements.<pid>.json`). */
function tally(dir) {
  const sums = { total: 0, 'rate limits': 0, 'queue state': 0, route: 0 };
  for (const name of readdirSync(dir).filter((n) => /^statements\.\d+\.json$/.test(n))) {
    for (const [text, n] of readTally(path.join(dir, name))) {
      sums.total += n;
      sums[kindOf(text)] += n;
    }
  }
  return sums;
}

/** A tally file, read again when it was caught in the middle of a write. */
function readTally(file) {
  for (let attempt = 1; ; attempt++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      if (attempt >= 20) throw error;
    }
  }
}

/** Waits for the server's next counter write (every 250 ms). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 600));

async function call(url, method, token, body) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

async function runStore(kind, admin, limits, requests) {
  const WARM_UP = limits.warmUp;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-api-statements-'));
  const database = kind === 'postgres' ? await freshPostgres(admin) : undefined;
  const secret = randomBytes(48).toString('base64url');
  const server = await startServer('steward.js', {
    label: `steward (${kind})`,
    env: {
      BENCH_STEWARD_ENV: JSON.stringify({
        STEWARD_DATA_DIR: scratch,
        STEWARD_AUTH_SECRET: secret,
        STEWARD_ROLE: 'api',
        STEWARD_RATE_LIMIT_FACTOR: String(limits.factor),
        STEWARD_DATABASE_URL: database ? database.url : `sqlite:${path.join(scratch, 'steward.db')}`,
      }),
      BENCH_STATEMENTS_FILE: path.join(scratch, 'statements'),
      BENCH_STATEMENTS_KINDS_DIR: scratch,
      BENCH_STATEMENTS_SQLITE: '1',
    },
  });
  const rows = [];
  try {
    const issuer = new EmbeddedTokenIssuer(secret, DEFAULT_TENANT_ID);
    const person = (mail) => seedUsers.find((u) => u.mail === mail).id;
    const alex = await issuer.mint({ id: person('alexw@example.com'), roles: [] }, 3600);
    const isaiah = await issuer.mint({ id: person('isaiahl@example.com'), roles: [] }, 3600);
    const api = `${server.url}/api/v1.0`;
    let n = 0;
    const provision = () =>
      call(`${api}/teams/provisioning`, 'POST', alex, {
        template: { id: 'project' },
        team: {
          name: `statements ${randomBytes(3).toString('hex')} ${(n += 1)}`,
          welcomeMessage: 'Welcome!',
        },
      });
    const { id: jobId } = await provision();
    const phases = [
      // At the contract's limits a caller has 6 tier-1 calls a minute, the first spent above.
      {
        request: 'POST /teams/provisioning',
        count: Math.min(requests, limits.tier1 - 1 - WARM_UP),
        send: provision,
      },
      {
        request: 'GET /jobs/{id}',
        count: Math.min(requests, limits.tier2 - WARM_UP),
        send: () => call(`${api}/jobs/${jobId}`, 'GET', alex),
      },
      {
        request: 'GET /me/catalog/templates',
        count: Math.min(requests, limits.tier2 - WARM_UP),
        send: () => call(`${api}/me/catalog/templates`, 'GET', isaiah),
      },
    ];
    for (const phase of phases) {
      for (let i = 0; i < WARM_UP; i++) await phase.send();
      await settle();
      const before = tally(scratch);
      for (let i = 0; i < phase.count; i++) await phase.send();
      await settle();
      const after = tally(scratch);
      const per = (key) => ((after[key] - before[key]) / phase.count).toFixed(2);
      rows.push({
        store: kind,
        limits: limits.label,
        request: phase.request,
        requests: phase.count,
        'statements / request': per('total'),
        'rate limits': per('rate limits'),
        'queue state': per('queue state'),
        "route's own": per('route'),
      });
    }
  } finally {
    await server.stop();
    await database?.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
  return rows;
}

async function run({ quick }) {
  const requests = quick ? 10 : Number(process.env.BENCH_API_STATEMENTS_REQUESTS || 100);
  const { admin, kinds } = storeKinds();
  const settings = [
    { label: 'raised (× 100 000)', factor: 100_000, tier1: Infinity, tier2: Infinity, warmUp: 3 },
    { label: "the contract's", factor: 1, tier1: 6, tier2: 20, warmUp: 1 },
  ];
  const rows = [];
  for (const kind of kinds)
    for (const limits of settings) rows.push(...(await runStore(kind, admin, limits, requests)));
  const markdown = [
    `Statements one API request sends, by kind, on each store: one caller, requests one at a time after`,
    `warm-up requests (3; 1 at the contract's limits), Steward alone in its process (\`STEWARD_ROLE=api\`: no worker). Raised limits`,
    `(factor 100 000, as the other benchmarks): ${requests} requests of each; the contract's limits (6 tier-1 and`,
    `20 tier-2 calls a minute): what a caller may send in the minute. "rate limits": the caller's budget;`,
    `"queue state": \`steward_meta\` (and SQLite's \`PRAGMA data_version\`); "route's own": the rest.`,
  ].join('\n');
  return { rows, markdown, targets: [] };
}

module.exports = {
  name: 'api-statements',
  description: "Database statements per API request, by kind (the request pipeline's and the route's own).",
  run,
};
