'use strict';
// The audit benchmark: the first page of an audit trail holding 1 000 000 records
// (`GET /audit_trails/team_provisioning/records`, 100 a page), page 10 reached through
// `$skiptoken`s, and a from/to window in the middle of the trail, one request at a time over HTTP,
// on SQLite and PostgreSQL. Baseline: the same pages of a trail holding 1 000 records in the same
// database, so the ratio shows what the 1 000× larger trail costs. Records are inserted with one
// INSERT … SELECT per trail, ten seconds apart, as Steward writes them, with the per-day counts
// Steward keeps beside them (each page's `@odata.count` is the trail's total, and is checked).
const { sql } = require('kysely');
const { isPostgres } = require('../dist/store/database');
const { servedStore, sequentialLatency, ms } = require('./latency');
const { storeKinds } = require('./stores');

const RECORDS = 1_000_000;
const BASELINE_RECORDS = 1_000;
const BIG = 'team_provisioning';
const SMALL = 'approvals';
const TARGET_MS = 20;

/** Inserts `count` records in `trail`, one every 10 s from 2026-01-01, and their per-day counts. */
async function insertRecords(db, trail, count) {
  await insertRecordRows(db, trail, count);
  await sql`INSERT INTO audit_counts (trail, day, shard, count)
    SELECT trail, substr(created_at, 1, 10), 0, count(*) FROM audit_records WHERE trail = ${trail}
    GROUP BY trail, substr(created_at, 1, 10)`.execute(db);
}

async function insertRecordRows(db, trail, count) {
  const columns = sql`(id, trail, created_at, tenant_id, actor, action, target, outcome, request_id, details)`;
  const actor = '{"id":"steward","type":"system","displayName":"Steward"}';
  if (isPostgres(db)) {
    await sql`INSERT INTO audit_records ${columns}
      SELECT ${trail} || '-' || i, ${trail},
             to_char(timestamp '2026-01-01' + i * interval '10 seconds', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'bench', ${actor}, 'job_completed', '{"type":"job","id":"job-' || i || '"}', 'success', NULL,
             '{"attempt":1}'
      FROM generate_series(1, ${count}) AS i`.execute(db);
    await sql`ANALYZE audit_records`.execute(db);
    return;
  }
  await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
    INSERT INTO audit_records ${columns}
    SELECT ${trail} || '-' || i, ${trail},
           strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || (i * 10) || ' seconds'),
           'bench', ${actor}, 'job_completed', '{"type":"job","id":"job-' || i || '"}', 'success', NULL,
           '{"attempt":1}'
    FROM n`.execute(db);
  await sql`ANALYZE`.execute(db);
}

/** The pages measured for `trail` of `records`: first, 50 skiptokens in, and a middle window. */
async function pages(server, trail, records, count) {
  const base = `/api/v1.0/audit_trails/${trail}/records`;
  const first = await sequentialLatency(server, () => ({ method: 'GET', path: `${base}?$top=100` }), {
    count,
  });
  if (first.last.value.length !== 100)
    throw new Error(`first page of ${trail}: ${first.last.value.length} records`);
  if (first.last['@odata.count'] !== records)
    throw new Error(`first page of ${trail}: @odata.count ${first.last['@odata.count']}, not ${records}`);
  // Follow 9 nextLinks from the first page to page 10 (the baseline trail's last), then time that page.
  const follow = async (link) =>
    (
      await sequentialLatency(server, () => ({ method: 'GET', path: link.slice(server.url.length) }), {
        count: 1,
        warmup: 0,
      })
    ).last['@odata.nextLink'];
  let link = first.last['@odata.nextLink'];
  for (let i = 0; i < 8; i += 1) link = await follow(link);
  const deepPath = link.slice(server.url.length);
  const deep = await sequentialLatency(server, () => ({ method: 'GET', path: deepPath }), { count });
  const middle = new Date(Date.parse('2026-01-01T00:00:00Z') + (records / 2) * 10_000);
  const to = new Date(middle.getTime() + 3_600_000).toISOString();
  const window = await sequentialLatency(
    server,
    () => ({ method: 'GET', path: `${base}?$top=100&from=${middle.toISOString()}&to=${to}` }),
    { count },
  );
  if (window.last.value.length !== Math.min(100, 360) || window.last['@odata.count'] !== 360)
    throw new Error(
      `window of ${trail}: ${window.last.value.length}, @odata.count ${window.last['@odata.count']}`,
    );
  return { first, deep, window };
}

async function run({ quick = false } = {}) {
  const records = quick ? 50_000 : RECORDS;
  const count = quick ? 30 : 300;
  const { admin, kinds } = storeKinds();
  const rows = [];
  const targets = [];
  for (const kind of kinds) {
    const started = Date.now();
    const server = await servedStore(kind, admin, async (store) => {
      await insertRecords(store.db, BIG, records);
      await insertRecords(store.db, SMALL, BASELINE_RECORDS);
    });
    const loadSeconds = (Date.now() - started) / 1000;
    try {
      const big = await pages(server, BIG, records, count);
      const small = await pages(server, SMALL, BASELINE_RECORDS, count);
      const store = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
      for (const [name, key] of [
        ['first page', 'first'],
        ['page 10 ($skiptoken)', 'deep'],
        ['from/to window', 'window'],
      ]) {
        rows.push({
          store,
          page: name,
          [`p50 ms (${records})`]: ms(big[key].p50),
          [`p99 ms (${records})`]: ms(big[key].p99),
          [`p50 ms (${BASELINE_RECORDS})`]: ms(small[key].p50),
          ratio: (big[key].p50 / small[key].p50).toFixed(2),
          'load s': loadSeconds.toFixed(0),
        });
      }
      targets.push({
        name: `${store}: first page of a ${records}-record trail < ${TARGET_MS} ms`,
        met: big.first.p50 < TARGET_MS,
        detail: `p50 ${ms(big.first.p50)} ms, p99 ${ms(big.first.p99)} ms`,
      });
    } finally {
      await server.stop();
    }
  }
  const markdown =
    `getAuditTrailRecords over HTTP, one request at a time (${count} measured after 20 warm-up), 100 records a ` +
    `page, on a trail of ${records} records and, as the baseline, a trail of ${BASELINE_RECORDS} in the same database.`;
  return { rows, markdown, targets };
}

module.exports = {
  name: 'audit',
  description: `audit trail pages at ${RECORDS} records vs ${BASELINE_RECORDS}`,
  run,
};
