'use strict';
// Latency of one request at a time against a Steward child: the figure a person paging through an
// audit trail or a script querying metadata sees, without queueing behind other requests.
const { performance } = require('node:perf_hooks');
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { Pool } = require('undici');
const { DEFAULT_TENANT_ID } = require('../dist/config');
const { migrate, openStore } = require('../dist/store/database');
const { EmbeddedTokenIssuer } = require('../dist/services/access/tokens');
const { startServer } = require('./processes');
const { freshPostgres, percentile } = require('./stores');

const MEGAN = '00000000-0000-0000-0000-000000000021';

/**
 * A store of `kind` ('sqlite' | 'postgres'), migrated and filled by `load(store)` from this process,
 * then served by a Steward child. Resolves { url, token (GLOBAL_ADMIN), stop() }.
 */
async function servedStore(kind, admin, load) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-'));
  const database = kind === 'postgres' ? await freshPostgres(admin) : undefined;
  const url = database ? database.url : `sqlite:${path.join(scratch, 'steward.db')}`;
  const store = openStore(
    database ? { kind: 'postgres', url } : { kind: 'sqlite', file: path.join(scratch, 'steward.db') },
  );
  try {
    await migrate(store.db);
    await load(store);
  } finally {
    await store.close();
  }
  const secret = randomBytes(48).toString('base64url');
  const server = await startServer('steward.js', {
    label: `steward (${kind})`,
    env: {
      BENCH_STEWARD_ENV: JSON.stringify({
        STEWARD_DATA_DIR: scratch,
        STEWARD_DATABASE_URL: url,
        STEWARD_AUTH_SECRET: secret,
        STEWARD_WORKER_CONCURRENCY: '0',
      }),
    },
  });
  const token = await new EmbeddedTokenIssuer(secret, DEFAULT_TENANT_ID).mint(
    { id: MEGAN, roles: ['GLOBAL_ADMIN'] },
    3600,
  );
  return {
    url: server.url,
    token,
    pid: server.pid,
    stop: async () => {
      await server.stop();
      if (database) await database.drop();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * Sends `request()` ({ method, path, body? }) `count` times one after the other after `warmup`
 * unmeasured ones; each answer must have `expectStatus`. Resolves { p50, p99, mean } in ms and the
 * last body.
 */
async function sequentialLatency(server, request, { count, warmup = 20, expectStatus = 200 }) {
  const pool = new Pool(server.url, { connections: 1 });
  const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
  const times = [];
  let last;
  try {
    for (let i = 0; i < warmup + count; i += 1) {
      const { method, path: url, body } = request(i);
      const started = performance.now();
      const res = await pool.request({ method, path: url, headers, body: body && JSON.stringify(body) });
      const text = await res.body.text();
      const ms = performance.now() - started;
      if (res.statusCode !== expectStatus) throw new Error(`${method} ${url}: ${res.statusCode} ${text}`);
      if (i >= warmup) times.push(ms);
      last = text;
    }
  } finally {
    await pool.close();
  }
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    last: JSON.parse(last),
  };
}

const ms = (value) => value.toFixed(2);

module.exports = { servedStore, sequentialLatency, ms };
