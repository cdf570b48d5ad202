'use strict';
// The blind bot benchmark: a set of messages written by someone who never saw the bot's
// understanding engine (bench/blind/), each sent end to end to `POST /api/messages` as its sender,
// and scored on what the person sees: the kind of answer, the template on the form, the team name
// typed into it, the people in its pickers (as directory ids), and how long the turn took.
//
// Steward runs all in one process on SQLite (bench/servers/steward.js, the bot enabled); a fake Bot
// Connector in this process receives and keeps every activity the bot sends. Each sender is
// installed first (as Teams does), then the set's prior requests are made through the API as their
// requesters, so that questions about "my request for X" have something to find. Messages go one at
// a time, each in its sender's personal conversation, with the French varieties' locales.
//
// The rate limits are lifted with STEWARD_RATE_LIMIT_FACTOR (as for every benchmark's Steward), so
// that a person's per-minute budget never refuses a turn of the set; a "busy" answer would still be
// counted (as the kind `error`).
//
// `node bench/run.js bot-blind` scores BLIND_SET (default bench/blind/round4.json);
// `node bench/botBlind.js <set.json> [--out <dir>]` does the same alone. The result (JSON) and the
// misses, message by message, are written under BLIND_OUT (default /tmp/steward-blind).
const http = require('node:http');
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { URL } = require('node:url');
const { randomBytes, randomUUID } = require('node:crypto');
const { DEFAULT_TENANT_ID } = require('../dist/config');
const { seedUsers } = require('../dist/store/seed/directory');
const { seedTemplates } = require('../dist/store/seed/templates');
const { EmbeddedTokenIssuer } = require('../dist/services/access/tokens');
const { startServer } = require('./processes');
const { percentile } = require('./stores');
const { classify, REQUEST_LIKE } = require('./blind/classify');

/** Round four's targets for the bot, on a blind set. */
const TARGETS = { intent: 0.95, template: 0.95, nameF1: 0.93, peopleF1: 0.93, nonRequestsPer30: 1, p99: 50 };

/** How long the bot may go on sending after its HTTP answer, for a reply sent outside the turn. */
const SETTLE_MS = 40;

/** The warm-up turns: commands of the user guide and a request of its own examples, none of the set. */
const WARM_UP = [
  'new team',
  'my requests',
  'status Warm-up',
  'please create a project space called Mercury, Megan will co-own it',
  'il me faut une équipe pour le projet Atlas avec Lynne Robbins',
];

/** A Bot Connector on loopback keeping every activity it receives, with its arrival (hrtime). */
function startConnector() {
  const received = [];
  let counter = 0;
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const at = process.hrtime.bigint();
    const reply = (status, value) => {
      const text = JSON.stringify(value);
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    };
    let body = {};
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      body = text ? JSON.parse(text) : {};
    } catch {
      return reply(400, { error: { code: 'badRequest', message: 'The body is not JSON.' } });
    }
    const url = new URL(req.url ?? '/', 'http://connector').pathname;
    if (req.method === 'POST' && url === '/v3/conversations')
      return reply(201, { id: `created-${++counter}` });
    const match = /^\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?$/.exec(url);
    if (match && (req.method === 'POST' || (req.method === 'PUT' && match[2]))) {
      const update = req.method === 'PUT';
      const activityId = update ? decodeURIComponent(match[2]) : `activity-${++counter}`;
      received.push({
        kind: update ? 'update' : 'send',
        conversationId: decodeURIComponent(match[1]),
        replyToId: !update && match[2] ? decodeURIComponent(match[2]) : body.replyToId,
        activityId,
        body,
        at,
      });
      return reply(200, { id: activityId });
    }
    reply(404, { error: { code: 'notFound', message: `${req.method} ${url}` } });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        received,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** The seed people by id, as Teams presents them to a bot (one personal conversation each). */
function teamsPeople() {
  return new Map(
    seedUsers.map((user, i) => [
      user.id,
      {
        aadObjectId: user.id,
        name: user.displayName,
        teamsId: `29:blind-${i}`,
        conversationId: `a:personal-blind-${i}`,
      },
    ]),
  );
}

