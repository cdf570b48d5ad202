'use strict';
// The metadata benchmark: `POST /metadata/{namespace}/query` (containment) over 100 000 teams with a
// few keys of metadata each, on SQLite (leaf side table) and PostgreSQL (jsonb GIN), one request at
// a time over HTTP. Baseline: the same queries over 1 000 teams in the same run, so the ratio shows
// what the 100× larger store costs. Documents are written through the metadata repository, as the
// API writes them (on SQLite that includes the leaf index).
const { MetadataRepository } = require('../dist/store/teams/metadata');
const { servedStore, sequentialLatency, ms } = require('./latency');
const { storeKinds } = require('./stores');

const TEAMS = 100_000;
const BASELINE_TEAMS = 1_000;
const NAMESPACE = 'project';
const BATCH = 2_000;
const TARGET_P50_MS = 20;
const REGIONS = ['emea', 'amer', 'apac'];
const DEPARTMENTS = ['Finance', 'Legal', 'Marketing', 'Operations', 'R&D', 'Retail', 'Sales', 'Support'];

/** Team i's document: a unique code, a cost centre shared by 1 in 500, a region, a nested owner. */
function documentOf(i) {
  return {
    code: `P-${i}`,
    costCenter: `CC-${i % 500}`,
    region: REGIONS[i % 3],
    tier: i % 10,
    owner: { department: DEPARTMENTS[i % 8], site: `site-${i % 40}` },
    tags: [`t${i % 7}`, `t${i % 11}`],
  };
}

/** The queries measured: how many teams each must find among `teams`. */
function queries(teams) {
  const code = Math.floor(teams / 2) + 7;
  const expectCount = (predicate) => Array.from({ length: teams }, (_v, i) => i).filter(predicate).length;
  return [
    { name: 'selective (unique code)', body: { code: `P-${code}` }, expect: 1 },
    {
      name: 'two keys + nested',
      body: { costCenter: 'CC-17', region: 'emea', owner: { department: DEPARTMENTS[17 % 8] } },
      expect: expectCount((i) => i % 500 === 17 && i % 3 === 0 && i % 8 === 17 % 8),
    },
  ];
}

async function load(store, teams) {
  const repository = new MetadataRepository(store.db);
  const now = new Date();
  for (let start = 0; start < teams; start += BATCH) {
    await store.db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(teams, start + BATCH); i += 1) {
        await repository.put(`team-${String(i).padStart(6, '0')}`, NAMESPACE, documentOf(i), now, trx);
      }
    });
  }
}

async function measure(kind, admin, teams, count) {
  const started = Date.now();
  const server = await servedStore(kind, admin, (store) => load(store, teams));
  const loadSeconds = (Date.now() - started) / 1000;
  try {
    const results = [];
    for (const query of queries(teams)) {
      const result = await sequentialLatency(
        server,
        () => ({ method: 'POST', path: `/api/v1.0/metadata/${NAMESPACE}/query`, body: query.body }),
        { count },
      );
      if (result.last.length !== query.expect)
        throw new Error(`${query.name}: ${result.last.length} teams found, ${query.expect} expected`);
      results.push({ query, result });
    }
    return { loadSeconds, results };
  } finally {
    await server.stop();
  }
}

async function run({ quick = false } = {}) {
  const teams = quick ? 5_000 : TEAMS;
  const count = quick ? 30 : 300;
  const { admin, kinds } = storeKinds();
  const rows = [];
  const targets = [];
  for (const kind of kinds) {
    const baseline = await measure(kind, admin, BASELINE_TEAMS, count);
    const full = await measure(kind, admin, teams, count);
    full.results.forEach(({ query, result }, index) => {
      const base = baseline.results[index].result;
      rows.push({
        store: kind === 'sqlite' ? 'SQLite' : 'PostgreSQL',
        query: query.name,
        found: query.expect,
        [`p50 ms (${teams})`]: ms(result.p50),
        [`p99 ms (${teams})`]: ms(result.p99),
        [`p50 ms (${BASELINE_TEAMS})`]: ms(base.p50),
        ratio: (result.p50 / base.p50).toFixed(2),
        'load s': full.loadSeconds.toFixed(0),
      });
      if (index === 0) {
        targets.push({
          name: `${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: selective queryMetadata p50 < ${TARGET_P50_MS} ms at ${teams} teams`,
          met: result.p50 < TARGET_P50_MS,
          detail: `p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms`,
        });
      }
    });
  }
  const markdown =
    `queryMetadata over HTTP, one request at a time (${count} measured after 20 warm-up), on ${teams} teams ` +
    `with a six-key document each in namespace "${NAMESPACE}", against the same queries on ${BASELINE_TEAMS} teams ` +
    '(baseline). "found" is checked on every run.';
  return { rows, markdown, targets };
}

module.exports = {
  name: 'metadata',
  description: `queryMetadata at ${TEAMS} teams vs ${BASELINE_TEAMS}`,
  run,
};
