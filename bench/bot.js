'use strict';
// The bot benchmark: how long a chat turn takes, from the moment an activity is POSTed to the bot's
// `/api/messages` until a fake Bot Connector has received the bot's reply, for Steward's bot (all in
// one process: API, worker and bot on SQLite) and for a bare botbuilder echo bot on restify, in the
// same run. Bots, connector and runner are separate processes; the connector notes arrivals on the
// monotonic clock all processes share and hands them over after each phase, so nothing but the
// turns themselves travels while a phase is measured.
const { randomBytes } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { Pool } = require('undici');
const { activity, CONCURRENCY, JOBS_PER_PERSON, PEOPLE, seedJobs } = require('./botPeople');
const { cpuOf, rssOf, startServer } = require('./processes');
const { percentile } = require('./stores');

const TARGETS = { helpP99: 100, galleryP99: 250, concurrentP99: 1000, rssMiB: 300, helpCpuRatio: 2 };

/**
 * The turns measured: what the person types, and a string the reply must contain (checked once
 * before measuring) so that an error card cannot pass for an answer.
 */
const TURNS = [
  { name: 'help', text: 'help', expect: '"requestTeam"' },
  { name: 'my requests', text: 'my requests', expect: 'bot bench' },
  { name: 'gallery', text: 'request a team', expect: '"pickTemplate"' },
];

async function getJson(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return res.json();
}

/**
 * Sends `text` as the first `concurrency` people, each waiting for the bot's answer before the next
 * turn, for `seconds` (at least one turn each); then pairs every turn with the connector's arrivals. A turn's latency runs
 * from just before its POST to the arrival of the last message replying to it. Resolves the sorted
 * latencies (ms), turns/s, errors, the server's CPU seconds and its highest RSS sample.
 */
async function phase(bot, connector, text, concurrency, seconds) {
  const pool = new Pool(bot.url, { connections: concurrency });
  const turns = [];
  let errors = 0;
  let peakRss = rssOf(bot.pid) ?? 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(bot.pid) ?? 0)), 250);
  const cpuBefore = cpuOf(bot.pid);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const lane = async (who) => {
    do {
      const sent = activity(connector.url, who, text);
      const body = JSON.stringify(sent);
      const at = process.hrtime.bigint();
      try {
        const res = await pool.request({
          method: 'POST',
          path: '/api/messages',
          headers: { 'content-type': 'application/json' },
          body,
        });
        await res.body.dump();
        if (res.statusCode >= 300) errors += 1;
        else turns.push({ id: sent.id, at });
      } catch {
        errors += 1;
      }
    } while (performance.now() < deadline);
  };
  try {
    await Promise.all(PEOPLE.slice(0, concurrency).map(lane));
  } finally {
    clearInterval(sampler);
    await pool.close();
  }
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = cpuOf(bot.pid);
  const replied = new Map();
  for (const arrival of await getJson(`${connector.url}/_bench/arrivals`)) {
    if (arrival.type !== 'message' || !arrival.replyToId) continue;
    const at = BigInt(arrival.at);
    if ((replied.get(arrival.replyToId) ?? 0n) < at) replied.set(arrival.replyToId, at);
  }
  const latencies = [];
  for (const turn of turns) {
    const reply = replied.get(turn.id);
    if (reply === undefined) errors += 1;
    else latencies.push(Number(reply - turn.at) / 1e6);
  }
  latencies.sort((a, b) => a - b);
  return {
    latencies,
    perSecond: latencies.length / elapsed,
    errors,
    cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    peakRss,
  };
}

/** One turn as Alex, and what the connector received for it: must contain `expect`. */
async function check(bot, connector, turn) {
  await phase(bot, connector, turn.text, 1, 0);
  const last = JSON.stringify(await getJson(`${connector.url}/_bench/last`));
  if (!last.includes(turn.expect))
    throw new Error(`the reply to "${turn.text}" lacks ${turn.expect}: ${last.slice(0, 300)}`);
}

const ms = (value) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a');
const mib = (bytes) => (bytes ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : 'n/a');

/** A table row of one measured phase. */
function rowOf(server, turn, concurrency, result) {
  const { latencies } = result;
  return {
    server,
    turn,
    conversations: concurrency,
    turns: latencies.length,
    'turns/s': result.perSecond.toFixed(1),
    p50: ms(percentile(latencies, 0.5)),
    p90: ms(percentile(latencies, 0.9)),
    p99: ms(percentile(latencies, 0.99)),
    max: ms(latencies[latencies.length - 1]),
    errors: result.errors,
    'CPU/turn': result.cpu === null ? 'n/a' : `${((result.cpu * 1000) / latencies.length).toFixed(2)} ms`,
    'RSS max': mib(result.peakRss),
  };
}

/** Whole positive seconds from an environment variable, or `fallback` when it is unset. */
function seconds(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!(n > 0)) throw new Error(`${name} must be a positive number of seconds, got "${value}"`);
  return n;
}

/**
 * Measures every turn on `bot`, at one conversation then CONCURRENCY, after a warm-up phase at
 * CONCURRENCY (which also lets each person's first turn, that stores their conversation, pass).
 */
async function measure(label, bot, connector, turns, { warmup, duration }) {
  const results = {};
  for (const turn of turns) {
    await check(bot, connector, turn);
    await phase(bot, connector, turn.text, CONCURRENCY, warmup);
    results[turn.name] = {
      1: await phase(bot, connector, turn.text, 1, duration),
      [CONCURRENCY]: await phase(bot, connector, turn.text, CONCURRENCY, duration),
    };
  }
  const rows = turns.flatMap((t) => [1, CONCURRENCY].map((c) => rowOf(label, t.name, c, results[t.name][c])));
  return { results, rows };
}

