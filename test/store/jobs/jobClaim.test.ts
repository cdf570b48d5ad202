import { randomUUID } from 'node:crypto';
import { requestClassKey } from '../../../src/domain/graphBudget';
import { GraphBudgetRepository } from '../../../src/store/graphBudget/graphBudget';
import { JobRepository } from '../../../src/store/jobs/jobs';
import { type Store } from '../../../src/store/database';
import { databaseKinds, suiteStore, suiteStorePair } from '../../support/databases';

/** A minute between two turns: nothing in the test takes long enough to reach the next one. */
const INTERVAL_MS = 60_000;
/** How far ahead a claim looks for free turns: one and a half intervals. */
const HORIZON_MS = 90_000;

/**
 * The queue's claim, with two stores on one database as two worker processes would have: a parked
 * job is not handed out before its next check, and when it wakes exactly one claimer gets it; and
 * workers claim only work the Graph budget can serve: a job that names the bucket its next call
 * waits for is handed out only while that bucket has a turn free within the claim's horizon, no
 * more of them than it has such turns (the budget spent from one store, the claims from the other).
 */
describe.each(databaseKinds)('claiming parked jobs (%s)', (kind) => {
  const pair = suiteStorePair(kind);

  /** Queues `count` archive requests waiting for `budgetKey`'s bucket, the nth made at `madeAt(n)`: their ids. */
  const queue = async (
    jobs: JobRepository,
    budgetKey: string | undefined,
    count: number,
    madeAt: (n: number) => number,
  ) => {
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const job = await jobs.insert(
        {
          id: randomUUID(),
          type: 'TeamArchiveRequest',
          queued: true,
          data: {},
          log: [],
          requesterId: 'someone',
          budgetKey,
        },
        new Date(madeAt(n)),
      );
      ids.push(job.id);
    }
    return ids;
  };

  test('parked jobs wait for their next check, then each goes to exactly one of two claimers', async () => {
    const [one, two] = pair.each((store) => new JobRepository(store.db));
    const now = Date.now();
    const ids = await queue(one, undefined, 30, () => now);
    const claimed = await one.claim('first', 30, 60_000, now);
    expect(claimed).toHaveLength(30);
    const wakeAt = now + 1000;
    for (const job of claimed) {
      job.checkpoint = {
        ...job.checkpoint,
        pending: { location: `/teams('t')/operations('${job.id}')` },
        waiting: {
          step: 'archive',
          for: 'teamArchive',
          since: new Date(now).toISOString(),
          nextCheckAt: new Date(wakeAt).toISOString(),
        },
      };
      expect(await one.park(job, 'first', wakeAt, new Date(now))).toBe(true);
    }
    expect(await one.countByStatus()).toEqual({ parked: 30 });
    // Nothing is handed out before the next check, not even to the worker that parked them.
    expect(await two.claim('second', 30, 60_000, wakeAt - 1)).toEqual([]);
    expect(await one.claim('first', 30, 60_000, wakeAt - 1)).toEqual([]);

    // At the next check both claim at once, a few at a time, until nothing is left.
    const got = new Map<string, string[]>();
    const claimer = async (store: Store, owner: string) => {
      const repository = new JobRepository(store.db);
      for (;;) {
        // As the worker claims: in a transaction of its own, a few jobs at a time.
        const jobs = await store.db
          .transaction()
          .execute((trx) => repository.claim(owner, 3, 60_000, wakeAt, trx));
        if (jobs.length === 0) return;
        for (const job of jobs) got.set(job.id, [...(got.get(job.id) ?? []), owner]);
      }
    };
    if (kind === 'postgres') {
      await Promise.all([claimer(pair.stores()[0], 'first'), claimer(pair.stores()[1], 'second')]);
    } else {
      // better-sqlite3 is synchronous: two connections of one process waiting on each other's lock
      // would block the event loop that must release it. Processes take turns on SQLite's write lock
      // (`database.test.ts`), which alternating claims stand for here.
      for (let turn = 0; got.size < ids.length && turn < 40; turn++) {
        const store = pair.stores()[turn % 2]!;
        const owner = turn % 2 === 0 ? 'first' : 'second';
        const jobs = await store.db
          .transaction()
          .execute((trx) => new JobRepository(store.db).claim(owner, 3, 60_000, wakeAt, trx));
        for (const job of jobs) got.set(job.id, [...(got.get(job.id) ?? []), owner]);
      }
      await claimer(pair.stores()[0], 'first');
    }
    expect([...got.keys()].sort()).toEqual([...ids].sort());
    expect([...got.values()].filter((owners) => owners.length !== 1)).toEqual([]);
    // A job back from its park keeps what it waits on.
    const back = await one.get(ids[0]!);
    expect(back).toMatchObject({
      status: 'active',
      checkpoint: { pending: { location: expect.any(String) } },
    });
  });

  test('a spent bucket keeps its jobs queued; a bucket with one turn soon hands out one job', async () => {
    const budget = new GraphBudgetRepository(pair.stores()[0].db);
    const queuer = new JobRepository(pair.stores()[0].db);
    const claimer = new JobRepository(pair.stores()[1].db);
    const spent = requestClassKey('createTeam');
    const oneTurn = requestClassKey('cloneTeam');
    // createTeam: two turns taken, the next is two intervals away (past the horizon). cloneTeam:
    // one taken, the next is one interval away (inside the horizon, and the only one there).
    for (let n = 0; n < 2; n++) {
      expect(await budget.reserve([{ key: spent, intervalMs: INTERVAL_MS }], 10 * INTERVAL_MS)).toEqual({
        waitMs: expect.any(Number),
      });
    }
    await budget.reserve([{ key: oneTurn, intervalMs: INTERVAL_MS }], 10 * INTERVAL_MS);

    const now = Date.now();
    // Made in the second before now, in order.
    const recent = (n: number) => now - 1000 + n;
    const waitingForSpent = await queue(queuer, spent, 3, recent);
    const waitingForOneTurn = await queue(queuer, oneTurn, 3, recent);
    const free = await queue(queuer, undefined, 2, recent);
    // A bucket nobody has drawn on yet holds nothing back.
    const untouched = await queue(queuer, requestClassKey('channelOrTab'), 2, recent);

    const first = await claimer.claim('second', 20, 60_000, now, undefined, HORIZON_MS);
    const ids = first.map((job) => job.id).sort();
    expect(ids).toEqual([...free, ...untouched, waitingForOneTurn[0]!].sort());
    expect(ids).not.toEqual(expect.arrayContaining([waitingForSpent[0]]));
    // Claiming again hands out nothing more: the rest wait for their buckets' turns.
    expect(await claimer.claim('second', 20, 60_000, now, undefined, HORIZON_MS)).toEqual([]);
    const statuses = await Promise.all(
      [...waitingForSpent, ...waitingForOneTurn].map(async (id) => (await queuer.get(id))?.status),
    );
    expect(statuses.sort()).toEqual(['active', 'waiting', 'waiting', 'waiting', 'waiting', 'waiting']);

    // A horizon past every turn taken serves them all, oldest first per bucket.
    const later = await claimer.claim('second', 20, 60_000, now, undefined, 10 * INTERVAL_MS);
    expect(later.map((job) => job.id).sort()).toEqual(
      [...waitingForSpent, ...waitingForOneTurn.slice(1)].sort(),
    );
  });
});

