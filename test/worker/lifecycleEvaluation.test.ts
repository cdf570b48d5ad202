import type { TeamLifecycle } from '../../src/domain/wire';
import { scheduledEvaluationId } from '../../src/services/lifecycle/evaluations';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases';
import {
  evaluate,
  lifecycleRecords,
  lifecycleTemplate,
  provisionTeam,
  teamEvents,
} from '../support/lifecycle';
import { PEOPLE, startTestSteward, type TestSteward } from '../support/steward';

/**
 * The evaluator's repairs and its schedule: ownerless teams reported once per episode, permanent
 * owners given back by a job, and the daily run taken by exactly one of two workers.
 */
describe.each(databaseKinds)('lifecycle evaluations on %s', (kind) => {
  let db: TestDatabase;
  let offset = 0;
  const clock = () => Date.now() + offset;
  const started: TestSteward[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const app = await startTestSteward(db, { STEWARD_JOB_POLL_MS: '25', ...env }, { clock });
    started.push(app);
    return app;
  };

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((app) => app.close()));
    offset = 0;
  });
  afterAll(async () => {
    await db.drop();
  });

  const owners = (app: TestSteward, teamId: string) =>
    app.steward.store.db
      .selectFrom('platform_members')
      .select('user_id')
      .where('team_id', '=', teamId)
      .where('role', '=', 'owner')
      .execute()
      .then((rows) => rows.map((r) => r.user_id).sort());

  test('a team whose owners were all removed is reported ownerless once, and its permanent owner comes back', async () => {
    const app = await start({ STEWARD_LIFECYCLE_EVALUATION_AT: 'off' });
    await lifecycleTemplate(
      app,
      'kept',
      { ownership: { minimumOwners: 1, onOwnerless: 'askMembers' } },
      { permanentMembership: { owners: [{ id: 'isaiah@example.com' }], members: [] } },
    );
    const teamId = await provisionTeam(app, 'kept', 'Kept');
    expect(await owners(app, teamId)).toEqual([PEOPLE.alex, PEOPLE.isaiah].sort());
    // Someone removes every owner in Teams itself (outside Steward).
    await app.steward.store.db
      .deleteFrom('platform_members')
      .where('team_id', '=', teamId)
      .where('role', '=', 'owner')
      .execute();
    const megan = await app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    const before = await app.call<TeamLifecycle>('GET', `/api/v1.0/teams/${teamId}/lifecycle`, {
      token: megan,
    });
    expect(before.body.state).toBe('ownerless');
    expect(before.body.pendingActions.map((a) => a.action).sort()).toEqual(['ownerless', 'restoreOwners']);

    await evaluate(app);
    const ownerless = await teamEvents(app, 'team_ownerless', teamId);
    expect(ownerless).toEqual([
      expect.objectContaining({
        lifecycle: expect.objectContaining({ outcome: 'askMembers', ownerCount: 0 }),
      }),
    ]);
    const restore = await app.steward.store.db
      .selectFrom('jobs')
      .select('id')
      .where('team_id', '=', teamId)
      .where('type', '=', 'LifecycleChange')
      .execute();
    expect(restore).toHaveLength(1);
    // The restore job is Steward's own (not a wire job): it is followed through the store.
    expect(await settled(app, restore[0]!.id)).toBe('completed');
    expect(await owners(app, teamId)).toEqual([PEOPLE.isaiah]);
    expect((await lifecycleRecords(app, teamId)).map((r) => r.action)).toEqual([
      'team_ownerless',
      'permanent_owners_restore',
    ]);

    await evaluate(app);
    expect(await teamEvents(app, 'team_ownerless', teamId)).toHaveLength(1);
    const lynne = await app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER']);
    const after = await app.call<TeamLifecycle>('GET', `/api/v1.0/teams/${teamId}/lifecycle`, {
      token: lynne,
    });
    expect(after.body).toMatchObject({ state: 'active', ownerCount: 1, pendingActions: [] });
  });

  test('two workers: the daily run is queued once and evaluated once', async () => {
    const env = { STEWARD_LIFECYCLE_EVALUATION_AT: '03:00' };
    const first = await start(env);
    const second = await start(env);
    const lynne = await first.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER']);
    // Every team falls short of three owners: each must be reported exactly once.
    const policy = await first.call('PUT', '/api/v1.0/lifecycle/policy', {
      token: lynne,
      body: { ownership: { minimumOwners: 3 } },
    });
    expect(policy.status).toBe(200);
    const scheduled = await first.steward.store.db
      .selectFrom('jobs')
      .select(['id', 'run_at'])
      .where('type', '=', 'LifecycleEvaluation')
      .where('status', '=', 'waiting')
      .execute();
    expect(scheduled).toHaveLength(1);
    const { id, run_at: runAt } = scheduled[0]!;
    const day = new Date(Number(runAt)).toISOString().slice(0, 10);
    expect(id).toBe(scheduledEvaluationId(day));
    expect(new Date(Number(runAt)).toISOString().slice(11, 16)).toBe('03:00');

    offset = Number(runAt) - Date.now() + 1000;
    expect(await settled(first, id)).toBe('completed');
    const teams = await first.steward.store.db.selectFrom('platform_teams').select('id').execute();
    expect(teams.length).toBeGreaterThan(0);
    for (const team of teams) expect(await teamEvents(second, 'team_ownerless', team.id)).toHaveLength(1);
    const starts = await first.steward.store.db
      .selectFrom('audit_records')
      .select('target')
      .where('trail', '=', 'lifecycle')
      .where('action', '=', 'job_started')
      .execute();
    expect(starts.filter((s) => (JSON.parse(s.target) as { id: string }).id === id)).toHaveLength(1);
    const next = await first.steward.store.db
      .selectFrom('jobs')
      .select('id')
      .where('type', '=', 'LifecycleEvaluation')
      .where('status', '=', 'waiting')
      .execute();
    expect(next.map((j) => j.id)).toEqual([scheduledEvaluationId(nextDay(day))]);
  });
});

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** Reads a job's stored status until it completes or fails (10 s at most). */
async function settled(app: TestSteward, jobId: string): Promise<string | undefined> {
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
