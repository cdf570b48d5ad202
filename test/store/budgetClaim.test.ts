import { randomUUID } from 'node:crypto';
import { requestClassKey } from '../../src/domain/graphBudget';
import { migrate, openStore, type Store } from '../../src/store/database';
import { GraphBudgetRepository } from '../../src/store/graphBudget';
import { JobRepository } from '../../src/store/jobs';
import { createTestDatabase, databaseKinds, storeOptionsOf, type TestDatabase } from '../support/databases';

/** A minute between two turns: nothing in the test takes long enough to reach the next one. */
const INTERVAL_MS = 60_000;
/** How far ahead a claim looks for free turns: one and a half intervals. */
const HORIZON_MS = 90_000;

/**
 * Workers claim only work the Graph budget can serve: a job that names the bucket its next call
 * waits for is handed out only while that bucket has a turn free within the claim's horizon, and
 * no more of them than it has such turns. The budget is spent from one store and the claims come
 * from another, as two worker processes on one database would.
 */
describe.each(databaseKinds)('claiming what the Graph budget can serve (%s)', (kind) => {
  let db: TestDatabase;
  let stores: Store[];

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    stores = [openStore(storeOptionsOf(db)), openStore(storeOptionsOf(db))];
    await migrate(stores[0]!.db);
  });

  afterAll(async () => {
    for (const store of stores) await store.close();
    await db.drop();
  });

  const queue = async (jobs: JobRepository, budgetKey: string | undefined, count: number, now: number) => {
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
        new Date(now - 1000 + n),
      );
      ids.push(job.id);
    }
    return ids;
  };

  test('a spent bucket keeps its jobs queued; a bucket with one turn soon hands out one job', async () => {
    const budget = new GraphBudgetRepository(stores[0]!.db);
    const queuer = new JobRepository(stores[0]!.db);
    const claimer = new JobRepository(stores[1]!.db);
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
    const waitingForSpent = await queue(queuer, spent, 3, now);
    const waitingForOneTurn = await queue(queuer, oneTurn, 3, now);
    const free = await queue(queuer, undefined, 2, now);
    // A bucket nobody has drawn on yet holds nothing back.
    const untouched = await queue(queuer, requestClassKey('channelOrTab'), 2, now);

    const first = await claimer.claim('second', 20, 60_000, now, undefined, HORIZON_MS);
    const ids = first.map((job) => job.id).sort();
    expect(ids).toEqual([...free, ...untouched, waitingForOneTurn[0]!].sort());
    expect(ids).not.toEqual(expect.arrayContaining([waitingForSpent[0]]));
    // Claiming again hands out nothing more: the rest wait for their buckets' turns.
    expect(await claimer.claim('second', 20, 60_000, now, undefined, HORIZON_MS)).toEqual([]);
    const queued = await queuer.countByStatus();
    expect(queued).toEqual({ active: 5, waiting: 5 });

    // A horizon past every turn taken serves them all, oldest first per bucket.
    const later = await claimer.claim('second', 20, 60_000, now, undefined, 10 * INTERVAL_MS);
    expect(later.map((job) => job.id).sort()).toEqual(
      [...waitingForSpent, ...waitingForOneTurn.slice(1)].sort(),
    );
  });
});
