'use strict';
// Child entry of the benchmarks: Steward alone in its own process, so the load generator in the
// parent never shares its event loop. Prints one JSON line `{ url, token, pid }` on stdout once it
// listens; logs go to stderr so they cannot corrupt that line. Stops (and removes its temporary
// data dir) on SIGTERM.
//
// BENCH_STEWARD_ENV, a JSON object of STEWARD_* settings, overrides the defaults below: e.g. a
// PostgreSQL URL, a role (`api`, `worker`), a shared secret, worker knobs. A data dir given there
// belongs to the caller and is left in place (the benchmark reads the store after the run).
//
// BENCH_EVENT_LOOP_FILE: the event loop's delay is sampled (perf_hooks.monitorEventLoopDelay, 1 ms
// resolution); on SIGUSR2 its max and p99 (ms) since the last SIGUSR2 are written to that file as JSON.
//
// BENCH_STATEMENTS_FILE: every statement this process sends to PostgreSQL is counted (the pg
// client's `query`), and the count is written to that file (suffixed with the pid) every 250 ms and
// on stop, so that a benchmark can tell database statements per job. With BENCH_STATEMENTS_SQLITE=1,
// the statements run on SQLite (better-sqlite3's run, get, all and iterate) are counted too.
// As deployed: `node dist/main.js` restarts itself with V8's young-generation size (src/heap.ts)
// before it loads Steward, and so does this server (a baseline built before that has no such step).
require('../../dist/heap').startWithSemiSpace?.();
const { randomBytes } = require('node:crypto');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { monitorEventLoopDelay } = require('node:perf_hooks');
const os = require('node:os');
const path = require('node:path');
const pino = require('pino');
const { startSteward } = require('../../dist/main');
const { loadConfig } = require('../../dist/config');
const { createLogger } = require('../../dist/logger');
const { EmbeddedTokenIssuer } = require('../../dist/services/access/tokens');
const { seedUsers } = require('../../dist/store/seed/directory');

// Alex Wilber's id as the checkout's own seed gives it: an A/B baseline built before the demo ids
// became GUIDs knows him by another id, and a token for an id its directory lacks would measure a
// stranger's (smaller) catalog there.
const ALEX = seedUsers.find((user) => user.mail === 'alexw@example.com').id;

/**
 * Counts the statements sent through node-postgres clients (pools hand out the same Client class).
 * With BENCH_STATEMENTS_KINDS_DIR, each statement's kind (its first words, up to the first
 * parenthesis or value) is tallied too, in `<dir>/statements.<pid>.json`: where the statements go.
 */
function countStatements(file) {
  const { Client } = require('pg');
  const query = Client.prototype.query;
  const kindsDir = process.env.BENCH_STATEMENTS_KINDS_DIR;
  const kinds = new Map();
  let count = 0;
  const tally = (kind) => kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  // A kind is the statement's first words and its last ones (two updates of the same table differ
  // in their conditions); a statement that changed or returned no row is tallied as such too.
  const kindOf = (text) => {
    const flat = text.replace(/\s+/g, ' ');
    return flat.length <= 100 ? flat : `${flat.slice(0, 60)} … ${flat.slice(-40)}`;
  };
  const counted = (text) => {
    count += 1;
    if (kindsDir) tally(kindOf(text));
  };
  Client.prototype.query = function countedQuery(...args) {
    const text = typeof args[0] === 'string' ? args[0] : String(args[0]?.text ?? '');
    counted(text);
    const result = query.apply(this, args);
    if (kindsDir && typeof result?.then === 'function')
      result.then(
        (r) => r?.rowCount === 0 && tally(`${kindOf(text)} [no row]`),
        () => {},
      );
    return result;
  };
  if (process.env.BENCH_STATEMENTS_SQLITE === '1') {
    const SQLite = require('better-sqlite3');
    const probe = new SQLite(':memory:');
    const statement = Object.getPrototypeOf(probe.prepare('select 1'));
    probe.close();
    for (const name of ['run', 'get', 'all', 'iterate']) {
      const original = statement[name];
      statement[name] = function countedStatement(...args) {
        counted(this.source);
        return original.apply(this, args);
      };
    }
  }
  const write = () => {
    writeFileSync(`${file}.${process.pid}`, String(count));
    if (kindsDir) {
      const sorted = [...kinds].sort((a, b) => b[1] - a[1]);
      writeFileSync(path.join(kindsDir, `statements.${process.pid}.json`), JSON.stringify(sorted, null, 1));
    }
  };
  setInterval(write, 250).unref();
  return write;
}

async function main() {
  const statementsFile = process.env.BENCH_STATEMENTS_FILE;
  const writeStatements = statementsFile ? countStatements(statementsFile) : () => {};
  const overrides = JSON.parse(process.env.BENCH_STEWARD_ENV || '{}');
  const ownDataDir = !overrides.STEWARD_DATA_DIR;
  const dataDir = overrides.STEWARD_DATA_DIR || mkdtempSync(path.join(os.tmpdir(), 'steward-bench-'));
  const secret = overrides.STEWARD_AUTH_SECRET || randomBytes(48).toString('base64url');
  // A fresh SQLite store seeded with the demo tenant; the rate limits are raised far above what a
  // benchmark can spend so that they are counted (their cost is measured) but never refuse.
  const config = loadConfig({
    STEWARD_HOST: '127.0.0.1',
    STEWARD_PORT: '0',
    STEWARD_RATE_LIMIT_FACTOR: '100000',
    // The bot has its own benchmark; here its webhook would add delivery jobs to every provisioning run.
    STEWARD_BOT_ENABLED: 'false',
    ...overrides,
    STEWARD_DATA_DIR: dataDir,
    STEWARD_AUTH_SECRET: secret,
    STEWARD_LOG_LEVEL: process.argv[2] || overrides.STEWARD_LOG_LEVEL || 'warn',
  });
  const steward = await startSteward(config, createLogger(config.logLevel, pino.destination(2)));
  const token = await new EmbeddedTokenIssuer(secret, config.tenantId).mint(
    { id: ALEX, roles: [] },
    6 * 3600,
  );
  process.stdout.write(`${JSON.stringify({ url: steward.url, token, pid: process.pid })}\n`);
  const stop = async () => {
    await steward.close();
    writeStatements();
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    process.exit(0); // also lets `--cpu-prof` write its profile
  };
  const loopFile = process.env.BENCH_EVENT_LOOP_FILE;
  if (loopFile) {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    process.on('SIGUSR2', () => {
      const ms = (ns) => Math.round(ns / 1e4) / 100;
      writeFileSync(loopFile, JSON.stringify({ max: ms(delay.max), p99: ms(delay.percentile(99)) }));
      delay.reset();
    });
  }
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
