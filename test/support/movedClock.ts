import type { StewardOverrides } from '../../src/main';
import { createTestDatabase, type TestDatabase } from './databases';
import { startTestSteward, type TestSteward } from './steward';

/** Stewards on one test database whose clock a test moves forward instead of waiting. */
export interface MovedClock {
  /** The database of the suite (set once `beforeAll` ran). */
  readonly db: TestDatabase;
  /** Steward's clock: now, moved forward by what the test set. */
  clock(): number;
  /** Sets how far Steward's clock is ahead of now, in ms (back to 0 after each test). */
  moveBy(ms: number): void;
  /** Moves Steward's clock to `at` (epoch ms) from now on. */
  moveTo(at: number): void;
  /** Starts a Steward (API and worker) on the suite's database and clock; closed after the test. */
  start(env?: Record<string, string>): Promise<TestSteward>;
  /** Stops a Steward this suite started (a restart in the middle of a test). */
  stop(app: TestSteward): Promise<void>;
}

/**
 * "Steward on a moved clock", shared by the suites of timed jobs (approval timers, lifecycle
 * evaluations): call it inside `describe`; it creates the database before the suite, closes every
 * Steward a test started and puts the clock back after each test, and drops the database after the
 * suite. Workers poll every 25 ms (`env` adds to or overrides that), so a job the moved clock made
 * due runs at once.
 */
export function stewardOnMovedClock(
  kind: TestDatabase['kind'],
  env: Record<string, string> = {},
): MovedClock {
  let db: TestDatabase | undefined;
  let offset = 0;
  const started: TestSteward[] = [];
  const clock = () => Date.now() + offset;
  const overrides: StewardOverrides = { clock };

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((app) => app.close()));
    offset = 0;
  });
  afterAll(async () => {
    await db?.drop();
  });

  const database = () => {
    if (!db) throw new Error('the database exists once beforeAll has run: start Stewards in tests');
    return db;
  };
  return {
    get db() {
      return database();
    },
    clock,
    moveBy: (ms) => {
      offset = ms;
    },
    moveTo: (at) => {
      offset = at - Date.now();
    },
    start: async (more = {}) => {
      const app = await startTestSteward(
        database(),
        { STEWARD_JOB_POLL_MS: '25', ...env, ...more },
        overrides,
      );
      started.push(app);
      return app;
    },
    stop: async (app) => {
      started.splice(started.indexOf(app), 1);
      await app.close();
    },
  };
}

/** One Steward that a whole suite shares on one test database, whose clock tests move forward. */
export interface SuiteOnMovedClock {
  /** The suite's Steward (API and worker; set once `beforeAll` ran). */
  readonly app: TestSteward;
  /** Steward's clock: now, moved forward by what the test set. */
  clock(): number;
  /** Sets how far Steward's clock is ahead of now, in ms (back to 0 after each test). */
  moveBy(ms: number): void;
}

/**
 * "One Steward for the suite on a moved clock", shared by the HTTP suites whose tests move time
 * but not the Steward (lifecycle evaluations): call it inside `describe`; before the suite it
 * creates the database, starts Steward (workers polling every 25 ms, `env` adds to or overrides
 * that) and runs `setup` (templates the tests share); after each test it puts the clock back;
 * after the suite it stops Steward and drops the database.
 */
export function suiteOnMovedClock(
  kind: TestDatabase['kind'],
  env: Record<string, string> = {},
  setup: (app: TestSteward) => Promise<void> = async () => undefined,
): SuiteOnMovedClock {
  let db: TestDatabase | undefined;
  let app: TestSteward | undefined;
  let offset = 0;
  const clock = () => Date.now() + offset;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    app = await startTestSteward(db, { STEWARD_JOB_POLL_MS: '25', ...env }, { clock });
    await setup(app);
  });
  afterEach(() => {
    offset = 0;
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  return {
    get app() {
      if (!app) throw new Error('Steward starts in beforeAll: use it in tests');
      return app;
    },
    clock,
    moveBy: (ms) => {
      offset = ms;
    },
  };
}

/** Reads a job's stored status until it completes or fails (10 s at most): for jobs not on the wire. */
export async function storedJobSettled(app: TestSteward, jobId: string): Promise<string | undefined> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const row = await app.steward.store.db
      .selectFrom('jobs')
      .select('status')
      .where('id', '=', jobId)
      .executeTakeFirst();
    if (row?.status === 'completed' || row?.status === 'failed' || Date.now() > deadline) return row?.status;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
