'use strict';
// The lifecycle-graph benchmark: the lifecycle evaluator reading its tenant from Microsoft Graph.
// Steward (SQLite, one process) on `STEWARD_PLATFORM=graph` evaluates N existing teams of the Graph
// simulator, run as its own process with Microsoft's published limits (`FAKE_GRAPH_TEAMS`,
// `test/support/fakeGraph/main.ts`). Graph lists teams with their ids and names only, so each team
// costs two Teams calls of the `other` class (the team, its members with their roles), 30 a second
// per app per tenant: the evaluation's reads cannot go faster than N × 2 ÷ 30 s, and what is
// measured is how close to that the Graph budget takes them without a 429. The store's share (the
// 60 s target over 100 000 teams) is `npm run bench -- lifecycle`, on the embedded platform.
//
// Settings: BENCH_LIFECYCLE_GRAPH_TEAMS (default 2000), BENCH_LIFECYCLE_GRAPH_SCALE (default 1: the
// published limits; 5 runs five times faster against limits five times higher),
// BENCH_LIFECYCLE_GRAPH_LOG_LEVEL (Steward's log level, on standard error; `debug` shows each budget wait).
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { DEFAULT_TENANT_ID } = require('../dist/config');
const { PUBLISHED_GRAPH_LIMITS } = require('../dist/domain/graphBudget');
const { EmbeddedTokenIssuer } = require('../dist/services/access/tokens');
const { seedUsers } = require('../dist/store/seed/directory');
const { startServer } = require('./processes');
const { envNumber } = require('./settings');
const { compileSimulator, graphEnv, SIMULATOR, startSimulator } = require('./simulator');

/** The tenant default policy the evaluation applies: every kind of decision, none that calls Graph. */
const POLICY = {
  expiration: { enabled: true, days: 365, renewalNoticeDays: [30, 7], onExpiry: 'none' },
  inactivity: { enabled: true, days: 90, onInactive: 'notify' },
  ownership: { minimumOwners: 1, onOwnerless: 'notifyGovernance' },
  guestReview: { enabled: true, everyDays: 90 },
};

function settings() {
  return {
    teams: envNumber('BENCH_LIFECYCLE_GRAPH_TEAMS', 2000, (n) => Number.isInteger(n) && n > 0),
    scale: envNumber('BENCH_LIFECYCLE_GRAPH_SCALE', 1, (n) => n > 0 && n <= 20),
  };
}

