import type { LifecyclePreview, LifecycleRenewal, Team, TeamLifecycle } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import {
  DAY,
  dayAfter,
  evaluate,
  lifecycleRecords,
  lifecycleTemplate,
  lifecycleTokens,
  provisionTeam,
  teamEvents,
} from '../../support/lifecycle';
import { suiteOnMovedClock } from '../../support/movedClock';
import { PEOPLE } from '../../support/steward';

const EXPIRING = {
  expiration: { enabled: true, days: 365, renewalNoticeDays: [30, 7], onExpiry: 'archive' as const },
};

/**
 * Lifecycle governance over HTTP with Steward's clock moved (as approval timers are tested): the
 * tenant policy, renewal notices 30 and 7 days before expiry, archive on expiry, renewal, and the
 * preview agreeing with the evaluation that follows it.
 */
describe.each(databaseKinds)('lifecycle on %s', (kind) => {
  const suite = suiteOnMovedClock(kind, { STEWARD_LIFECYCLE_EVALUATION_AT: 'off' }, (app) =>
    lifecycleTemplate(app, 'expiring', EXPIRING),
  );

  const tokens = () => lifecycleTokens(suite.app);
  const preview = async (asOf: string) => {
    const { lynne } = await tokens();
    const res = await suite.app.call<LifecyclePreview>('GET', `/api/v1.0/lifecycle/preview?asOf=${asOf}`, {
      token: lynne,
    });
    expect(res.status).toBe(200);
    return res.body;
  };

  test('the tenant policy: governance managers set it, a policy that cannot work is refused whole', async () => {
    const { alex, lynne } = await tokens();
    const initial = await suite.app.call<{ ownership: Record<string, unknown> }>(
      'GET',
      '/api/v1.0/lifecycle/policy',
      {
        token: lynne,
      },
    );
    expect(initial.status).toBe(200);
    expect(initial.body.ownership).toEqual({
      minimumOwners: 1,
      onOwnerless: 'notifyGovernance',
      askMembersDays: 7,
    });
    const noWait = await suite.app.call<{ error: { details: Array<{ target: string }> } }>(
      'PUT',
      '/api/v1.0/lifecycle/policy',
      { token: lynne, body: { ownership: { onOwnerless: 'askMembers', askMembersDays: 0 } } },
    );
    expect(noWait.status).toBe(400);
    expect(noWait.body.error.details.map((d) => d.target)).toEqual(['body.ownership.askMembersDays']);
    const openapi = await suite.app.call<{
      components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>> }> };
    }>('GET', '/api/v1.0/openapi.json');
    expect(openapi.body.components.schemas.LifecycleOwnership!.properties!.askMembersDays).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 365,
      default: 7,
    });
    const policy = { expiration: { enabled: true, days: 30, renewalNoticeDays: [30, 7, 7] } };
    const refused = await suite.app.call<{ error: { details: Array<{ code: string; target: string }> } }>(
      'PUT',
      '/api/v1.0/lifecycle/policy',
      { token: lynne, body: policy },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((d) => d.code).sort()).toEqual([
      'duplicateNotice',
      'noticeAfterCreation',
    ]);
    expect(
      (await suite.app.call('PUT', '/api/v1.0/lifecycle/policy', { token: alex, body: {} })).status,
    ).toBe(403);
    const saved = await suite.app.call('PUT', '/api/v1.0/lifecycle/policy', {
      token: lynne,
      body: { ownership: { minimumOwners: 1, onOwnerless: 'notifyGovernance' } },
    });
    expect(saved.status).toBe(200);
    const patti = await suite.app.userToken(PEOPLE.patti, ['CATALOG_MANAGER']);
    const template = await suite.app.call<{ error: { details: Array<{ target: string }> } }>(
      'PUT',
      '/api/v1.0/catalog/templates/bad-lifecycle',
      {
        token: patti,
        body: {
          templateConfiguration: {
            name: 'bad',
            lifecycle: { expiration: { days: 10, renewalNoticeDays: [30] } },
          },
        },
      },
    );
    expect(template.status).toBe(400);
    expect(template.body.error.details[0]!.target).toBe(
      'templateConfiguration.lifecycle.expiration.renewalNoticeDays[0]',
    );
  });

  test('notices 30 and 7 days before expiry, once each; on expiry the team is archived; the preview said so first', async () => {
    const teamId = await provisionTeam(suite.app, 'expiring', 'Expiring soon');
    const { alex, isaiah, megan } = await tokens();
    const lifecycle = await suite.app.call<TeamLifecycle>('GET', `/api/v1.0/teams/${teamId}/lifecycle`, {
      token: alex,
    });
    expect(lifecycle.status).toBe(200);
    expect(lifecycle.body).toMatchObject({
      state: 'active',
      expiresOn: dayAfter(365),
      policySource: 'template',
    });
    expect(lifecycle.body.templateId).toBe('expiring');
    expect(
      (await suite.app.call('GET', `/api/v1.0/teams/${teamId}/lifecycle`, { token: isaiah })).status,
    ).toBe(404);

    const ours = (p: LifecyclePreview) => p.value.filter((a) => a.teamId === teamId);
    expect(ours(await preview(dayAfter(0)))).toEqual([]);
    const foreseen = ours(await preview(dayAfter(336)));
    expect(foreseen).toEqual([expect.objectContaining({ action: 'renewalNotice', dueOn: dayAfter(335) })]);

    suite.moveBy(336 * DAY);
    await evaluate(suite.app);
    const notices = () =>
      lifecycleRecords(suite.app, teamId).then((r) => r.filter((x) => x.action === 'renewal_notice'));
    expect((await notices()).map((r) => r.details.dueOn)).toEqual(foreseen.map((a) => a.dueOn));
    const evaluation = await evaluate(suite.app); // the same day again: nothing new
    expect(evaluation.log).toContainEqual(expect.stringContaining('nothing to do'));
    // An evaluation is a job its requester can follow, not one of their requests.
    const lynne = await suite.app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER']);
    const mine = await suite.app.call<{ value: Array<{ type: string }> }>('GET', '/api/v1.0/me/jobs', {
      token: lynne,
    });
    expect(mine.body.value.map((j) => j.type)).not.toContain('LifecycleEvaluation');
    expect(await teamEvents(suite.app, 'team_expiring', teamId)).toHaveLength(1);

    suite.moveBy(359 * DAY);
    const state = await suite.app.call<TeamLifecycle>('GET', `/api/v1.0/teams/${teamId}/lifecycle`, {
      token: alex,
    });
    expect(state.body.state).toBe('expiring');
    await evaluate(suite.app);
    const expiring = await teamEvents(suite.app, 'team_expiring', teamId);
    expect(expiring.map((e) => e.lifecycle?.noticeDays)).toEqual([30, 7]);

    suite.moveBy(366 * DAY);
    const expiry = ours(await preview(dayAfter(366)));
    expect(expiry).toEqual([
      expect.objectContaining({ action: 'expire', outcome: 'archive', dueOn: dayAfter(365) }),
    ]);
    await evaluate(suite.app);
    expect(await teamEvents(suite.app, 'team_expired', teamId)).toHaveLength(1);
    const archive = await suite.app.steward.store.db
      .selectFrom('jobs')
      .select('id')
      .where('team_id', '=', teamId)
      .where('type', '=', 'TeamArchiveRequest')
      .execute();
    expect(archive).toHaveLength(1);
    expect((await waitForJob(suite.app, megan, archive[0]!.id)).status).toBe('completed');
    const team = await suite.app.call<Team>('GET', `/api/v1.0/teams/${teamId}`, { token: megan });
    expect(team.body.isArchived).toBe(true);
    await evaluate(suite.app);
    expect(await teamEvents(suite.app, 'team_expired', teamId)).toHaveLength(1);
  });

  test('renewing moves expiresOn a year from today, and the notices start over', async () => {
    const teamId = await provisionTeam(suite.app, 'expiring', 'Renewed');
    const { alex, isaiah } = await tokens();
    suite.moveBy(340 * DAY);
    expect(
      (await suite.app.call('POST', `/api/v1.0/teams/${teamId}/lifecycle/renew`, { token: isaiah })).status,
    ).toBe(404);
    const renewed = await suite.app.call<LifecycleRenewal>(
      'POST',
      `/api/v1.0/teams/${teamId}/lifecycle/renew`,
      {
        token: alex,
      },
    );
    expect(renewed.status).toBe(200);
    expect(renewed.body).toEqual({
      teamId,
      expiresOn: dayAfter(340 + 365),
      renewals: 1,
      renewedOn: dayAfter(340),
    });
    const after = await suite.app.call<TeamLifecycle>('GET', `/api/v1.0/teams/${teamId}/lifecycle`, {
      token: alex,
    });
    expect(after.body).toMatchObject({
      expiresOn: dayAfter(705),
      renewals: 1,
      state: 'active',
      pendingActions: [],
    });
    expect(await teamEvents(suite.app, 'team_renewed', teamId)).toHaveLength(1);
    await evaluate(suite.app);
    expect(await teamEvents(suite.app, 'team_expiring', teamId)).toHaveLength(0);
    expect((await lifecycleRecords(suite.app, teamId)).map((r) => r.action)).toEqual(['team_renewed']);
  });
});