/** Runs the connector, then Steward, then the echo bot, and weighs the results against the targets. */
async function run({ quick = false } = {}) {
  const duration = quick ? 1 : seconds('BENCH_DURATION', 10);
  const warmup = quick ? 0.5 : seconds('BENCH_WARMUP', 3);
  let connector;
  let steward;
  let echo;
  try {
    connector = await startServer('connector.js');
    const secret = randomBytes(48).toString('base64url');
    steward = await startServer('steward.js', {
      env: {
        BENCH_STEWARD_ENV: JSON.stringify({ STEWARD_BOT_ENABLED: 'true', STEWARD_AUTH_SECRET: secret }),
      },
    });
    const stewardIdle = rssOf(steward.pid);
    await seedJobs(steward, secret);
    const s = await measure('Steward', steward, connector, TURNS, { warmup, duration });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const stewardAfter = rssOf(steward.pid);
    await steward.stop();
    steward = undefined;

    echo = await startServer('echoBot.js');
    const echoIdle = rssOf(echo.pid);
    const echoTurn = { name: 'help', text: 'help', expect: 'I understand' };
    const e = await measure('echo bot', echo, connector, [echoTurn], { warmup, duration });

    const p = (result, q) => percentile(result.latencies, q);
    const stewardPeak = Math.max(...TURNS.map((t) => s.results[t.name][CONCURRENCY].peakRss));
    const concurrentP99 = Math.max(...TURNS.map((t) => p(s.results[t.name][CONCURRENCY], 0.99)));
    const help1 = s.results.help[1];
    const gallery1 = s.results.gallery[1];
    const errors = [...s.rows, ...e.rows].reduce((sum, row) => sum + row.errors, 0);
    const ratio = (a, b) => (a / b).toFixed(2);
    const cpuPerTurn = (result) => (result.cpu ?? NaN) / result.latencies.length;
    const echo1 = e.results.help[1];
    const echoN = e.results.help[CONCURRENCY];
    const cpuRatio = cpuPerTurn(s.results.help[CONCURRENCY]) / cpuPerTurn(echoN);
    const targets = [
      {
        name: `help turn p99 < ${TARGETS.helpP99} ms at 1 conversation`,
        met: p(help1, 0.99) < TARGETS.helpP99,
        detail: `p99 ${ms(p(help1, 0.99))} (p50 ${ms(p(help1, 0.5))})`,
      },
      {
        name: `gallery turn p99 < ${TARGETS.galleryP99} ms at 1 conversation`,
        met: p(gallery1, 0.99) < TARGETS.galleryP99,
        detail: `p99 ${ms(p(gallery1, 0.99))} (p50 ${ms(p(gallery1, 0.5))})`,
      },
      {
        name: `every turn p99 < ${TARGETS.concurrentP99} ms at ${CONCURRENCY} conversations`,
        met: concurrentP99 < TARGETS.concurrentP99,
        detail: `worst p99 ${ms(concurrentP99)}`,
      },
      {
        name: `Steward RSS under load < ${TARGETS.rssMiB} MiB`,
        met: stewardPeak < TARGETS.rssMiB * 2 ** 20,
        detail: `${mib(stewardPeak)} (idle ${mib(stewardIdle)}; echo bot ${mib(echoIdle)} idle)`,
      },
      {
        name: `Steward CPU per help turn <= ${TARGETS.helpCpuRatio}× the echo bot's at ${CONCURRENCY} conversations`,
        met: cpuRatio <= TARGETS.helpCpuRatio,
        detail: `${cpuRatio.toFixed(2)}×`,
      },
      { name: 'every turn answered, no errors', met: errors === 0, detail: `${errors} errors` },
    ];
    const markdown = [
      `Chat turns sent to \`POST /api/messages\` as ${CONCURRENCY} seed people (Alex Wilber alone at 1`,
      `conversation), each waiting for the reply before its next turn; a fake Bot Connector (own process)`,
      `receives the replies. Latency: from just before the POST to the connector's receipt of the reply`,
      `(monotonic clock). ${warmup} s warm-up at ${CONCURRENCY} conversations and a reply check per turn,`,
      `then ${duration} s at 1 and ${duration} s at ${CONCURRENCY} conversations per turn. Each person has`,
      `${JOBS_PER_PERSON} completed requests. RSS idle: Steward ${mib(stewardIdle)} (${mib(stewardAfter)} 2 s after`,
      `its last phase), echo bot ${mib(echoIdle)}. CPU/turn is the bot process's CPU time over the phase per turn.`,
      `Steward/echo bot, help turn: p50 ${ratio(p(help1, 0.5), p(echo1, 0.5))}×, p99`,
      `${ratio(p(help1, 0.99), p(echo1, 0.99))}× at 1 conversation; turns/s`,
      `${ratio(s.results.help[CONCURRENCY].perSecond, echoN.perSecond)}×, CPU/turn ${cpuRatio.toFixed(2)}× at ${CONCURRENCY}.`,
    ].join('\n');
    return { rows: [...s.rows, ...e.rows], markdown, targets };
  } finally {
    await steward?.stop();
    await echo?.stop();
    await connector?.stop();
  }
}

module.exports = {
  name: 'bot',
  description:
    "Chat turn latency (help, my requests, template gallery) of Steward's bot against a bare botbuilder " +
    'echo bot, at 1 and 10 conversations; targets: help p99 < 100 ms, gallery p99 < 250 ms, RSS < 300 MiB.',
  run,
};
