'use strict';
// The drift benchmark: a template change applied to 1 000 teams at Microsoft Graph's pace. The
// Graph simulator (its own process, `test/support/fakeGraph/main.ts`) holds N existing teams
// (FAKE_GRAPH_TEAMS), which are recorded in Steward's store as made from version 1 of a template;
// version 2 adds a channel and a tab in it, and a governance manager applies it to every team
// (`POST /catalog/templates/{id}/drift/apply`): one `TeamDriftApply` job per team. Measured: the
// makespan (the apply request → the last job's `completed_at`) against the least time Graph's
// limits allow for the calls made, 429s, Graph calls per team, failed jobs, and duplicate channels
// and tabs (the simulator counts them), and teams not in line with version 2 afterwards (the jobs
// record what still differs after them).
//
// Settings: BENCH_DRIFT_TEAMS (default 1000), BENCH_DRIFT_SCALE (the limits' scale, default 1),
// BENCH_DRIFT_TIMEOUT_S (default: 1 s a team + 300).
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes, randomUUID } = require('node:crypto');
const { request } = require('undici');
const { DEFAULT_TENANT_ID } = require('../dist/config');
const { PUBLISHED_GRAPH_LIMITS } = require('../dist/domain/graphBudget');
const { EmbeddedTokenIssuer } = require('../dist/services/access/tokens');
const { seedUsers } = require('../dist/store/seed/directory');
const { startServer } = require('./processes');
const { envNumber } = require('./settings');
const { adminUrl, freshPostgres, percentile } = require('./stores');
const { compileSimulator, graphEnv, SIMULATOR, startSimulator } = require('./simulator');

const TEMPLATE = 'drift-bench';
const WEB_APP = 'com.microsoft.teamspace.tab.web';
const TARGETS = { ratio: 1.3 };

function settings() {
  const teams = envNumber('BENCH_DRIFT_TEAMS', 1000, (n) => Number.isInteger(n) && n > 0);
  const scale = envNumber('BENCH_DRIFT_SCALE', 1, (n) => n > 0 && n <= 1);
  const timeoutS = envNumber('BENCH_DRIFT_TIMEOUT_S', teams + 300, (n) => n > 0);
  return { teams, scale, timeoutS };
}

/** A writer and reader of Steward's store from this process (the bench records the teams' template). */
async function openStore(kind, location) {
  if (kind === 'sqlite') {
    const SQLite = require('better-sqlite3');
    const db = new SQLite(location, { fileMustExist: true });
    return {
      all: async (text, params = []) => db.prepare(text).all(...params),
      run: async (text, params = []) => void db.prepare(text).run(...params),
      close: async () => db.close(),
    };
  }
  const { Client } = require('pg');
  const client = new Client({ connectionString: location });
  await client.connect();
  let n = 0;
  const numbered = (text) => text.replace(/\?/g, () => `$${++n}`);
  return {
    all: async (text, params = []) => ((n = 0), (await client.query(numbered(text), params)).rows),
    run: async (text, params = []) => void ((n = 0), await client.query(numbered(text), params)),
    close: () => client.end(),
  };
}

