import type { Agent } from 'undici';
import {
  type GraphBudgetSettings,
  type GraphBudgetStore,
  PUBLISHED_GRAPH_LIMITS,
} from '../../../src/domain/graphBudget';
import {
  createGraphPlatform,
  GraphBudget,
  GraphBudgetDeferred,
  type GraphPlatform,
} from '../../../src/platform/graph';
import { migrate, openStore, type Store } from '../../../src/store/database';
import { GraphBudgetRepository } from '../../../src/store/graphBudget/graphBudget';
import {
  createTestDatabase,
  databaseKinds,
  storeOptionsOf,
  type TestDatabase,
} from '../../support/databases';
import { FakeGraph } from '../../support/fakeGraph';
import { withBudgetDeadline } from '../../../src/platform/pacing';

/**
 * The tenant-wide Graph budget over a real database: two stores opened on the same database stand
 * for two worker processes (each its own connections), and together they keep to one rate; a 429
 * one of them hears pauses the class for the other.
 */

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function settings(overrides: Partial<GraphBudgetSettings> = {}): GraphBudgetSettings {
  return { limits: { ...PUBLISHED_GRAPH_LIMITS }, headroom: 1, maxWaitMs: 10_000, ...overrides };
}

/** A store that records the wait of every turn it grants. */
function recording(store: GraphBudgetStore, waits: number[]): GraphBudgetStore {
  return {
    reserve: async (buckets, maxWaitMs) => {
      const reservation = await store.reserve(buckets, maxWaitMs);
      if ('waitMs' in reservation) waits.push(reservation.waitMs);
      return reservation;
    },
    penalise: (keys, retryAfterMs) => store.penalise(keys, retryAfterMs),
    sweep: () => store.sweep(),
  };
}

