import type { Job } from '../../src/contract';
import { readQueuePaused } from '../../src/store/jobs/queuePause';
import type { DatabaseKind } from './databases';
import {
  NAMED,
  PEOPLE,
  type SuitePerson,
  type SuiteSteward,
  suiteSteward,
  type TestSteward,
} from './steward';

/** What of a job's row and the queue's pause an answer about the job shows: it changes when they do. */
async function jobState(app: TestSteward, jobId: string): Promise<string> {
  const db = app.steward.store.db;
  const [row, paused] = await Promise.all([
    db
      .selectFrom('jobs')
      .select(['status', 'updated_at', 'attempts'])
      .where('id', '=', jobId)
      .executeTakeFirst(),
    readQueuePaused(db),
  ]);
  return JSON.stringify([row, paused]);
}

/** How often a wait asks the API even when the store shows no change (another process's clock). */
const ASK_AT_LEAST_EVERY_MS = 500;

/**
 * Waits until the API shows the job in one of `statuses` (default: completed or failed). The job's
 * row is watched every 25 ms in the store, a cheap read; the API is asked when it changes (and at
 * least every half second), not at every look: a suite waiting on many jobs at once polled the
 * API 40 times a second per job, over HTTP, tokens and the contract's checks, and took the CPU
 * from the worker it waited for.
 */
export async function waitForJob(
  app: TestSteward,
  token: string,
  jobId: string,
  statuses: readonly string[] = ['completed', 'failed'],
  timeoutMs = 15_000,
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  let seen: string | undefined;
  let asked = 0;
  for (;;) {
    const state = await jobState(app, jobId);
    if (state !== seen || Date.now() - asked >= ASK_AT_LEAST_EVERY_MS) {
      seen = state;
      asked = Date.now();
      const res = await app.call<Job>('GET', `/api/v1.0/jobs/${jobId}`, { token });
      if (res.status !== 200) throw new Error(`GET job ${jobId}: ${res.status} ${res.text}`);
      if (statuses.includes(res.body.status)) return res.body;
      if (Date.now() > deadline)
        throw new Error(`job ${jobId} still ${res.body.status}: ${res.body.log.join(' | ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The types of the events in the outbox, oldest first, optionally for one provisioning job. */
export async function outboxTypes(app: TestSteward, jobId?: string): Promise<string[]> {
  const rows = await app.steward.store.db.selectFrom('outbox_events').selectAll().orderBy('seq').execute();
  return rows
    .filter(
      (r) =>
        !jobId || (JSON.parse(r.payload) as { provisioning?: { id: string } }).provisioning?.id === jobId,
    )
    .map((r) => r.type);
}

/** `token`'s caller requests a team `name` of `templateId`: the provisioning job, answered 201. */
export async function requestProvisioning(
  app: TestSteward,
  token: string,
  templateId: string,
  name: string,
): Promise<Job> {
  const res = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
    token,
    body: { template: { id: templateId }, team: { name } },
  });
  expect(res.status).toBe(201);
  return res.body;
}

/**
 * `suiteSteward` whose worker looks for jobs every 50 ms, with Alex and Adele named in their tokens
 * (`NAMED`) and `people` besides (or in their place): the suites that request teams and wait on
 * their jobs.
 */
export function suiteJobSteward<P extends string = never>(
  kind: DatabaseKind,
  people?: Record<P, SuitePerson>,
): SuiteSteward<'adele' | P> {
  return suiteSteward<'alex' | 'adele' | P>(kind, {
    env: { STEWARD_JOB_POLL_MS: '50' },
    people: { alex: NAMED.alex, adele: NAMED.adele, ...people } as Record<'alex' | 'adele' | P, SuitePerson>,
  });
}

/**
 * `token`'s caller requests a project team of each of `names`, Isaiah a member of each, one after
 * another: the jobs' ids, each request answered 201.
 */
export async function requestTeamsWithIsaiah(
  app: TestSteward,
  token: string,
  names: string[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    const res = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token,
      body: { template: { id: 'project' }, team: { name, membership: { members: [{ id: PEOPLE.isaiah }] } } },
    });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

/** Waits for each of the jobs `ids` in turn and checks that it completed: the jobs, in that order. */
export async function expectCompleted(app: TestSteward, token: string, ids: string[]): Promise<Job[]> {
  const jobs: Job[] = [];
  for (const id of ids) {
    const job = await waitForJob(app, token, id);
    expect({ id, status: job.status, failedReason: job.failedReason }).toEqual({
      id,
      status: 'completed',
      failedReason: null,
    });
    jobs.push(job);
  }
  return jobs;
}
