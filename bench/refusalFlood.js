'use strict';
// The refusal flood: `node bench/refusalFlood.js [baseline checkout] [--seconds S]` floods each
// Steward with forged tokens from one address (loopback), 20 connections for S seconds (default
// 30), while a valid caller on the same address lists people (`GET /users`) every 400 ms. Every forged
// token carries a fresh random signature (a real token's header and payload), so no cache can
// answer it: each one costs what checking a signature costs. Sides, each a Steward of its own on a
// fresh SQLite store, started one after the other:
//   - the baseline checkout (built; e.g. the commit before the change), whose limit answered 429
//     before any token was read;
//   - this checkout with the limit (90 refusals a minute here), which verifies every token and
//     answers 429 only to what it would refuse;
//   - this checkout with the limit out of reach (100 000 a minute): every forged call is refused
//     with 401 and counted in refusal_counts, what the limit spares the process.
// Per side: the flood's calls a second and status mix, the server's CPU per flood call and in
// total (as a share of one core, /proc), the valid caller's statuses and latency, and the rows and
// counted refusals in refusal_counts afterwards.
const { randomBytes } = require('node:crypto');
const { cpSync, existsSync, mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');

const FLOOD_PATH = '/api/v1.0/users';
const VALID_PATH = '/api/v1.0/users';
// Rate limits ×3: the refusal budget is 90 a minute, the valid caller's tier-3 budget 180 a minute,
// above its 150 calls a minute, so every answer it gets is about the flood, not its own budget.
const FACTOR = { STEWARD_RATE_LIMIT_FACTOR: '3' };
const VALID_EVERY_MS = 400;
// A base64url character whose last two bits are zero, so a 43-character HS256 signature is canonical.
const LAST = 'AEIMQUYcgkosw048';

function options(args) {
  const at = args.indexOf('--seconds');
  const seconds = at >= 0 ? Number(args[at + 1]) : 30;
  const dirs = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--seconds');
  if (dirs.some((d) => !existsSync(path.join(d, 'dist', 'main.js'))))
    throw new Error('usage: node bench/refusalFlood.js [built baseline checkout] [--seconds S]');
  if (!Number.isFinite(seconds) || seconds < 3) throw new Error('--seconds takes 3 or more');
  return { baselines: dirs.map((d) => path.resolve(d)), seconds };
}

/** A token with `valid`'s header and payload and a random signature: it fails its signature check. */
function forgedFrom(valid) {
  const [header, payload] = valid.split('.');
  const signature = randomBytes(32).toString('base64url').slice(0, 42) + LAST[randomBytes(1)[0] % 16];
  return `${header}.${payload}.${signature}`;
}

const sorted = (values) => [...values].sort((a, b) => a - b);
const quantile = (values, q) => (values.length ? values[Math.floor(q * (values.length - 1))] : NaN);

async function measure(side, seconds) {
  const { startServer, cpuOf } = require(path.join(side.dir, 'bench', 'processes'));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'steward-flood-'));
  const server = await startServer('steward.js', {
    label: side.label,
    env: { BENCH_STEWARD_ENV: JSON.stringify({ ...FACTOR, ...side.env, STEWARD_DATA_DIR: dataDir }) },
  });
  try {
    const valid = server.token;
    const ask = async () => {
      const started = process.hrtime.bigint();
      const res = await fetch(server.url + VALID_PATH, { headers: { authorization: `Bearer ${valid}` } });
      await res.arrayBuffer();
      return { status: res.status, ms: Number(process.hrtime.bigint() - started) / 1e6 };
    };
    for (let i = 0; i < 3; i++) await ask(); // warm-up of the valid path
    const answers = [];
    let flooding = true;
    const caller = (async () => {
      while (flooding) {
        answers.push(await ask());
        await new Promise((resolve) => setTimeout(resolve, VALID_EVERY_MS));
      }
    })();
    const cpuBefore = cpuOf(server.pid);
    const result = await autocannon({
      url: server.url + FLOOD_PATH,
      connections: 20,
      duration: seconds,
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, authorization: `Bearer ${forgedFrom(valid)}` },
          }),
        },
      ],
    });
    const cpu = cpuOf(server.pid) - cpuBefore;
    flooding = false;
    await caller;
    const statuses = {};
    for (const [code, count] of Object.entries(result.statusCodeStats ?? {}))
      statuses[code] = count.count ?? count;
    const total = result.requests.total;
    const latencies = sorted(answers.map((a) => a.ms));
    const served = answers.filter((a) => a.status === 200).length;
    const rows = await refusalRows(dataDir);
    return {
      label: side.label,
      floodPerSecond: result.requests.average,
      floodCalls: total,
      statuses,
      cpuShare: cpu / seconds,
      cpuPerCallUs: (cpu / total) * 1e6,
      validCalls: answers.length,
      validServed: served,
      validP50: quantile(latencies, 0.5),
      validP99: quantile(latencies, 0.99),
      rows: rows.rows,
      counted: rows.counted,
    };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The refusal_counts rows the side wrote, and the refusals they count. */
async function refusalRows(dataDir) {
  const SQLite = require('better-sqlite3');
  const file = require('node:fs')
    .readdirSync(dataDir)
    .find((f) => f.endsWith('.db') || f.endsWith('.sqlite'));
  if (!file) return { rows: NaN, counted: NaN };
  const db = new SQLite(path.join(dataDir, file), { readonly: true });
  try {
    const row = db.prepare('select count(*) as n, coalesce(sum(count), 0) as c from refusal_counts').get();
    return { rows: row.n, counted: row.c };
  } finally {
    db.close();
  }
}

async function main() {
  const { baselines, seconds } = options(process.argv.slice(2));
  const here = path.resolve(__dirname, '..');
  const sides = [];
  for (const dir of baselines) {
    // The baseline runs this checkout's bench/ (its servers and process helpers) on its own dist/.
    cpSync(path.join(here, 'bench'), path.join(dir, 'bench'), { recursive: true });
    sides.push({ label: `baseline ${path.basename(dir)}: limit before the token`, dir, env: {} });
  }
  sides.push({ label: 'this checkout: token first, then the limit', dir: here, env: {} });
  sides.push({
    label: 'this checkout: limit out of reach (every forged call 401 and counted)',
    dir: here,
    env: { STEWARD_REFUSALS_PER_MINUTE: '100000' },
  });
  const loads = [os.loadavg()[0]];
  const results = [];
  for (const side of sides) {
    results.push(await measure(side, seconds));
    loads.push(os.loadavg()[0]);
  }
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, ${seconds} s a side, load average (1 min) ` +
      `${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}`,
  );
  console.log(
    '\n| side | flood calls/s | flood statuses | server CPU (share of a core) | CPU per flood call | valid calls served | valid p50 | valid p99 | refusal_counts rows (refusals counted) |',
  );
  console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    const statuses = Object.entries(r.statuses)
      .map(([code, n]) => `${code}: ${n}`)
      .join(', ');
    console.log(
      `| ${r.label} | ${Math.round(r.floodPerSecond)} | ${statuses} | ${(r.cpuShare * 100).toFixed(0)} % | ` +
        `${r.cpuPerCallUs.toFixed(0)} µs | ${r.validServed} / ${r.validCalls} | ${r.validP50.toFixed(1)} ms | ` +
        `${r.validP99.toFixed(1)} ms | ${r.rows} (${r.counted}) |`,
    );
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