/** Posts an activity from `who` to the bot; resolves the HTTP status once it answers. */
async function post(botUrl, connectorUrl, who, activity) {
  const body = {
    id: randomUUID(),
    channelId: 'msteams',
    serviceUrl: connectorUrl,
    timestamp: new Date().toISOString(),
    from: { id: who.teamsId, name: who.name, aadObjectId: who.aadObjectId },
    recipient: { id: '28:steward-bot', name: 'Steward' },
    conversation: { id: who.conversationId, conversationType: 'personal', tenantId: DEFAULT_TENANT_ID },
    channelData: { tenant: { id: DEFAULT_TENANT_ID } },
    locale: 'en-US',
    ...activity,
  };
  const res = await fetch(`${botUrl}/api/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return { id: body.id, status: res.status };
}

/** Calls the API as `token`; resolves its JSON, throws on an error status. */
async function api(url, token, method, route, body) {
  const res = await fetch(`${url}/api/v1.0${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/**
 * Makes the set's prior requests as their requesters, then waits until each has either finished
 * or waits for an approver (the state a person asking about it would find).
 */
async function prepareRequests(steward, secret, requests) {
  const issuer = new EmbeddedTokenIssuer(secret, DEFAULT_TENANT_ID);
  const tokens = new Map();
  const tokenOf = async (id) => {
    if (!tokens.has(id)) tokens.set(id, await issuer.mint({ id, roles: [] }, 6 * 3600));
    return tokens.get(id);
  };
  for (const r of requests) {
    await api(steward.url, await tokenOf(r.sender), 'POST', '/teams/provisioning', {
      template: { id: r.template },
      team: {
        name: r.name,
        membership: {
          owners: (r.owners ?? []).map((id) => ({ id })),
          members: (r.members ?? []).map((id) => ({ id })),
        },
      },
    });
  }
  const deadline = Date.now() + 120_000;
  for (const sender of new Set(requests.map((r) => r.sender))) {
    for (;;) {
      const jobs = (await api(steward.url, await tokenOf(sender), 'GET', '/me/jobs')).value;
      const settled = (job) =>
        job.status === 'completed' ||
        job.status === 'failed' ||
        (job.status === 'waiting' && job.data?.approval?.status === 'pending');
      if (jobs.every(settled)) break;
      if (Date.now() > deadline) throw new Error(`the prior requests of ${sender} did not settle in 120 s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 1500)); // lets the cards' deliveries settle
}

/** The ids of the templates offered to each person (`GET /me/catalog/templates` as them). */
async function catalogsOf(steward, secret, ids) {
  const issuer = new EmbeddedTokenIssuer(secret, DEFAULT_TENANT_ID);
  const catalogs = new Map();
  for (const id of new Set(ids)) {
    const token = await issuer.mint({ id, roles: [] }, 3600);
    const list = await api(steward.url, token, 'GET', '/me/catalog/templates');
    catalogs.set(id, new Set(list.value.map((t) => t.templateConfiguration.id)));
  }
  return catalogs;
}

/**
 * Checks a set against the demo tenant before any message is sent: every sender and person is in
 * the directory, and each expected template is (or, for notOffered, is not) in the sender's own
 * catalog (`GET /me/catalog/templates` as them). Resolves the problems found, one line each.
 */
async function checkSet(steward, secret, set) {
  const known = new Set(seedUsers.map((u) => u.id));
  const catalogs = await catalogsOf(
    steward,
    secret,
    set.messages.map((m) => m.sender).filter((id) => known.has(id)),
  );
  const catalogOf = async (id) => catalogs.get(id);
  const problems = [];
  for (const m of set.messages) {
    if (!known.has(m.sender)) problems.push(`${m.id}: unknown sender ${m.sender}`);
    for (const p of m.expected.people ?? []) {
      if (!known.has(p.id)) problems.push(`${m.id}: unknown person ${p.id}`);
      if (p.id === m.sender) problems.push(`${m.id}: the sender is among the people`);
    }
    const t = m.expected.template;
    if (!t || !known.has(m.sender)) continue;
    const offered = (await catalogOf(m.sender)).has(t);
    if (m.expected.kind === 'notOffered' ? offered : !offered)
      problems.push(`${m.id}: ${t} is ${offered ? '' : 'not '}offered to ${m.sender}`);
  }
  return problems;
}

/**
 * Every request of the set's senders, by id, with its state and its approval's: a message must
 * neither make a request (nothing is made before Request the team is pressed) nor decide, withdraw
 * or change one (those take a button and its confirmation).
 */
async function requestStates(steward, secret, senders) {
  const issuer = new EmbeddedTokenIssuer(secret, DEFAULT_TENANT_ID);
  const states = {};
  for (const id of senders) {
    const token = await issuer.mint({ id, roles: [] }, 3600);
    for (const job of (await api(steward.url, token, 'GET', '/me/jobs')).value)
      states[job.id] = `${job.status}/${job.data?.approval?.status ?? 'none'}`;
  }
  return states;
}

/** The requests whose state differs between two snapshots, or that only one has. */
function changedRequests(before, after) {
  const ids = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...ids]
    .filter((id) => before[id] !== after[id])
    .map((id) => `${id}: ${before[id] ?? 'absent'} -> ${after[id] ?? 'absent'}`);
}

/**
 * Sends every message of the set, one at a time, each once the bot has answered the one before
 * (its HTTP answer, then SETTLE_MS for a reply sent just after it). Resolves each turn's message,
 * status, activity id, sender's conversation and start time; `collect` adds the replies.
 */
async function converse(steward, connector, set, people) {
  const turns = [];
  for (const message of set.messages) {
    const who = people.get(message.sender);
    if (!who) throw new Error(`${message.id}: the sender ${message.sender} is not a seed person`);
    const started = process.hrtime.bigint();
    let answer;
    try {
      answer = await post(steward.url, connector.url, who, {
        type: 'message',
        text: message.text,
        // The Teams client's locale: the message's own, else its variety's (en-GB, fr-BE, fr-CA…).
        locale: message.locale ?? (/^[a-z]{2}-[A-Z]{2}$/.test(message.variety) ? message.variety : 'en-US'),
      });
    } catch (error) {
      answer = { id: null, status: 0, error: String(error) };
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    turns.push({
      message,
      status: answer.status,
      id: answer.id,
      conversationId: who.conversationId,
      started,
    });
  }
  return turns;
}

/**
 * Gives each turn every message the connector received in reply to it (in its sender's
 * conversation, whenever it arrived), and its time: from the POST to the last of them.
 */
function collect(turns, received) {
  for (const turn of turns) {
    const replies = received.filter(
      (r) => r.kind === 'send' && r.replyToId === turn.id && r.conversationId === turn.conversationId,
    );
    const last = replies.reduce((max, r) => (r.at > max ? r.at : max), 0n);
    turn.replies = replies.map((r) => r.body);
    turn.ms = replies.length > 0 ? Number(last - turn.started) / 1e6 : null;
  }
  return turns;
}

const norm = (text) =>
  String(text ?? '')
    .normalize('NFC')
    .replace(/[“”«»"'’]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** Precision, recall and F1 from counts (1 when there was nothing to find and nothing was found). */
function prf(tp, predicted, gold) {
  const p = predicted === 0 ? (gold === 0 ? 1 : 0) : tp / predicted;
  const r = gold === 0 ? (predicted === 0 ? 1 : 0) : tp / gold;
  return { precision: p, recall: r, f1: p + r === 0 ? 0 : (2 * p * r) / (p + r), tp, predicted, gold };
}

/**
 * Whether the name shown matches the one meant (or one of its other readings): equal, or, on a
 * request's card, at the end of the name its naming convention made ("PRJ-Northwind Traders").
 */
function nameMatches(shown, expected, kind) {
  const a = norm(shown);
  return [expected.teamName, ...(expected.teamNameAlso ?? [])].some((meant) => {
    const b = norm(meant);
    return Boolean(a && b) && (a === b || (kind !== 'requestForm' && a.endsWith(b)));
  });
}

/** Whether the template shown is the one meant, read from the answer's kind. */
function templateMatches(seen, expected, templateNames) {
  if (seen.template) return seen.template === expected.template;
  const names = templateNames.get(expected.template) ?? [];
  const text = norm(seen.text);
  return names.some((name) => text.includes(norm(name)));
}

/** Scores every turn against its expectation; returns the figures and the misses. */
function score(turns, templateNames, catalogs) {
  const groups = {};
  const tally = (key, ok) => {
    groups[key] ??= { right: 0, total: 0 };
    groups[key].total += 1;
    if (ok) groups[key].right += 1;
  };
  let templateRight = 0;
  let templateTotal = 0;
  const names = { tp: 0, predicted: 0, gold: 0 };
  const peopleCounts = { tp: 0, predicted: 0, gold: 0 };
  let nonRequests = 0;
  let nonRequestsTaken = 0;
  let nonRequestsOther = 0;
  const misses = [];
  const latencies = [];
  const confusion = {};
  for (const turn of turns) {
    const { message } = turn;
    const expected = message.expected;
    const seen = classify(turn.replies, catalogs.get(message.sender));
    if (turn.ms !== null) latencies.push(turn.ms);
    const accepted = [expected.kind, ...(expected.alsoRight ?? [])];
    const kindOk = accepted.includes(seen.kind);
    tally('all', kindOk);
    tally(`language ${message.language}`, kindOk);
    tally(`variety ${message.variety}`, kindOk);
    tally(`category ${message.category}`, kindOk);
    tally(`expected ${expected.kind}`, kindOk);
    confusion[expected.kind] ??= {};
    confusion[expected.kind][seen.kind] = (confusion[expected.kind][seen.kind] ?? 0) + 1;
    const problems = [];
    if (!kindOk) problems.push(`kind: expected ${accepted.join(' or ')}, got ${seen.kind}`);
    if (expected.template) {
      templateTotal += 1;
      const ok = kindOk && templateMatches(seen, expected, templateNames);
      if (ok) templateRight += 1;
      else problems.push(`template: expected ${expected.template}, got ${seen.template ?? 'none'}`);
    }
    // Names: what a form or a request's card shows, against the name the person meant.
    const shownName = ['requestForm', 'status', 'withdraw', 'notFound'].includes(seen.kind)
      ? seen.teamName
      : null;
    if (shownName) names.predicted += 1;
    if (expected.teamName) names.gold += 1;
    if (shownName && expected.teamName && nameMatches(shownName, expected, seen.kind)) names.tp += 1;
    else if (shownName || expected.teamName)
      problems.push(
        `name: expected ${JSON.stringify(expected.teamName ?? null)}, got ${JSON.stringify(shownName)}`,
      );
    // People: (id, role) pairs in the form's pickers against those the person meant. The sender and
    // the template's permanent people, when a form shows them unasked, are the template's doing,
    // not a reading of the message: they are left out.
    const gold = new Set((expected.people ?? []).map((p) => `${p.role}:${p.id}`));
    const unasked = new Set([message.sender, ...(permanentPeople.get(seen.template) ?? [])]);
    const shown = new Set(
      seen.kind === 'requestForm'
        ? seen.people
            .map((p) => `${p.role}:${p.id}`)
            .filter((p) => gold.has(p) || !unasked.has(p.slice(p.indexOf(':') + 1)))
        : [],
    );
    const hit = [...shown].filter((p) => gold.has(p)).length;
    peopleCounts.tp += hit;
    peopleCounts.predicted += shown.size;
    peopleCounts.gold += gold.size;
    if (hit !== gold.size || hit !== shown.size)
      problems.push(`people: expected [${[...gold].join(', ')}], got [${[...shown].join(', ')}]`);
    // A check set says how a person read each reply: the classification must agree with it.
    if (message.cardReads) {
      tally('read as the card reads', message.cardReads === seen.kind);
      if (message.cardReads !== seen.kind)
        problems.push(`classifier: read ${seen.kind}, the card reads ${message.cardReads}`);
    }
    if (message.category === 'nonRequest') {
      nonRequests += 1;
      if (REQUEST_LIKE.has(seen.kind)) nonRequestsTaken += 1;
      else if (!kindOk) nonRequestsOther += 1;
    }
    if (problems.length > 0)
      misses.push({
        id: message.id,
        text: message.text.length > 400 ? `${message.text.slice(0, 400)}…` : message.text,
        sender: message.sender,
        variety: message.variety,
        ms: turn.ms,
        expected,
        seen: { ...seen, text: seen.text.slice(0, 600) },
        problems,
      });
  }
  latencies.sort((a, b) => a - b);
  const rate = (g) => (g && g.total > 0 ? g.right / g.total : null);
  return {
    intent: rate(groups.all),
    groups: Object.fromEntries(Object.entries(groups).map(([k, g]) => [k, { ...g, rate: rate(g) }])),
    template: {
      right: templateRight,
      total: templateTotal,
      rate: templateTotal ? templateRight / templateTotal : null,
    },
    name: prf(names.tp, names.predicted, names.gold),
    people: prf(peopleCounts.tp, peopleCounts.predicted, peopleCounts.gold),
    nonRequests: { total: nonRequests, takenForRequest: nonRequestsTaken, otherWrong: nonRequestsOther },
    unanswered: turns.filter((t) => t.replies.length === 0).length,
    latency: {
      turns: latencies.length,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: latencies[latencies.length - 1] ?? null,
    },
    confusion,
    misses,
  };
}

/** Each demo template's permanent owners and members, by template id. */
const permanentPeople = new Map(
  seedTemplates.map((t) => {
    const permanent = t.templateConfiguration.permanentMembership;
    return [
      t.templateConfiguration.id,
      [...(permanent?.owners ?? []), ...(permanent?.members ?? [])].map((p) => p.id),
    ];
  }),
);

/** Each template's names a reply could show it by: its catalog name (and its id). */
function templateNamesOf() {
  return new Map(seedTemplates.map((t) => [t.templateConfiguration.id, [t.templateConfiguration.name]]));
}

const pct = (x) => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)} %`);
const ms = (x) => (x === null || x === undefined ? 'n/a' : `${x.toFixed(1)} ms`);

/** Scores the set at `setPath`; resolves { rows, markdown, targets, result }. */
async function scoreSet(setPath, outDir) {
  const set = JSON.parse(readFileSync(setPath, 'utf8'));
  const people = teamsPeople();
  const secret = randomBytes(48).toString('base64url');
  let connector;
  let steward;
  try {
    connector = await startConnector();
    steward = await startServer('steward.js', {
      env: {
        BENCH_STEWARD_ENV: JSON.stringify({
          STEWARD_BOT_ENABLED: 'true',
          STEWARD_AUTH_SECRET: secret,
          // The per-minute limits lifted (see the header): no person's budget refuses a turn.
          STEWARD_RATE_LIMIT_FACTOR: '100000',
          STEWARD_LOG_LEVEL: 'error',
        }),
      },
    });
    const senders = new Set([
      ...set.messages.map((m) => m.sender),
      ...(set.requests ?? []).map((r) => r.sender),
    ]);
    for (const id of senders) if (!people.has(id)) throw new Error(`the sender ${id} is not a seed person`);
    const problems = await checkSet(steward, secret, set);
    if (problems.length > 0) throw new Error(`the set does not fit the demo tenant:\n${problems.join('\n')}`);
    // Each sender installs the bot (as Teams does: the bot may then post their approval cards).
    for (const id of senders)
      await post(steward.url, connector.url, people.get(id), { type: 'installationUpdate', action: 'add' });
    await prepareRequests(steward, secret, set.requests ?? []);
    // Unscored warm-up, so that no message of the set pays for a process's or a person's first turn
    // (compiling code paths, the first token and directory read): one plain command a sender, and
    // a few turns of each kind (a typed request, a status, a gallery) as the first sender.
    for (const id of senders)
      await post(steward.url, connector.url, people.get(id), { type: 'message', text: 'help' });
    const first = people.get([...senders][0]);
    for (const text of WARM_UP) await post(steward.url, connector.url, first, { type: 'message', text });
    // Lets the warm-up's and the prior requests' cards and polls settle before the first turn.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const before = await requestStates(steward, secret, senders);
    // Other work on the machine stretches the turns: the load averages before and after say how much.
    const load = { before: os.loadavg()[0] };
    const turns = await converse(steward, connector, set, people);
    // Deliveries of anything a message did (and any late reply) would still be on their way.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    collect(turns, connector.received);
    load.after = os.loadavg()[0];
    const changed = changedRequests(before, await requestStates(steward, secret, senders));
    const catalogs = await catalogsOf(steward, secret, senders);
    const result = { ...score(turns, templateNamesOf(), catalogs), requestsChanged: changed };
    const name = path.basename(setPath, '.json');
    mkdirSync(outDir, { recursive: true });
    const { misses, ...figures } = result;
    const resultFile = path.join(outDir, `${name}.result.json`);
    const missesFile = path.join(outDir, `${name}.misses.json`);
    writeFileSync(
      resultFile,
      `${JSON.stringify({ set: path.relative(process.cwd(), setPath), at: new Date().toISOString(), load, ...figures }, null, 2)}\n`,
    );
    writeFileSync(missesFile, `${JSON.stringify(misses, null, 2)}\n`);
    if (process.env.BLIND_DUMP === '1')
      writeFileSync(
        path.join(outDir, `${name}.replies.json`),
        `${JSON.stringify(
          turns.map((t) => ({
            id: t.message.id,
            text: t.message.text,
            ms: t.ms,
            seen: classify(t.replies, catalogs.get(t.message.sender)),
            replies: t.replies,
          })),
          null,
          2,
        )}\n`,
      );
    const rank = (group) =>
      ['all', 'language', 'variety', 'category', 'expected', 'read'].indexOf(group.split(' ')[0]);
    const groups = Object.entries(result.groups).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
    const rows = groups.map(([group, g]) => ({
      group,
      messages: g.total,
      'kind right': g.right,
      accuracy: pct(g.rate),
    }));
    const nonPer30 = result.nonRequests.total
      ? (result.nonRequests.takenForRequest * 30) / result.nonRequests.total
      : 0;
    const markdown = [
      `The set ${path.relative(process.cwd(), setPath)} (${set.messages.length} messages, made ${set.madeOn ?? 'on an unknown day'})`,
      "sent to `POST /api/messages` as each message's sender, one at a time, and scored on the card each got back.",
      `Intent ${pct(result.intent)}, template ${pct(result.template.rate)} (${result.template.right}/${result.template.total}),`,
      `team name P ${result.name.precision.toFixed(2)} R ${result.name.recall.toFixed(2)} F1 ${result.name.f1.toFixed(2)},`,
      `people P ${result.people.precision.toFixed(2)} R ${result.people.recall.toFixed(2)} F1 ${result.people.f1.toFixed(2)},`,
      `${result.nonRequests.takenForRequest} of ${result.nonRequests.total} non-requests taken for a request`,
      `(${result.nonRequests.otherWrong} more answered otherwise than with help), ${result.unanswered} unanswered;`,
      `a turn p50 ${ms(result.latency.p50)}, p99 ${ms(result.latency.p99)} (1-minute load average ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after). The result and each miss are written outside the repository (BLIND_OUT).`,
    ].join('\n');
    const targets = [
      {
        name: `intent >= ${pct(TARGETS.intent)}`,
        met: result.intent >= TARGETS.intent,
        detail: pct(result.intent),
      },
      {
        name: `template >= ${pct(TARGETS.template)}`,
        met: (result.template.rate ?? 0) >= TARGETS.template,
        detail: pct(result.template.rate),
      },
      {
        name: `team name F1 >= ${TARGETS.nameF1}`,
        met: result.name.f1 >= TARGETS.nameF1,
        detail: result.name.f1.toFixed(3),
      },
      {
        name: `people F1 >= ${TARGETS.peopleF1}`,
        met: result.people.f1 >= TARGETS.peopleF1,
        detail: result.people.f1.toFixed(3),
      },
      {
        name: `at most ${TARGETS.nonRequestsPer30} in 30 non-requests taken for a request`,
        met: nonPer30 <= TARGETS.nonRequestsPer30,
        detail: `${result.nonRequests.takenForRequest} of ${result.nonRequests.total}`,
      },
      {
        name: `p99 < ${TARGETS.p99} ms a turn`,
        met: (result.latency.p99 ?? Infinity) < TARGETS.p99,
        detail: `p99 ${ms(result.latency.p99)} (p50 ${ms(result.latency.p50)})`,
      },
      {
        name: 'every message answered',
        met: result.unanswered === 0,
        detail: `${result.unanswered} unanswered`,
      },
      {
        name: 'no request made, decided or withdrawn by a message',
        met: changed.length === 0,
        detail: changed.length === 0 ? 'none' : changed.slice(0, 5).join('; '),
      },
    ];
    return { rows, markdown, targets, result };
  } finally {
    await steward?.stop();
    await connector?.close();
  }
}

const outDirOf = () => process.env.BLIND_OUT || '/tmp/steward-blind';

async function run() {
  const setPath = path.resolve(process.env.BLIND_SET || path.join(__dirname, 'blind', 'round4.json'));
  const { rows, markdown, targets } = await scoreSet(setPath, outDirOf());
  return { rows, markdown, targets };
}

module.exports = {
  checkSet,
  prepareRequests,
  startConnector,
  teamsPeople,
  name: 'bot-blind',
  description:
    'A blind set of messages (BLIND_SET, default bench/blind/round4.json) sent end to end to the bot as demo ' +
    'people and scored on the cards they get back: intent, template, team name and people F1, non-requests, p99.',
  run,
};

if (require.main === module) {
  const args = process.argv.slice(2);
  const out = args.indexOf('--out');
  const outDir = out >= 0 ? args[out + 1] : outDirOf();
  const setArg = args.find((a, i) => !a.startsWith('--') && (out < 0 || i !== out + 1));
  if (!setArg) {
    console.error('Usage: node bench/botBlind.js <set.json> [--out <dir>]');
    process.exitCode = 2;
  } else {
    scoreSet(path.resolve(setArg), outDir).then(
      ({ rows, markdown, targets }) => {
        console.table(rows);
        console.log(`\n${markdown}\n`);
        for (const t of targets) console.log(`${t.met ? 'met' : 'MISSED'}: ${t.name} — ${t.detail}`);
      },
      (error) => {
        console.error(error);
        process.exitCode = 1;
      },
    );
  }
}
