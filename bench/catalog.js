'use strict';
// The catalog benchmark: the caller's templates (`GET /me/catalog/templates` as Alex, audience rules
// evaluated) on Steward, against a bare node:http server answering the same bytes, in the same run.
// Each server runs in its own child process and is loaded alone, one after the other, from this
// process with autocannon over loopback.
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { cpuOf, rssOf, startServer } = require('./processes');

const PATH = '/api/v1.0/me/catalog/templates';
const CONNECTIONS = 50;
const TARGET_RATIO = 0.5;
/** At most this many times bare node:http's CPU a request (the same run). */
const TARGET_CPU_MULTIPLE = 2;
const TARGET_P99_MS = 10;

/**
 * Warms a server up (discarded), then loads it for `duration` seconds while sampling its RSS. CPU is
 * measured too, for the server and for this process: with few cores the load generator itself can be
 * the bottleneck, which the throughput alone would hide.
 */
async function load(server, headers, { warmup, duration }) {
  const target = { url: server.url + PATH, connections: CONNECTIONS, headers };
  const idleRss = rssOf(server.pid);
  await autocannon({ ...target, duration: warmup });
  let peakRss = rssOf(server.pid);
  const sampler = setInterval(() => {
    const sample = rssOf(server.pid);
    if (sample !== null) peakRss = Math.max(peakRss ?? 0, sample);
  }, 250);
  const serverCpu = cpuOf(server.pid);
  const clientCpu = process.cpuUsage();
  try {
    const result = await autocannon({ ...target, duration });
    const used = cpuOf(server.pid);
    const client = process.cpuUsage(clientCpu);
    return {
      result,
      idleRss,
      peakRss,
      serverCpu: serverCpu === null || used === null ? null : used - serverCpu,
      clientCpu: (client.user + client.system) / 1e6,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** GETs `url` and returns status, content type and the exact body bytes. */
async function fetchBytes(url, headers) {
  const res = await fetch(url, { headers });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: Buffer.from(await res.arrayBuffer()),
  };
}

const ms = (n) => `${n} ms`;
const mib = (bytes) => (bytes === null ? 'n/a' : `${(bytes / 2 ** 20).toFixed(1)} MiB`);

const share = (seconds, wall) => (seconds === null ? 'n/a' : `${Math.round((100 * seconds) / wall)}%`);
const perRequest = (seconds, requests) => (seconds === null ? null : (seconds * 1e6) / requests);

/** A table row of one server's measured run. */
function rowOf(name, { result, idleRss, peakRss, serverCpu, clientCpu }) {
  const cpuPerRequest = perRequest(serverCpu, result.requests.total);
  return {
    server: name,
    'req/s': Math.round(result.requests.average),
    p50: ms(result.latency.p50),
    p99: ms(result.latency.p99),
    'p99.9': ms(result.latency.p99_9),
    max: ms(result.latency.max),
    requests: result.requests.total,
    'non-2xx': result.non2xx,
    errors: result.errors + result.timeouts,
    'RSS idle': mib(idleRss),
    'RSS load (max)': mib(peakRss),
    'server CPU': share(serverCpu, result.duration),
    'CPU/req': cpuPerRequest === null ? 'n/a' : `${Math.round(cpuPerRequest)} µs`,
    'client CPU': share(clientCpu, result.duration),
  };
}

/** Seconds from an environment variable (whole, positive), or `fallback` when it is unset. */
function seconds(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} must be a whole number of seconds, got "${value}"`);
  return n;
}

/** Measures Steward, then the bare server, and compares them against the targets. */
async function run({ quick = false } = {}) {
  const duration = quick ? 3 : seconds('BENCH_DURATION', 20);
  const warmup = quick ? 1 : seconds('BENCH_WARMUP', 10);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-body-'));
  let steward;
  let bare;
  try {
    steward = await startServer('steward.js');
    const headers = { authorization: `Bearer ${steward.token}` };
    // The baseline must answer exactly what Steward answers: capture it, twice to be sure it is stable.
    const first = await fetchBytes(steward.url + PATH, headers);
    const second = await fetchBytes(steward.url + PATH, headers);
    if (first.status !== 200) throw new Error(`Steward answered ${first.status}: ${first.body}`);
    if (!first.body.equals(second.body))
      throw new Error('Steward answered different bodies to the same call');
    const templates = JSON.parse(first.body.toString('utf8')).value.length;
    const stewardRun = await load(steward, headers, { warmup, duration });
    await steward.stop();
    steward = undefined;

    writeFileSync(path.join(scratch, 'body.json'), first.body);
    bare = await startServer('bare.js', { args: [path.join(scratch, 'body.json'), first.type] });
    const echoed = await fetchBytes(bare.url + PATH, headers);
    if (!echoed.body.equals(first.body)) throw new Error('the bare server does not answer the same bytes');
    const bareRun = await load(bare, headers, { warmup, duration });

    const s = stewardRun.result;
    const b = bareRun.result;
    const ratio = s.requests.average / b.requests.average;
    const clean = (r) => r.non2xx === 0 && r.errors === 0 && r.timeouts === 0;
    const rows = [rowOf('Steward', stewardRun), rowOf('bare node:http', bareRun)];
    // The work measured: an A/B is only one when both sides answer the same catalog.
    for (const row of rows) Object.assign(row, { templates, 'body bytes': first.body.length });
    const targets = [
      {
        name: `throughput ratio Steward/bare >= ${TARGET_RATIO}`,
        met: ratio >= TARGET_RATIO,
        detail: `${ratio.toFixed(3)} (${rows[0]['req/s']} / ${rows[1]['req/s']} req/s)`,
      },
      {
        name: `Steward p99 < ${TARGET_P99_MS} ms at ${CONNECTIONS} connections`,
        met: s.latency.p99 < TARGET_P99_MS,
        detail: `p99 ${s.latency.p99} ms (p50 ${s.latency.p50} ms, p99.9 ${s.latency.p99_9} ms)`,
      },
      {
        // Not a goal but a validity check: a 401 or 429 is cheaper than the real answer.
        name: 'every measured response 2xx, no errors',
        met: clean(s) && clean(b),
        detail: `Steward ${s.non2xx} non-2xx, ${s.errors} errors, ${s.timeouts} timeouts; bare ${b.non2xx}/${b.errors}/${b.timeouts}`,
      },
    ];
    // Machine-neutral companion of the ratio: what one request costs the server in CPU, bare / Steward.
    const stewardCost = perRequest(stewardRun.serverCpu, s.requests.total);
    const bareCost = perRequest(bareRun.serverCpu, b.requests.total);
    if (stewardCost && bareCost)
      targets.splice(1, 0, {
        name: `Steward CPU a request <= ${TARGET_CPU_MULTIPLE} × bare node:http's`,
        met: stewardCost <= TARGET_CPU_MULTIPLE * bareCost,
        detail: `${(stewardCost / bareCost).toFixed(2)} × (${Math.round(stewardCost)} / ${Math.round(bareCost)} µs)`,
      });
    const costRatio = stewardCost && bareCost ? (bareCost / stewardCost).toFixed(3) : 'n/a';
    const bareClient = bareRun.clientCpu / b.duration;
    const clientBound =
      bareClient >= 0.9
        ? `The bare run was bound by the load generator (${Math.round(100 * bareClient)}% of a core), ` +
          'so the bare rate is a floor and the throughput ratio favours Steward.'
        : '';
    const markdown = [
      `\`GET ${PATH}\` as Alex Wilber (${templates} templates after audience rules, ${first.body.length} bytes),`,
      `${CONNECTIONS} connections, ${warmup} s warm-up excluded, ${duration} s measured per server, loopback.`,
      `Latency has autocannon's 1 ms resolution; RSS, server CPU and CPU/req are the server process's;`,
      `client CPU is the load generator's (near 100% means the run was bound by the client, not the server).`,
      `CPU cost ratio bare/Steward per request: ${costRatio}. ${clientBound}`.trim(),
    ].join('\n');
    return { rows, markdown, targets };
  } finally {
    await steward?.stop();
    await bare?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

module.exports = {
  name: 'catalog',
  description:
    "The caller's templates (GET /me/catalog/templates, audience rules evaluated) on Steward against a " +
    'bare node:http server answering the same bytes; targets: throughput ratio >= 0.5, CPU a request <= 2 × bare, p99 < 10 ms.',
  run,
};
