import type { LifecyclePreview, TeamLifecycle } from '../../../src/contract';
import { scheduledEvaluationId } from '../../../src/services/lifecycle/evaluations';
import { databaseKinds } from '../../support/databases';
import {
  DAY,
  evaluate,
  lifecycleRecords,
  lifecycleTemplate,
  provisionTeam,
  teamEvents,
} from '../../support/lifecycle';
import { storedJobSettled as settled, stewardOnMovedClock } from '../../support/movedClock';
import { PEOPLE, type TestSteward } from '../../support/steward';

/**
 * The evaluator's repairs and its schedule: ownerless teams reported once per episode, permanent
 * owners given back by a job, and the daily run taken by exactly one of two workers.
 */
describe.each(databaseKinds)('lifecycle evaluations on %s', (kind) => {
  const steward = stewardOnMovedClock(kind);
  const start = (env: Record<string, string> = {}) => steward.start(env);

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

  test('members asked and nobody stepped up: governance managers are told askMembersDays later, once a spell', async () => {
    const app = await start({ STEWARD_LIFECYCLE_EVALUATION_AT: 'off' });
    await lifecycleTemplate(app, 'asking', {
      ownership: { minimumOwners: 1, onOwnerless: 'askMembers', askMembersDays: 3 },
    });
    const teamId = await provisionTeam(app, 'asking', 'Asking');
    const removeOwners = () =>
      app.steward.store.db
        .deleteFrom('platform_members')
        .where('team_id', '=', teamId)
        .where('role', '=', 'owner')
        .execute();
    await removeOwners();
    const outcomes = async () =>
      (await teamEvents(app, 'team_ownerless', teamId)).map((e) => e.lifecycle?.outcome);
    // Days counted from tomorrow at noon (UTC), so no evaluation falls on either side of a midnight.
    const asked = new Date(Date.now() + DAY).toISOString().slice(0, 10);
    const noon = (days: number) => Date.parse(`${asked}T12:00:00Z`) + days * DAY;
    steward.moveTo(noon(0));
    await evaluate(app);
    expect(await outcomes()).toEqual(['askMembers']);

    // Two days on, the members still have a day.
    steward.moveTo(noon(2));
    await evaluate(app);
    expect(await outcomes()).toEqual(['askMembers']);
    // The preview of the third day shows what that day's evaluation does.
    const lynne = await app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER']);
    const dueOn = new Date(noon(3)).toISOString().slice(0, 10);
    const preview = await app.call<LifecyclePreview>('GET', `/api/v1.0/lifecycle/preview?asOf=${dueOn}`, {
      token: lynne,
    });
    expect(preview.body.value.filter((a) => a.teamId === teamId)).toEqual([
      expect.objectContaining({ action: 'ownerless', outcome: 'notifyGovernance', dueOn }),
    ]);

    steward.moveTo(noon(3));
    await evaluate(app);
    expect(await outcomes()).toEqual(['askMembers', 'notifyGovernance']);
    const [, told] = await teamEvents(app, 'team_ownerless', teamId);
    expect(told!.lifecycle).toMatchObject({
      action: 'ownerless',
      outcome: 'notifyGovernance',
      ownerlessSince: asked,
      dueOn,
      ownerCount: 0,
      ownerIds: [],
    });
    expect((await lifecycleRecords(app, teamId)).map((r) => [r.action, r.details.outcome])).toEqual([
      ['team_ownerless', 'askMembers'],
      ['team_ownerless', 'notifyGovernance'],
    ]);

    // Once a spell: later evaluations say nothing more.
    steward.moveTo(noon(13));
    await evaluate(app);
    expect(await outcomes()).toEqual(['askMembers', 'notifyGovernance']);
    const lifecycle = await app.call<TeamLifecycle>('GET', `/api/v1.0/teams/${teamId}/lifecycle`, {
      token: lynne,
    });
    expect(lifecycle.body).toMatchObject({ state: 'ownerless', pendingActions: [] });

    // Someone became an owner, then left: a new spell asks the members again, then tells governance again.
    await app.steward.store.db
      .insertInto('platform_members')
      .values({
        id: `${teamId}-new-owner`,
        team_id: teamId,
        user_id: PEOPLE.isaiah,
        role: 'owner',
        created_at: new Date(steward.clock()).toISOString(),
      })
      .execute();
    steward.moveTo(noon(14));
    await evaluate(app);
    await removeOwners();
    steward.moveTo(noon(15));
    await evaluate(app);
    steward.moveTo(noon(18));
    await evaluate(app);
    expect(await outcomes()).toEqual(['askMembers', 'notifyGovernance', 'askMembers', 'notifyGovernance']);
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

    const alreadyShort = new Set(
      (
        await first.steward.store.db
          .selectFrom('team_lifecycle')
          .select('team_id')
          .where('ownerless_since', 'is not', null)
          .execute()
      ).map((r) => r.team_id),
    );
    steward.moveTo(Number(runAt) + 1000);
    expect(await settled(first, id)).toBe('completed');
    const teams = await first.steward.store.db.selectFrom('platform_teams').select('id').execute();
    expect(teams.length).toBeGreaterThan(0);
    // Each team under the tenant policy reported once by this run, but those already short of owners
    // before it (a spell an earlier test of the suite began was reported then); teams of earlier
    // tests' templates follow their template's policy.
    const megan = await first.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    let tenantTeams = 0;
    for (const team of teams) {
      const reported = (await lifecycleRecords(second, team.id)).filter(
        (r) => r.action === 'team_ownerless' && r.details.evaluation === id,
      );
      const lifecycle = await first.call<TeamLifecycle>('GET', `/api/v1.0/teams/${team.id}/lifecycle`, {
        token: megan,
      });
      const tenant = lifecycle.body.policySource === 'tenant' && !alreadyShort.has(team.id);
      if (tenant) tenantTeams++;
      expect([team.id, reported.length]).toEqual([team.id, tenant ? 1 : 0]);
    }
    expect(tenantTeams).toBeGreaterThan(0);
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