/** Calls `path` on Steward as `token`; resolves with the status and the parsed body. */
async function call(url, token, method, route, body) {
  const response = await fetch(`${url}/api/v1.0${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

/** The most calls the simulator let through in any one second (a window sliding over the decisions). */
function busiestSecond(decisions, klass) {
  const times = decisions.filter(([, c, refused]) => c === klass && !refused).map(([at]) => at);
  let most = 0;
  for (let start = 0, end = 0; end < times.length; end++) {
    while (times[end] - times[start] >= 1000) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

async function run({ quick = false } = {}) {
  const { teams, scale } = quick ? { teams: 100, scale: 5 } : settings();
  compileSimulator();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-lifecycle-graph-'));
  const usersFile = path.join(scratch, 'users.json');
  writeFileSync(usersFile, JSON.stringify(seedUsers.map(({ appRoles: _r, groupIds: _g, ...user }) => user)));
  const certFile = path.join(scratch, 'simulator.pem');
  writeFileSync(certFile, require(path.join(SIMULATOR, 'certificate.js')).FAKE_GRAPH_CERT);
  const timelineFile = path.join(scratch, 'timeline.json');
  const simulator = await startSimulator(scale, {
    FAKE_GRAPH_USERS: usersFile,
    FAKE_GRAPH_TEAMS: String(teams),
    FAKE_GRAPH_TIMELINE: timelineFile,
  });
  const secret = randomBytes(48).toString('base64url');
  let steward;
  try {
    steward = await startServer('steward.js', {
      label: 'steward (graph)',
      env: {
        BENCH_STEWARD_ENV: JSON.stringify({
          STEWARD_DATA_DIR: scratch,
          STEWARD_AUTH_SECRET: secret,
          STEWARD_DATABASE_URL: `sqlite:${path.join(scratch, 'steward.db')}`,
          ...(process.env.BENCH_LIFECYCLE_GRAPH_LOG_LEVEL
            ? { STEWARD_LOG_LEVEL: process.env.BENCH_LIFECYCLE_GRAPH_LOG_LEVEL }
            : {}),
          ...graphEnv(simulator.config, scale, certFile),
        }),
        NODE_EXTRA_CA_CERTS: certFile,
      },
    });
    const manager = seedUsers.find((u) => u.appRoles.includes('GOVERNANCE_MANAGER'));
    const token = await new EmbeddedTokenIssuer(secret, DEFAULT_TENANT_ID).mint(
      { id: manager.id, roles: manager.appRoles },
      3600,
    );
    const policy = await call(steward.url, token, 'PUT', '/lifecycle/policy', POLICY);
    if (policy.status !== 200) throw new Error(`the policy was refused: ${JSON.stringify(policy.body)}`);
    const started = Date.now();
    const queued = await call(steward.url, token, 'POST', '/lifecycle/evaluations');
    if (queued.status !== 202)
      throw new Error(`no evaluation: ${queued.status} ${JSON.stringify(queued.body)}`);
    const deadline = started + (teams * 2 * 2000) / (PUBLISHED_GRAPH_LIMITS.otherPerSecond * scale) + 120_000;
    let job;
    for (;;) {
      job = (await call(steward.url, token, 'GET', `/jobs/${queued.body.id}`)).body;
      if (job.status === 'completed' || job.status === 'failed') break;
      if (Date.now() > deadline) {
        await steward.stop();
        steward = undefined;
        const counts = await simulator.stop();
        throw new Error(
          `the evaluation did not end in time; the simulator's counts: ${JSON.stringify(counts)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (job.status !== 'completed') throw new Error(`the evaluation failed: ${job.failedReason}`);
    // The job's last change is its completion.
    const seconds = (Date.parse(job.lastModifiedDateTime) - started) / 1000;
    await steward.stop();
    steward = undefined;
    const counts = await simulator.stop();
    const { decisions } = JSON.parse(readFileSync(timelineFile, 'utf8'));
    const other = counts.admitted.other ?? 0;
    const rate = PUBLISHED_GRAPH_LIMITS.otherPerSecond * scale;
    const minimum = other / rate;
    const peak = busiestSecond(decisions, 'other');
    const calls = Object.values(counts.admitted).reduce((sum, n) => sum + n, 0) + counts.throttledTotal;
    const row = {
      teams,
      scale,
      'evaluation s': seconds.toFixed(1),
      'Teams calls': calls,
      'calls per team': (calls / teams).toFixed(2),
      '429s': counts.throttledTotal,
      'minimum s': minimum.toFixed(1),
      ratio: (seconds / minimum).toFixed(2),
      'busiest second': `${peak} / ${rate}`,
      '100 000 teams at the published limits': `${((100_000 * (other / teams)) / PUBLISHED_GRAPH_LIMITS.otherPerSecond / 3600).toFixed(2)} h at least`,
    };
    console.log(JSON.stringify(row));
    const targets = [
      {
        name: 'the evaluation’s Graph calls within the Graph budget: no 429, no second over the class limit',
        met: counts.throttledTotal === 0 && peak <= rate,
        detail: `${counts.throttledTotal} 429s in ${calls} Teams calls; at most ${peak} \`other\` calls in one second (limit ${rate})`,
      },
    ];
    const markdown = [
      `${teams} existing teams in the Graph simulator (its own process; made over the last 400 days, two owners`,
      'each but every 100th, a guest in every tenth), evaluated by Steward on `STEWARD_PLATFORM=graph` (SQLite,',
      `one process) under a tenant policy of every kind of decision and no Graph action; limits × ${scale} on both`,
      'sides. Graph lists teams without their dates and roles, so every team is read (`GET /teams/{id}`,',
      '`GET /teams/{id}/members`): two calls of the `other` class, 30 a second per app per tenant.',
      'evaluation = `POST /lifecycle/evaluations` → its job completed; minimum = `other` calls ÷ (30 × scale);',
      'busiest second = the most `other` calls the simulator let through in any one-second window. The last',
      "column is the same tenant's reads at 100 000 teams and Microsoft's published rate: what no Steward can",
      'beat on Graph; the evaluator over 100 000 teams of the store is `npm run bench -- lifecycle`.',
    ].join('\n');
    return { rows: [row], markdown, targets };
  } finally {
    await steward?.stop();
    if (!simulator.exited()) await simulator.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

module.exports = {
  name: 'lifecycle-graph',
  description:
    'The lifecycle evaluator reading its tenant from the Graph simulator at the published limits: evaluation ' +
    'time against the least the limits allow, 429s, the busiest second.',
  run,
};