/**
 * A claim's look-ahead: the worker takes the parked jobs that come due within it in one statement
 * (and runs each at its time), soonest first; a job due later stays in the queue.
 */
describe.each(databaseKinds)('claiming ahead of time (%s)', (kind) => {
  const suite = suiteStore(kind);

  test('parked jobs due within the look-ahead are taken before their time, soonest first; later ones are not', async () => {
    const jobs = new JobRepository(suite.store().db);
    const now = Date.now();
    for (let n = 0; n < 3; n++) {
      await jobs.insert(
        { id: randomUUID(), type: 'TeamArchiveRequest', queued: true, data: {}, log: [], requesterId: 'x' },
        new Date(now),
      );
    }
    const claimed = await jobs.claim('first', 3, 60_000, now);
    expect(claimed).toHaveLength(3);
    const dueIn = [700, 300, 1500];
    for (const [n, job] of claimed.entries()) {
      expect(await jobs.park(job, 'first', now + dueIn[n]!, new Date(now))).toBe(true);
    }
    const [later, sooner, last] = claimed.map((j) => j.id);

    expect(await jobs.claim('second', 10, 60_000, now, undefined, 1000, 0)).toEqual([]);
    // A claim with room for one takes the soonest; the next takes the other one due within a second.
    const first = await jobs.claim('second', 1, 60_000, now, undefined, 1000, 1000);
    expect(first.map((j) => [j.id, j.runAt])).toEqual([[sooner, now + 300]]);
    const early = await jobs.claim('second', 10, 60_000, now, undefined, 1000, 1000);
    expect(early.map((j) => [j.id, j.runAt])).toEqual([[later, now + 700]]);
    expect([...first, ...early].every((j) => j.status === 'active' && j.leaseOwner === 'second')).toBe(true);
    // The third is left for a claim once it is within reach.
    expect(await jobs.claim('second', 10, 60_000, now + 400, undefined, 1000, 1000)).toEqual([]);
    const then = await jobs.claim('second', 10, 60_000, now + 500, undefined, 1000, 1000);
    expect(then.map((j) => j.id)).toEqual([last]);
  });
});

/**
 * Webhook deliveries first: they carry the news people wait for (a progress card moves on one),
 * so behind a backlog of requests a claim still takes them before anything else due.
 */
