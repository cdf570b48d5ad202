'use strict';
// How well and how fast the bot understands people's own words (src/bot/understanding): the
// labelled messages of test/bot/understanding/messages.json, train and held-out splits apart,
// read by the compiled engine in a fresh process (so the model's load time and the heap are its own).
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const TARGETS = { intentAccuracy: 0.95, entityF1: 0.9, p99Ms: 20, growthMiB: 50 };
const ROUNDS = 20;
const LONG_RUNS = 1000;
const UNDERSTANDINGS = 10_000;

/** The percentile p (0..1) of sorted numbers. */
function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** Runs in the child process: loads the engine, measures, prints one JSON line. */
function child({ quick }) {
  const started = process.hrtime.bigint();
  const { understand } = require('../dist/bot/understanding/understand');
  const loadMs = Number(process.hrtime.bigint() - started) / 1e6;
  const { measure } = require('../dist/bot/understanding/measure');
  const { seedTemplates } = require('../dist/store/seed/templates');
  const { messages } = require('../test/bot/understanding/messages.json');
  const templates = seedTemplates
    .map((t) => t.templateConfiguration)
    .filter((t) => t.enabled !== false)
    .map((t) => ({ id: t.id, name: t.name, description: t.description ?? '' }));
  const quality = {};
  for (const split of ['train', 'test']) {
    const { misses, ...scores } = measure(
      messages.filter((m) => m.split === split),
      templates,
      understand,
    );
    quality[split] = { ...scores, misses: misses.length };
  }
  const time = (text) => {
    const t0 = process.hrtime.bigint();
    understand(text, templates);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const times = [];
  for (let round = 0; round < (quick ? 2 : ROUNDS); round += 1)
    for (const m of messages) times.push(time(m.text));
  times.sort((a, b) => a - b);
  const long = `a new project team called Hermes with Megan and Adele ${'and some more words '.repeat(500)}`;
  const foreign = `Ich möchte ein neues Team für das Projekt Atlas mit Adele ${'und noch mehr Worte '.repeat(500)}`;
  const longTimes = [];
  const foreignTimes = [];
  for (let i = 0; i < (quick ? 20 : LONG_RUNS); i += 1) {
    longTimes.push(time(long));
    foreignTimes.push(time(foreign));
  }
  longTimes.sort((a, b) => a - b);
  foreignTimes.sort((a, b) => a - b);
  global.gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const count = quick ? 1000 : UNDERSTANDINGS;
  for (let i = 0; i < count; i += 1) {
    const m = messages[i % messages.length];
    // Every tenth message made unique and long, so that nothing repeats.
    understand(i % 10 === 0 ? `${m.text} ${i} ${'x'.repeat(9_000)}` : `${m.text} ${i}`, templates);
  }
  global.gc();
  const growth = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  process.stdout.write(
    `${JSON.stringify({
      loadMs,
      quality,
      messages: messages.length,
      p50: percentile(times, 0.5),
      p99: percentile(times, 0.99),
      max: times[times.length - 1],
      longLength: long.length,
      longP99: percentile(longTimes, 0.99),
      foreignP99: percentile(foreignTimes, 0.99),
      growth,
      count,
    })}\n`,
  );
}

async function run({ quick = false } = {}) {
  const output = execFileSync(
    process.execPath,
    ['--expose-gc', path.join(__dirname, 'understanding.js'), '--child', ...(quick ? ['--quick'] : [])],
    { encoding: 'utf8', cwd: path.resolve(__dirname, '..') },
  );
  const r = JSON.parse(output.trim().split('\n').pop());
  const pct = (x) => `${(x * 100).toFixed(1)} %`;
  const f = (s) => `P ${s.precision.toFixed(2)} R ${s.recall.toFixed(2)} F1 ${s.f1.toFixed(2)}`;
  const { train, test } = r.quality;
  const rows = [
    { figure: 'messages', train: String(train.messages), test: String(test.messages) },
    { figure: 'intent accuracy', train: pct(train.intentAccuracy), test: pct(test.intentAccuracy) },
    { figure: 'language accuracy', train: pct(train.languageAccuracy), test: pct(test.languageAccuracy) },
    { figure: 'template', train: f(train.template), test: f(test.template) },
    { figure: 'name', train: f(train.name), test: f(test.name) },
    { figure: 'person (name and role)', train: f(train.person), test: f(test.person) },
    { figure: 'all entities', train: f(train.entities), test: f(test.entities) },
    { figure: 'messages with a miss', train: String(train.misses), test: String(test.misses) },
    {
      figure: 'time per message p50 / p99 / max',
      train: '',
      test: `${r.p50.toFixed(2)} / ${r.p99.toFixed(2)} / ${r.max.toFixed(1)} ms`,
    },
    { figure: `${r.longLength}-character message p99`, train: '', test: `${r.longP99.toFixed(2)} ms` },
    { figure: 'same, in German p99', train: '', test: `${r.foreignP99.toFixed(2)} ms` },
    { figure: `heap growth over ${r.count} understandings`, train: '', test: `${r.growth.toFixed(2)} MiB` },
    { figure: 'model load (training included)', train: '', test: `${r.loadMs.toFixed(0)} ms` },
  ];
  return {
    rows,
    markdown:
      `The compiled engine in a fresh \`node --expose-gc\` process: the ${r.messages} labelled messages of ` +
      "test/bot/understanding/messages.json against the demo catalog's enabled templates, the train and " +
      `the held-out (test) splits apart; entity scores compare the first template, the team name (or the request ` +
      `named) and each person with their role. Times over ${quick ? 2 : ROUNDS} rounds of every message; the long ` +
      `messages ${quick ? 20 : LONG_RUNS} times each; heap after GC before and after ${r.count} understandings ` +
      '(every tenth 9 000 characters longer). Model load is the time to require the engine, its training included.',
    targets: [
      {
        name: `held-out intent accuracy ≥ ${pct(TARGETS.intentAccuracy)}`,
        met: test.intentAccuracy >= TARGETS.intentAccuracy,
        detail: pct(test.intentAccuracy),
      },
      {
        name: `held-out entity F1 ≥ ${TARGETS.entityF1}`,
        met: test.entities.f1 >= TARGETS.entityF1,
        detail: `${test.entities.f1.toFixed(2)} (template ${test.template.f1.toFixed(2)}, name ${test.name.f1.toFixed(2)}, person ${test.person.f1.toFixed(2)})`,
      },
      {
        name: `p99 < ${TARGETS.p99Ms} ms a message, 10 000 characters included`,
        met: Math.max(r.p99, r.longP99, r.foreignP99) < TARGETS.p99Ms,
        detail: `${r.p99.toFixed(2)} ms; long ${r.longP99.toFixed(2)} ms`,
      },
      {
        name: `heap growth < ${TARGETS.growthMiB} MiB`,
        met: r.growth < TARGETS.growthMiB,
        detail: `${r.growth.toFixed(2)} MiB`,
      },
    ],
  };
}

if (process.argv.includes('--child')) child({ quick: process.argv.includes('--quick') });

module.exports = {
  name: 'understanding',
  description:
    "Understanding people's own words: intent accuracy and entity F1 on the held-out messages, time per message, heap growth.",
  run,
};
