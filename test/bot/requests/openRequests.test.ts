import { randomUUID } from 'node:crypto';
import { PERSON_READS } from '../../../src/bot';
import { writeQueuePaused } from '../../../src/store/jobs/queuePause';
import { databaseKinds } from '../../support/databases';
import { actionData, cardOf, cardText, type Sent } from '../support/fakeConnector';
import { ALEX, type BotHarness, botRestarts, startBotHarness, type TeamsPerson } from '../support/botHarness';

/** Seeded people 21–50 (Alex is 20): thirty people besides Alex. */
const OTHERS: TeamsPerson[] = Array.from({ length: 30 }, (_, i) => {
  const n = 21 + i;
  return {
    aadObjectId: `00000000-0000-0000-0000-${String(n).padStart(12, '0')}`,
    name: `Person ${n}`,
    teamsId: `29:person-${n}-teams-id`,
    conversationId: `a:personal-person-${n}`,
  };
});
const ALEX_REQUESTS = 50;
const EACH_OTHER = 15;
const TOTAL = ALEX_REQUESTS + OTHERS.length * EACH_OTHER;

/** The longest a card may trail its job's end. */
const WITHIN_MS = 10_000;

/** The most calls a minute the API allows for tier 3 (`getJobs`), at the contract's limits. */
const TIER_3 = 60;

/** The most reads the bot makes for one person in any minute, by design. */
const PERSON_MINUTE = PERSON_READS.burst + 60_000 / PERSON_READS.spacingMs;

/** Warnings that mean a person's card or delivery waited on something. */
const STALLS = /could not (update|follow)|delivery failed|trying again later/;

/** The most entries of `times` (ms) inside any 60 s window. */
function busiestMinute(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last++) {
    while (sorted[last]! - sorted[first]! >= 60_000) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** Runs `tasks` with at most `width` at once. */
async function inParallel(tasks: Array<() => Promise<void>>, width: number): Promise<void> {
  const queue = [...tasks];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let task = queue.shift(); task; task = queue.shift()) await task();
    }),
  );
}