describe.each(databaseKinds)('claiming webhook deliveries first (%s)', (kind) => {
  const suite = suiteStore(kind);

  test('a delivery queued after a backlog of requests is the first job a claim takes', async () => {
    const jobs = new JobRepository(suite.store().db);
    const now = Date.now();
    const insert = async (type: 'TeamArchiveRequest' | 'WebhookDelivery', runAt: number) =>
      (
        await jobs.insert(
          { id: randomUUID(), type, queued: true, data: {}, log: [], requesterId: 'x', runAt },
          new Date(now),
        )
      ).id;
    const backlog = [];
    for (let n = 0; n < 5; n++) backlog.push(await insert('TeamArchiveRequest', now - 10_000 + n));
    const delivery = await insert('WebhookDelivery', now);
    const first = await jobs.claim('worker', 1, 60_000, now);
    expect(first.map((job) => job.id)).toEqual([delivery]);
    // The rest, oldest first as before.
    const rest = await jobs.claim('worker', 10, 60_000, now);
    expect(rest.map((job) => job.id)).toEqual(backlog);
  });
});

/**
 * Jobs are taken by when each can work. A job whose next call waits for its bucket's turn a minute
 * from now comes after a job that can work now, however long it has been queued: by queue order
 * alone, a backlog of new requests waiting for `POST /teams` turns took every claim while the jobs
 * that check the teams already asked for came due behind it (bench/RESULTS.md, graph-pace).
 */
describe.each(databaseKinds)('claiming by turn (%s)', (kind) => {
  const suite = suiteStore(kind);

  test('a job that can work now is taken before an older one whose turn is a minute away', async () => {
    const db = suite.store().db;
    const jobs = new JobRepository(db);
    const key = requestClassKey('createTeam');
    // The bucket's next turn is one interval from now: inside the horizon, but not now.
    await new GraphBudgetRepository(db).reserve([{ key, intervalMs: INTERVAL_MS }], 10 * INTERVAL_MS);
    const now = Date.now();
    const insert = (budgetKey: string | undefined, runAt: number) => queueJob(jobs, now, budgetKey, runAt);
    const waitsForTurn = await insert(key, now - 60_000);
    const canWork = await insert(undefined, now - 1000);

    const first = await jobs.claim('worker', 1, 60_000, now, undefined, HORIZON_MS);
    expect(first.map((job) => job.id)).toEqual([canWork]);
    const next = await jobs.claim('worker', 1, 60_000, now, undefined, HORIZON_MS);
    expect(next.map((job) => job.id)).toEqual([waitsForTurn]);
  });
});

/**
 * Jobs under way before jobs not started: a new provisioning upserts its group and parks for
 * Graph's replication, and a backlog of new requests taken first kept the jobs back from that wait
 * from their `POST /teams` turns until every request had been taken up (bench/RESULTS.md,
 * graph-pace).
 */
describe.each(databaseKinds)('claiming the work under way first (%s)', (kind) => {
  const suite = suiteStore(kind);

  test('a job back from a park takes its bucket’s one turn, and a claim’s one place, before older new jobs', async () => {
    const db = suite.store().db;
    const jobs = new JobRepository(db);
    const key = requestClassKey('createTeam');
    const now = Date.now();
    const insert = (budgetKey: string | undefined, runAt: number) => queueJob(jobs, now, budgetKey, runAt);
    // Two jobs started and parked, one for the bucket's turn, one for nothing; queued after them,
    // but earlier than their parks' ends, two requests not taken up yet.
    const started = [await insert(key, now - 60_000), await insert(undefined, now - 60_000)];
    const parked: string[] = [];
    for (const job of await jobs.claim('worker', 2, 60_000, now - 59_000)) {
      expect(await jobs.park(job, 'worker', now - 1000, new Date(now - 59_000), job.budgetKey)).toBe(true);
      parked.push(job.id);
    }
    expect(parked.sort()).toEqual([...started].sort());
    const newInBucket = await insert(key, now - 30_000);
    const newFree = await insert(undefined, now - 30_000);
    // The bucket's next turn is one interval away: one turn within the horizon.
    await new GraphBudgetRepository(db).reserve([{ key, intervalMs: INTERVAL_MS }], 10 * INTERVAL_MS);

    const first = await jobs.claim('worker', 1, 60_000, now, undefined, HORIZON_MS);
    expect(first.map((job) => job.id)).toEqual([started[1]]);
    const next = await jobs.claim('worker', 10, 60_000, now, undefined, HORIZON_MS);
    // The bucket's one turn goes to the job under way; the new job without a bucket comes after it.
    expect(next.map((job) => job.id).sort()).toEqual([started[0], newFree].sort());
    expect(next.map((job) => job.id)).not.toContain(newInBucket);
  });
});

/** Queues a job due at `runAt`, paced by `budgetKey` when given; its id. */
async function queueJob(
  jobs: JobRepository,
  now: number,
  budgetKey: string | undefined,
  runAt: number,
): Promise<string> {
  const job = await jobs.insert(
    {
      id: randomUUID(),
      type: 'TeamArchiveRequest',
      queued: true,
      data: {},
      log: [],
      requesterId: 'x',
      runAt,
      budgetKey,
    },
    new Date(now),
  );
  return job.id;
}
