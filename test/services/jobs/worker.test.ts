import type { Kysely } from 'kysely';
import type { StoredJob } from '../../../src/domain/jobs';
import { JobWorker } from '../../../src/services/jobs/worker';
import type { RunnableJobType } from '../../../src/services/jobs/registry';
import { CLAIM_GAP_POLLS } from '../../../src/services/jobs/workerSlots';
import type { JobRepository } from '../../../src/store/jobs/jobs';
import type { Database } from '../../../src/store/schema';

const POLL_MS = 1000;
const GAP_MS = CLAIM_GAP_POLLS * POLL_MS;
const quiet = { info() {}, warn() {}, error() {} };

/** A worker on a queue that never has a job: what it sends is its claims, counted. */
function idleWorker() {
  const claims: number[] = [];
  const jobs = {
    claim: async () => {
      claims.push(Date.now());
      return [] as StoredJob[];
    },
  } as unknown as JobRepository;
  const worker = new JobWorker(
    {
      db: {} as Kysely<Database>,
      jobs,
      events: { publish() {} },
      audit: { record: async () => {}, recordAlone: async () => {} },
      types: {} as Record<string, RunnableJobType> as never,
    },
    { owner: 'test', concurrency: 4, leaseMs: 30_000, pollMs: POLL_MS, log: quiet },
  );
  return { worker, claims };
}

/**
 * Each claim is a statement on the shared database. What asks for one (a park's time come, a slot
 * freed, a job queued in the process) within `CLAIM_GAP_POLLS` of the last claim is served by a
 * single claim once that time is over, not by a claim each.
 */
describe('the worker spaces its claims', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  test('wake-ups soon after a claim make one claim, after the gap', async () => {
    const { worker, claims } = idleWorker();
    worker.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(claims).toHaveLength(1);
    const first = claims[0]!;
    // Nine parks' times come, a tenth of the gap apart, each after the claim before it answered.
    for (let i = 0; i < 9; i++) {
      await jest.advanceTimersByTimeAsync(GAP_MS / 10);
      worker.mayBeDue();
      await jest.advanceTimersByTimeAsync(0);
    }
    expect(claims).toHaveLength(1);
    // None of them is lost: the claim comes the gap after the first.
    await jest.advanceTimersByTimeAsync(GAP_MS / 10);
    expect(claims).toHaveLength(2);
    expect(claims[1]! - first).toBe(GAP_MS);
    await worker.stop();
  });

  test('after the gap, or for a job queued in the process, it claims at once', async () => {
    const { worker, claims } = idleWorker();
    worker.start();
    // The first claim, then the first poll's (a poll after the start): the gap since is over.
    await jest.advanceTimersByTimeAsync(POLL_MS + GAP_MS + 10);
    const before = claims.length;
    expect(Date.now() - claims[before - 1]!).toBeGreaterThanOrEqual(GAP_MS);
    worker.mayBeDue();
    await jest.advanceTimersByTimeAsync(0);
    expect(claims).toHaveLength(before + 1);
    // A job queued here is looked for at once, gap or not.
    worker.wake();
    await jest.advanceTimersByTimeAsync(0);
    expect(claims).toHaveLength(before + 2);
    await worker.stop();
  });
});