describe.each(databaseKinds)('500 open requests, 50 of them one person’s, on %s', (kind) => {
  let bot: BotHarness | undefined;
  const parts = botRestarts(kind, () => bot);
  const { connector } = parts;

  it('brings every progress card to its final state within seconds of its job, with no 429 in the log', async () => {
    // The requests are made first, with the queue paused (at the contract's limits a person may
    // make 6 requests a minute: 50 take a while, so the limits are relaxed while they are made).
    const quiet = { STEWARD_LIFECYCLE_EVALUATION_AT: 'off' };
    bot = await startBotHarness(kind, quiet, {}, parts);
    const db = bot.steward.steward.store.db;
    await writeQueuePaused(db, true);
    const submissions: Array<() => Promise<void>> = [];
    for (const [person, count] of [
      [ALEX, ALEX_REQUESTS],
      ...OTHERS.map((other) => [other, EACH_OTHER] as const),
    ] as const) {
      const form = bot.cardOfAnswer(await bot.execute(person, 'pickTemplate', { templateId: 'project' }));
      const submit = actionData(form, 'submitRequest')!;
      for (let i = 1; i <= count; i++) {
        const name = `Load ${person.aadObjectId.slice(-2)}-${i}`;
        submissions.push(async () => {
          const answer = await bot!.execute(person, 'submitRequest', {
            ...submit,
            formId: randomUUID(),
            name,
          });
          // The confirmation of the request made (its progress card follows, counted below).
          expect(cardText(bot!.cardOfAnswer(answer))).toContain(`PRJ-${name}`);
        });
      }
    }
    await inParallel(submissions, 6);
    const locations = await db
      .selectFrom('bot_state')
      .select(['key', 'value'])
      .where('key', 'like', 'progress/%')
      .execute();
    const cards = new Map(
      locations.map((row) => [
        row.key.slice('progress/'.length),
        (JSON.parse(row.value) as { activityId: string }).activityId,
      ]),
    );
    expect(cards.size).toBe(TOTAL);
    const requesters = new Map(
      (
        await db
          .selectFrom('jobs')
          .select(['id', 'requester_id'])
          .where('type', '=', 'ProvisioningRequest')
          .execute()
      ).map((row) => [row.id, row.requester_id]),
    );
    expect([...requesters.values()].filter((id) => id === ALEX.aadObjectId)).toHaveLength(ALEX_REQUESTS);
    // The requests were made in earlier minutes: what they spent is not this minute's.
    await db.deleteFrom('rate_limits').execute();
    await bot.close();

    // Steward again, at the contract's rate limits and the bot's default polling: it follows the
    // open requests again, and the queue runs them.
    const log: Array<Record<string, unknown>> = [];
    const mark = connector.sent.length;
    bot = await startBotHarness(
      kind,
      {
        ...quiet,
        STEWARD_RATE_LIMIT_FACTOR: '1',
        STEWARD_BOT_POLL_MS: '5000',
        STEWARD_BOT_POLL_MAX_MS: '30000',
        STEWARD_WORKER_CONCURRENCY: '4',
      },
      {},
      parts,
      log,
    );
    const started = Date.now();
    const store = bot.steward.steward.store.db;
    await writeQueuePaused(store, false);

    const ready = new Map<string, number>();
    const byActivity = new Map([...cards].map(([jobId, activityId]) => [activityId, jobId]));
    let scanned = mark;
    const scan = () => {
      for (; scanned < connector.sent.length; scanned++) {
        const sent: Sent = connector.sent[scanned]!;
        const jobId = byActivity.get(sent.activityId);
        if (sent.kind !== 'update' || !jobId || ready.has(jobId)) continue;
        if (/Your team is ready/.test(cardText(cardOf(sent.body))))
          ready.set(jobId, connector.arrivedAt.get(sent)!);
      }
      return ready.size === TOTAL;
    };
    await connector.waitFor(scan, 600_000);
    const finished = Date.now() - started;

    const jobs = await store
      .selectFrom('jobs')
      .select(['id', 'status', 'completed_at'])
      .where('type', '=', 'ProvisioningRequest')
      .execute();
    expect(jobs.filter((job) => job.status !== 'completed')).toEqual([]);
    const lags = jobs.map((job) => ready.get(job.id)! - Date.parse(job.completed_at!)).sort((a, b) => a - b);
    const at = (share: number) => lags[Math.min(lags.length - 1, Math.floor(share * lags.length))]!;

    const requests = log.filter((line) => line.msg === 'request');
    const reads = requests.filter((line) => line.operation === 'getJobs');
    // A limit counts calls as they arrive: a line is logged when its answer went, `ms` later.
    const arrived = (line: Record<string, unknown>) => Number(line.time) - Number(line.ms);
    const forAlex = reads.filter((line) => line.onBehalfOf === ALEX.aadObjectId).map(arrived);
    const ownReads = reads.filter((line) => !line.onBehalfOf).map(arrived);
    const readsForPeople = reads.filter((line) => line.onBehalfOf).length;
    process.stdout.write(
      `${kind}: ${TOTAL} requests ran in ${(finished / 1000).toFixed(1)} s; a card trailed its job by ` +
        `${at(0.5)} ms (median), ${at(0.95)} ms (95th), ${lags[lags.length - 1]} ms (most); ` +
        `${requests.length} API calls, ${readsForPeople} reads for people (Alex's busiest minute ` +
        `${busiestMinute(forAlex)}), ${ownReads.length} of the bot's own (busiest minute ` +
        `${busiestMinute(ownReads)}), ${requests.filter((line) => line.operation === 'getJob').length} getJob\n`,
    );

    expect(requests.filter((line) => line.status === 429)).toEqual([]);
    expect(log.filter((line) => typeof line.msg === 'string' && STALLS.test(line.msg))).toEqual([]);
    expect(lags[lags.length - 1]).toBeLessThanOrEqual(WITHIN_MS);
    // Far inside the limits: 25 of 60 for Alex's 50 requests, a fifth of the bot's own for polling.
    expect(PERSON_MINUTE).toBeLessThanOrEqual(TIER_3 / 2);
    expect(busiestMinute(forAlex)).toBeLessThanOrEqual(PERSON_MINUTE);
    expect(busiestMinute(ownReads)).toBeLessThanOrEqual(TIER_3 / 5);
  }, 900_000);
});