describe.each(databaseKinds)('the Graph budget on %s', (kind) => {
  let db: TestDatabase;
  let other: TestDatabase;
  let first: Store;
  let second: Store;
  let elsewhere: Store;

  beforeAll(async () => {
    [db, other] = await Promise.all([createTestDatabase(kind), createTestDatabase(kind)]);
    first = openStore(storeOptionsOf(db));
    await migrate(first.db);
    second = openStore(storeOptionsOf(db));
    elsewhere = openStore(storeOptionsOf(other));
    await migrate(elsewhere.db);
  });

  afterAll(async () => {
    await Promise.all([first.close(), second.close(), elsewhere.close()]);
    await Promise.all([db.drop(), other.drop()]);
  });

  /**
   * Both "processes" acquire `each` turns of `POST /teams` at once: when the race began, when each
   * call went (sorted), and the wait of every turn the stores granted.
   */
  async function race(stores: [Store, Store], each: number, limits = settings()) {
    const waits: number[] = [];
    const budgets = stores.map(
      (s) => new GraphBudget(recording(new GraphBudgetRepository(s.db), waits), limits, realSleep),
    );
    const sent: number[] = [];
    const began = Date.now();
    await Promise.all(
      budgets.flatMap((budget) =>
        Array.from({ length: each }, async () => {
          await budget.acquire('POST', '/teams');
          sent.push(Date.now());
        }),
      ),
    );
    return { began, sent: sent.sort((x, y) => x - y), waits };
  }

  // A rate is checked on what the budget granted and on bounds the rate itself sets, never on how
  // closely a loaded machine fires its timers: a late timer only sends a call later.
  test('two processes on one database together keep to the class’s rate; on two databases they would not', async () => {
    const limits = settings({ limits: { ...PUBLISHED_GRAPH_LIMITS, createTeamPerSecond: 10 } });
    // On two fresh databases each grants its 12 turns on its own timeline: none waits past 1.1 s,
    // so together they would send at least 20 calls in the first second (a turn reserved later
    // waits less, never more).
    const apart = await race([first, elsewhere], 12, limits);
    expect(apart.waits).toHaveLength(24);
    expect(Math.max(...apart.waits)).toBeLessThanOrEqual(1100);
    expect(apart.waits.filter((wait) => wait < 1000).length).toBeGreaterThanOrEqual(20);

    const shared = await race([first, second], 12, limits);
    // On one database, 24 calls at 10 a second on one timeline: the n-th call goes no sooner than n intervals of
    // 100 ms after the race began (a millisecond of rounding aside), the last one 2.3 s after it.
    const early = shared.sent.filter((at, n) => at - shared.began < n * 100 - 1);
    expect(early).toEqual([]);
    expect(shared.sent.at(-1)! - shared.began).toBeGreaterThanOrEqual(2299);
  });

  test('a 429 one process hears pauses the class for the other; a pause longer than the in-process wait defers the call', async () => {
    const one = new GraphBudget(new GraphBudgetRepository(first.db), settings(), realSleep);
    const waits: number[] = [];
    const recordSleep = async (ms: number) => {
      waits.push(ms);
    };
    const two = new GraphBudget(new GraphBudgetRepository(second.db), settings(), recordSleep);

    await one.throttled('POST', '/teams/t-429/channels', 3000);
    await two.acquire('POST', '/teams/t-other/channels');
    // The class (channels and tabs) is paused for everyone; the 429's own team for its own calls.
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(2500);
    expect(waits[0]).toBeLessThanOrEqual(3000);
    await two.acquire('GET', '/users/someone');
    expect(waits).toHaveLength(1); // directory calls are not Teams calls: no bucket, no wait

    await one.throttled('POST', '/teams', 30_000);
    const deferred = await two.acquire('POST', '/teams').catch((error: unknown) => error);
    expect(deferred).toBeInstanceOf(GraphBudgetDeferred);
    expect((deferred as GraphBudgetDeferred).transient).toBe(true);
    expect((deferred as GraphBudgetDeferred).retryAfterMs).toBeGreaterThan(25_000);
    // Nothing was reserved by the deferred call: the class is free again right after the pause.
    const repository = new GraphBudgetRepository(first.db);
    const after = await repository.reserve([{ key: 'class:createTeam', intervalMs: 100 }], 40_000);
    expect('waitMs' in after && after.waitMs).toBeGreaterThan(25_000);
    expect('waitMs' in after && after.waitMs).toBeLessThanOrEqual(30_000);

    // A call refused by one of its buckets (the team's member additions) hands back the turns it
    // took in the others: the team's next call goes at once.
    await repository.penalise(['members:t-members'], 20_000);
    const members = await two
      .acquire('POST', '/teams/t-members/members/add')
      .catch((error: unknown) => error);
    expect(members).toBeInstanceOf(GraphBudgetDeferred);
    const team = await repository.reserve([{ key: 'team:t-members', intervalMs: 250 }], 0);
    expect(team).toEqual({ waitMs: 0 });
  });

  test('work that sets a deadline is refused a turn further away, and waits for one within it', async () => {
    const waits: number[] = [];
    const budget = new GraphBudget(new GraphBudgetRepository(first.db), settings(), async (ms) => {
      waits.push(ms);
    });
    await budget.throttled('GET', '/teams/t-deadline', 3000);
    // A person's best-effort read (the similar teams of a request) does not wait 3 s for its turn.
    const refused = await withBudgetDeadline(1000, () => budget.acquire('GET', '/teams/t-deadline')).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(GraphBudgetDeferred);
    expect(waits).toEqual([]);
    // Within its deadline it waits; without one, a job's call waits up to the settings' maximum.
    await withBudgetDeadline(5000, () => budget.acquire('GET', '/teams/t-deadline'));
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(2000);
    await budget.throttled('GET', '/teams/t-deadline', 3000);
    await budget.acquire('GET', '/teams/t-deadline');
    expect(waits).toHaveLength(2);
  });

  /** The time (ms) the budget's row `key` on the first store holds: its next turn. */
  async function tat(key: string): Promise<number> {
    const row = await first.db
      .selectFrom('graph_budget')
      .select('tat')
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    return Number(row.tat);
  }

  // The next two tests read the turns the budget granted from its rows, not from how long a call
  // waited: a wait counts from when the statement ran, which a loaded machine delays.
  test('a call waiting on its busiest bucket holds its other buckets from when it really starts', async () => {
    const repository = new GraphBudgetRepository(first.db);
    await repository.penalise(['class:busy'], 1000);
    const paused = await tat('class:busy');
    const call = await repository.reserve(
      [
        { key: 'class:busy', intervalMs: 100 },
        { key: 'channel:quiet', intervalMs: 5000 },
      ],
      10_000,
    );
    expect('waitMs' in call && call.waitMs).toBeGreaterThan(0);
    // The call goes when the pause ends; the channel's next turn is a full interval after that, not
    // after the instant it was reserved.
    expect(await tat('channel:quiet')).toBe(paused + 5000);
    const next = await repository.reserve([{ key: 'channel:quiet', intervalMs: 5000 }], 10_000);
    expect('waitMs' in next && next.waitMs).toBeGreaterThan(4000);
    expect((await tat('channel:quiet')) - 5000).toBe(paused + 5000);
  });

  test('a call waiting for its team’s turn leaves its class’s earlier turns to calls on other teams', async () => {
    const repository = new GraphBudgetRepository(first.db);
    const call = (team: string) =>
      repository.reserve(
        [
          { key: 'class:reader', intervalMs: 40 },
          { key: `team:${team}`, intervalMs: 1000 },
        ],
        10_000,
      );
    const waits = async (team: string) => {
      const answer = await call(team);
      return 'waitMs' in answer ? answer.waitMs : NaN;
    };
    // A reader asks for two calls on one team at once, then one on the next team: the first team's
    // second call waits for the team (a second), the next team's call only for the class.
    expect(await waits('r1')).toBeLessThan(40);
    const opened = (await tat('class:reader')) - 40; // when the first call went
    expect(await waits('r1')).toBeGreaterThan(0);
    expect((await tat('team:r1')) - 1000).toBe(opened + 1000);
    expect(await waits('r2')).toBeLessThan(200);
    // Its own turns stay one interval apart: the class served three calls, so the next goes three
    // intervals after the first or later (when the machine reached it later), not sooner, and not
    // behind the first team's second call.
    await waits('r3');
    const r3 = (await tat('team:r3')) - 1000;
    expect(r3 - opened).toBeGreaterThanOrEqual(120);
    expect(r3 - opened).toBeLessThan(900);
  });

  test('a reservation answered late does not let the next call of its team follow too closely', async () => {
    const repository = new GraphBudgetRepository(first.db);
    // The database answers the first reservation 300 ms late, the second at once.
    const delays = [300, 0];
    const slow = {
      reserve: async (...args: Parameters<GraphBudgetRepository['reserve']>) => {
        const answer = await repository.reserve(...args);
        await realSleep(delays.shift() ?? 0);
        return answer;
      },
      penalise: (keys: readonly string[], ms: number) => repository.penalise(keys, ms),
      sweep: () => repository.sweep(),
    };
    const limits = { ...PUBLISHED_GRAPH_LIMITS, perTeamPerSecond: 1, otherPerSecond: 1000 };
    const budget = new GraphBudget(slow, settings({ limits }), realSleep);
    await budget.acquire('GET', '/teams/t-late');
    const firstSent = Date.now();
    await budget.acquire('GET', '/teams/t-late');
    expect(Date.now() - firstSent).toBeGreaterThanOrEqual(990);
  });

  test('a call reserves in its class, its team, its channel, a team’s channel creations and member additions', () => {
    const budget = new GraphBudget(
      new GraphBudgetRepository(first.db),
      settings({ headroom: 0.5 }),
      realSleep,
    );
    const keys = bucketsOf(budget);
    expect(keys('POST', '/teams')).toEqual(['class:createTeam@200']);
    expect(keys('POST', '/teams/t1/clone')).toEqual(['class:cloneTeam@333', 'team:t1@500']);
    expect(keys('PUT', '/groups/g1/team')).toEqual(['class:cloneTeam@333']);
    expect(keys('POST', '/teams/t1/channels')).toEqual([
      'class:channelOrTab@67',
      'team:t1@500',
      'channelCreations:t1@2000',
    ]);
    expect(keys('POST', '/teams/t1/channels/c1/tabs')).toEqual([
      'class:channelOrTab@67',
      'team:t1@500',
      'channel:t1/c1@2000',
    ]);
    expect(keys('GET', '/teams/t1/channels/c1/tabs')).toEqual([
      'class:other@67',
      'team:t1@500',
      'channel:t1/c1@2000',
    ]);
    expect(keys('POST', '/teams/t1/members/add')).toEqual([
      'class:other@67',
      'team:t1@500',
      'members:t1@30000',
    ]);
    expect(keys('GET', "/teams('t1')/operations('o1')")).toEqual(['class:other@67', 'team:t1@500']);
    expect(keys('PATCH', "/groups(uniqueName='steward-x')")).toEqual([]);
    // A channel's files folder is a Teams call; what goes in it is SharePoint's, paced per drive.
    expect(keys('GET', '/teams/t1/channels/c1/filesFolder')).toEqual([
      'class:other@67',
      'team:t1@500',
      'channel:t1/c1@2000',
    ]);
    expect(keys('POST', '/drives/d1/items/i1:/Contracts:/children')).toEqual([
      'class:files@67',
      'drive:d1@500',
    ]);
    expect(keys('PUT', '/drives/d1/items/i1:/README.txt:/content')).toEqual([
      'class:files@67',
      'drive:d1@500',
    ]);
  });

  test('a request class is spent to its own share, a team, a channel and a drive to the headroom', () => {
    // A class's bucket is shared by every team and holds a second's worth of calls at Graph: the
    // rate bounds a run. One team's, channel's or drive's calls follow each other closely.
    const budget = new GraphBudget(
      new GraphBudgetRepository(first.db),
      settings({ headroom: 0.5, classHeadroom: 1 }),
      realSleep,
    );
    const keys = bucketsOf(budget);
    expect(keys('POST', '/teams')).toEqual(['class:createTeam@100']);
    expect(keys('POST', '/teams/t1/channels/c1/tabs')).toEqual([
      'class:channelOrTab@33',
      'team:t1@500',
      'channel:t1/c1@2000',
    ]);
    expect(keys('POST', '/teams/t1/channels')).toEqual([
      'class:channelOrTab@33',
      'team:t1@500',
      'channelCreations:t1@2000',
    ]);
    expect(keys('POST', '/drives/d1/items/i1:/Contracts:/children')).toEqual([
      'class:files@33',
      'drive:d1@500',
    ]);
  });

  describe('in the adapter, against the Graph simulator', () => {
    let fake: FakeGraph;
    let dispatcher: Agent;
    const platforms: GraphPlatform[] = [];

    beforeAll(async () => {
      fake = await FakeGraph.start({ limits: PUBLISHED_GRAPH_LIMITS, scale: 1 });
      dispatcher = fake.dispatcher();
    });

    afterAll(async () => {
      await Promise.all(platforms.map((p) => p.close()));
      await dispatcher.close();
      await fake.close();
    });

    function platform(store: Store | undefined): GraphPlatform {
      const made = createGraphPlatform(fake.config(), {
        dispatcher,
        retry: { maxAttempts: 1 },
        budgetStore: store && new GraphBudgetRepository(store.db),
      });
      platforms.push(made);
      return made;
    }

    test('two adapters sharing the budget read one team as fast as Graph allows without a 429; unpaced, they are throttled', async () => {
      const teamId = fake.addTeam({ displayName: 'Shared' });
      const [a, b] = [platform(first), platform(second)];
      const started = Date.now();
      await Promise.all([a, b].flatMap((p) => Array.from({ length: 5 }, () => p.teams.getTeam(teamId))));
      expect(fake.throttle?.refusedTotal).toBe(0);
      // Ten reads at 90 % of four a second: the last one at least 2 s after the first.
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000);

      const [c, d] = [platform(undefined), platform(undefined)];
      const unpaced = await Promise.allSettled(
        [c, d].flatMap((p) => Array.from({ length: 5 }, () => p.teams.getTeam(teamId))),
      );
      expect(unpaced.filter((r) => r.status === 'rejected').length).toBeGreaterThan(0);
      expect(fake.throttle?.refusedTotal).toBeGreaterThan(0);
    });

    test('Graph’s 429 to one adapter holds back the other adapter’s next call in the same class', async () => {
      const [x, y] = [fake.addTeam({ displayName: 'X' }), fake.addTeam({ displayName: 'Y' })];
      const [a, b] = [platform(first), platform(second)];
      fake.fail({ method: 'GET', path: new RegExp(`^/teams/${x}$`), times: 1, status: 429, retryAfter: '2' });
      await expect(a.teams.getTeam(x)).rejects.toMatchObject({ status: 429 });
      const refusedAt = fake.requests.filter((r) => r.path === `/v1.0/teams/${x}`).at(-1)!.at;
      await b.teams.getTeam(y);
      const servedAt = fake.requests.filter((r) => r.path === `/v1.0/teams/${y}`).at(-1)!.at;
      expect(servedAt - refusedAt).toBeGreaterThanOrEqual(1900);
    });
  });
});

/** A budget's buckets for a call, each as `key@interval` (ms, rounded). */
function bucketsOf(budget: GraphBudget): (method: string, path: string) => string[] {
  return (method, path) => budget.buckets(method, path).map((b) => `${b.key}@${Math.round(b.intervalMs)}`);
}
