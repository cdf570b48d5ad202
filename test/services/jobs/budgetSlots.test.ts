import { type BudgetedSteward, startBudgetedSteward } from '../../support/budgetedSteward';
import { databaseKinds } from '../../support/databases';
import { requestTeamsWithIsaiah, waitForJob } from '../../support/jobs';
import { PEOPLE } from '../../support/steward';

/** A team's channels, tabs, members and apps: the calls after its creation, paced per team. */
const TEAM_WORK = /^\/v1\.0\/teams\/([^/]+)\/(channels|members|installedApps)/;

/**
 * A job waiting for its turn in the Graph budget does not hold its worker's slot. One slot, two
 * provisionings, and a team budget of one call a second: each team's work after its creation is a
 * dozen calls a second apart. A job holding the slot through those waits would let the other
 * team's work start only after its own ended; with the slot lent out while it waits, both teams'
 * work runs side by side.
 */
describe.each(databaseKinds)('a job waiting for a Graph budget turn frees its slot (%s)', (kind) => {
  let steward: BudgetedSteward;

  beforeAll(async () => {
    steward = await startBudgetedSteward(kind, {
      limits: { perTeamPerSecond: 1 },
      maxWaitMs: 5000,
      concurrency: 1,
    });
  });

  afterAll(async () => {
    await steward?.close();
  });

  test("two teams' paced work runs side by side on one slot, no attempt spent", async () => {
    const { app, fake } = steward;
    const alex = await app.userToken(PEOPLE.alex);
    const ids = await requestTeamsWithIsaiah(app, alex, ['Slot A', 'Slot B']);
    const jobs = [];
    for (const id of ids) jobs.push(await waitForJob(app, alex, id, ['completed', 'failed'], 60_000));
    expect(jobs.map((j) => [j.status, j.failedReason])).toEqual([
      ['completed', null],
      ['completed', null],
    ]);
    expect(jobs.flatMap((j) => j.log.filter((line) => line.startsWith('Attempt ')))).toEqual([]);

    // When each team's work after its creation ran: from its first call to its last.
    const spans = new Map<string, { first: number; last: number; calls: number }>();
    for (const request of fake.graphRequests()) {
      const team = TEAM_WORK.exec(request.path)?.[1];
      if (!team) continue;
      const span = spans.get(team) ?? { first: request.at, last: request.at, calls: 0 };
      spans.set(team, { first: span.first, last: request.at, calls: span.calls + 1 });
    }
    const [a, b] = [...spans.values()];
    expect(spans.size).toBe(2);
    // Each team's work is paced: several calls, their turns a second apart. A call goes out at its
    // turn or later, and a loaded machine may hold the first longer than the last (once by 194 ms),
    // so the calls span all their turns but one at least; unpaced, they would come moments apart.
    for (const span of [a!, b!]) {
      expect(span.calls).toBeGreaterThanOrEqual(5);
      expect(span.last - span.first).toBeGreaterThanOrEqual((span.calls - 2) * 1000);
    }
    // And the two overlap: one job's waits let the other work.
    expect(Math.max(a!.first, b!.first)).toBeLessThan(Math.min(a!.last, b!.last));
  }, 90_000);
});