async function call(url, method, pathname, token, body) {
  const res = await request(`${url}/api/v1.0${pathname}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${pathname}: ${res.statusCode} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * The least time the limits allow for the calls the run made: each request class spends its calls
 * at its rate, and one team's own calls go at the per-team rate, its tab after its new channel at
 * the per-channel rate.
 */
function theoreticalMinimum(scale, admitted, callsPerTeam) {
  const rates = {
    createTeam: PUBLISHED_GRAPH_LIMITS.createTeamPerSecond,
    cloneTeam: PUBLISHED_GRAPH_LIMITS.cloneTeamPerSecond,
    channelOrTab: PUBLISHED_GRAPH_LIMITS.channelOrTabPerSecond,
    other: PUBLISHED_GRAPH_LIMITS.otherPerSecond,
  };
  const perClass = Object.entries(admitted).map(([klass, calls]) => calls / (rates[klass] * scale));
  const oneTeam = Math.max(
    (callsPerTeam - 1) / (PUBLISHED_GRAPH_LIMITS.perTeamPerSecond * scale),
    1 / (PUBLISHED_GRAPH_LIMITS.perChannelPerSecond * scale),
  );
  return Math.max(oneTeam, ...perClass);
}

async function runConfiguration({ name, kind, teams, scale, admin, timeoutS }) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-drift-'));
  const usersFile = path.join(scratch, 'users.json');
  writeFileSync(usersFile, JSON.stringify(seedUsers.map(({ appRoles: _r, groupIds: _g, ...user }) => user)));
  const certFile = path.join(scratch, 'simulator.pem');
  writeFileSync(certFile, require(path.join(SIMULATOR, 'certificate.js')).FAKE_GRAPH_CERT);
  const teamsFile = path.join(scratch, 'teams.json');
  const database = kind === 'postgres' ? await freshPostgres(admin) : undefined;
  const simulator = await startSimulator(scale, {
    FAKE_GRAPH_USERS: usersFile,
    FAKE_GRAPH_TEAMS: String(teams),
    FAKE_GRAPH_TEAMS_FILE: teamsFile,
  });
  const secret = randomBytes(48).toString('base64url');
  const env = {
    STEWARD_DATA_DIR: scratch,
    STEWARD_AUTH_SECRET: secret,
    STEWARD_RATE_LIMIT_FACTOR: '100000',
    STEWARD_LIFECYCLE_EVALUATION_AT: 'off',
    STEWARD_DATABASE_URL: database ? database.url : `sqlite:${path.join(scratch, 'steward.db')}`,
    STEWARD_ROLE: 'all',
    ...graphEnv(simulator.config, scale, certFile),
  };
  let steward;
  let store;
  try {
    steward = await startServer('steward.js', {
      label: `${name}: all`,
      env: { BENCH_STEWARD_ENV: JSON.stringify(env), NODE_EXTRA_CA_CERTS: certFile },
    });
    store = await openStore(kind, database ? database.url : path.join(scratch, 'steward.db'));
    const issuer = new EmbeddedTokenIssuer(secret, DEFAULT_TENANT_ID);
    const tokenOf = async (role) => {
      const user = seedUsers.find((u) => u.appRoles.includes(role));
      return issuer.mint({ id: user.id, roles: user.appRoles }, 6 * 3600);
    };
    const admin = await tokenOf('GLOBAL_ADMIN');
    const manager = await tokenOf('GOVERNANCE_MANAGER');
    const put = (newTeam) =>
      call(steward.url, 'PUT', `/catalog/templates/${TEMPLATE}`, admin, {
        templateConfiguration: { name: 'Project team (drift benchmark)' },
        newTeam: { teamPrivacy: 'private', ...newTeam },
      });
    // Version 1, and the simulator's teams recorded as made from it.
    await put({});
    const made = JSON.parse(readFileSync(teamsFile, 'utf8'));
    const now = new Date().toISOString();
    for (const team of made)
      await store.run(
        'insert into team_templates (team_id, display_name, template_id, template_version, job_id, created_at) values (?, ?, ?, 1, ?, ?)',
        [team.id, team.displayName, TEMPLATE, randomUUID(), now],
      );
    // Version 2: a channel, and a tab in it.
    await put({
      channels: [{ displayName: 'Deliverables' }],
      tabs: [
        {
          channel: 'Deliverables',
          displayName: 'Plan',
          teamsAppId: WEB_APP,
          configuration: {
            contentUrl: 'https://contoso.example/plan',
            websiteUrl: 'https://contoso.example/plan',
          },
        },
      ],
    });
    const started = Date.now();
    const applied = await call(
      steward.url,
      'POST',
      `/catalog/templates/${TEMPLATE}/drift/apply`,
      manager,
      {},
    );
    const queuedS = (Date.now() - started) / 1000;
    const deadline = started + timeoutS * 1000;
    let jobs;
    for (;;) {
      jobs = await store.all(
        "select status, created_at, completed_at, failed_reason from jobs where type = 'TeamDriftApply'",
      );
      if (
        jobs.length === applied.teams.length &&
        jobs.every((j) => j.status === 'completed' || j.status === 'failed')
      )
        break;
      if (steward.exited()) throw new Error('Steward exited during the run');
      if (Date.now() > deadline) throw new Error(`drift jobs not finished after ${timeoutS} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const done = jobs.filter((j) => j.status === 'completed');
    const makespan = (Math.max(...done.map((j) => Date.parse(j.completed_at))) - started) / 1000;
    const ready = done.map((j) => Date.parse(j.completed_at) - started).sort((a, b) => a - b);
    const failure = jobs.find((j) => j.status === 'failed');
    if (failure) console.log(`${name}: a job failed: ${failure.failed_reason}`);
    // Each job compared the team after adding to it: a team still differing is not at version 2.
    const [behind] = await store.all(
      'select count(*) as n from team_templates where template_id = ? and (template_version is null or template_version < 2)',
      [TEMPLATE],
    );
    const left = Number(behind.n);
    await steward.stop();
    // Only the apply sent Teams requests (the set-up saved templates and read no team).
    const counts = await simulator.stop();
    return {
      name,
      teams,
      jobs: jobs.length,
      queuedS,
      makespan,
      ready,
      minimum: theoreticalMinimum(scale, counts.admitted, counts.teamCalls / teams),
      counts,
      failed: jobs.length - done.length,
      left,
    };
  } finally {
    await steward?.stop();
    if (!simulator.exited()) await simulator.stop();
    await store?.close();
    await database?.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

function rowOf(r) {
  return {
    configuration: r.name,
    teams: r.teams,
    'jobs queued in': `${r.queuedS.toFixed(1)} s`,
    makespan: `${r.makespan.toFixed(1)} s`,
    minimum: `${r.minimum.toFixed(1)} s`,
    ratio: (r.makespan / r.minimum).toFixed(2),
    '429s / calls': `${r.counts.throttledTotal} / ${r.counts.teamCalls}`,
    'calls per team': (r.counts.teamCalls / r.teams).toFixed(2),
    'calls by class': Object.entries(r.counts.admitted)
      .map(([k, n]) => `${k} ${n}`)
      .join(', '),
    failed: r.failed,
    'duplicate channels, tabs': `${r.counts.duplicateChannels}, ${r.counts.duplicateTabs}`,
    'teams not in line': r.left,
    'done p50': `${(percentile(r.ready, 0.5) / 1000).toFixed(1)} s`,
  };
}

async function run() {
  const { teams, scale, timeoutS } = settings();
  compileSimulator();
  const admin = adminUrl();
  const configurations = admin
    ? [{ name: 'PostgreSQL, 1 process (all)', kind: 'postgres' }]
    : [{ name: 'SQLite, 1 process (all)', kind: 'sqlite' }];
  const results = [];
  for (const configuration of configurations) {
    const result = await runConfiguration({ ...configuration, teams, scale, admin, timeoutS });
    results.push(result);
    console.log(JSON.stringify(rowOf(result)));
  }
  const targets = results.flatMap((r) => [
    {
      name: `${r.name}: makespan <= ${TARGETS.ratio} × the minimum`,
      met: r.makespan <= TARGETS.ratio * r.minimum,
      detail: `${r.makespan.toFixed(1)} s / ${r.minimum.toFixed(1)} s = ${(r.makespan / r.minimum).toFixed(2)}`,
    },
    {
      name: `${r.name}: 0 failed jobs, 0 duplicate channels or tabs, no drift left`,
      met:
        r.failed === 0 &&
        r.jobs === r.teams &&
        r.counts.duplicateChannels === 0 &&
        r.counts.duplicateTabs === 0 &&
        r.left === 0,
      detail: `${r.jobs} jobs, ${r.failed} failed, ${r.counts.duplicateChannels} duplicate channels, ${r.counts.duplicateTabs} duplicate tabs, ${r.left} teams not in line`,
    },
  ]);
  const markdown = [
    `${teams} existing teams on the Graph simulator (its own process, Microsoft's published limits × ${scale}),`,
    `recorded as made from version 1 of a template; version 2 adds a channel and a tab in it, and one`,
    '`POST /catalog/templates/{id}/drift/apply` queues a `TeamDriftApply` job per team, run by the same process',
    "(Steward's defaults: 4 slots; a job waiting for a budget turn holds none). makespan = the apply request → the",
    "last job's `completed_at`; calls = the simulator's requests on teams and groups (only the apply made any).",
    'minimum = max( max over request classes c of calls_c ÷ (rate_c × s), one team: (its calls − 1) ÷ (4 rps × s)',
    'and its tab 1 ÷ (1 rps × s) after its channel ), with calls_c the calls of class c the simulator let through',
    '(channelOrTab 30 rps, other 30 rps). Steward spends 0.9 of each rate, so 1.11 × is its floor.',
  ].join('\n');
  return { rows: results.map(rowOf), markdown, targets };
}

module.exports = {
  name: 'driftApply',
  description:
    'A template change applied to 1 000 teams on the Graph simulator: makespan against the minimum the limits allow, ' +
    '429s, calls per team, failures, duplicate channels and tabs.',
  run,
};
