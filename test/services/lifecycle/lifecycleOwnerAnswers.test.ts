import type { LifecycleActivity, NotRightPersonAnswer, TeamLifecycle } from '../../../src/contract';
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

const INACTIVE_AFTER_30 = { inactivity: { enabled: true, days: 30, onInactive: 'notify' as const } };

/**
 * An owner's answers to a lifecycle notice besides renewing or archiving, over HTTP with Steward's
 * clock moved: "Keep it" (`POST /teams/{id}/lifecycle/activity`) makes the team active for the
 * evaluations that follow, and "I'm not the right person" (`…/notRightPerson`) is recorded; both
 * are the owners' and the admins', and both are audited.
 */
describe.each(databaseKinds)('owners answering lifecycle notices on %s', (kind) => {
  const suite = suiteOnMovedClock(kind, { STEWARD_LIFECYCLE_EVALUATION_AT: 'off' }, (app) =>
    lifecycleTemplate(app, 'quiet', INACTIVE_AFTER_30),
  );

  const tokens = () => lifecycleTokens(suite.app);
  const lifecycleOf = async (teamId: string, token: string) =>
    (await suite.app.call<TeamLifecycle>('GET', `/api/v1.0/teams/${teamId}/lifecycle`, { token })).body;

  test('"Keep it" counts as activity today: the next evaluations see the team active, though the activity report does not', async () => {
    const teamId = await provisionTeam(suite.app, 'quiet', 'Quiet corner');
    const { alex, isaiah, megan } = await tokens();
    suite.moveBy(31 * DAY);
    await evaluate(suite.app);
    expect((await teamEvents(suite.app, 'team_inactive', teamId)).map((e) => e.lifecycle?.outcome)).toEqual([
      'notify',
    ]);
    expect((await lifecycleOf(teamId, alex)).state).toBe('inactive');

    // Someone outside the team does not learn it exists; nothing is recorded for them.
    const stranger = await suite.app.call('POST', `/api/v1.0/teams/${teamId}/lifecycle/activity`, {
      token: isaiah,
    });
    expect(stranger.status).toBe(404);

    const kept = await suite.app.call<LifecycleActivity>(
      'POST',
      `/api/v1.0/teams/${teamId}/lifecycle/activity`,
      {
        token: alex,
      },
    );
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual({ teamId, lastActivityDate: dayAfter(31) });
    expect(
      (await lifecycleRecords(suite.app, teamId)).filter((r) => r.action === 'team_kept_active'),
    ).toEqual([{ action: 'team_kept_active', details: { lastActivityDate: dayAfter(31) } }]);

    // The evaluation reads the platform's activity report again (which still says the creation
    // day): the owner's answer stands.
    await evaluate(suite.app);
    const after = await lifecycleOf(teamId, alex);
    expect(after).toMatchObject({ state: 'active', lastActivityDateTime: dayAfter(31) });
    expect(after.pendingActions).toEqual([]);

    // 29 days later still active; 30 days after the answer, the next notice.
    suite.moveBy(60 * DAY);
    await evaluate(suite.app);
    expect(await teamEvents(suite.app, 'team_inactive', teamId)).toHaveLength(1);
    suite.moveBy(61 * DAY);
    await evaluate(suite.app);
    const notices = await teamEvents(suite.app, 'team_inactive', teamId);
    expect(notices.map((e) => e.lifecycle?.lastActivityDate)).toEqual([dayAfter(0), dayAfter(31)]);

    // An admin may answer too; an archived team cannot be kept.
    const archive = await suite.app.call<{ id: string }>('POST', `/api/v1.0/teams/${teamId}/archive`, {
      token: megan,
    });
    expect(archive.status).toBe(202);
    expect((await waitForJob(suite.app, megan, archive.body.id)).status).toBe('completed');
    const refused = await suite.app.call<{ error: { code: string } }>(
      'POST',
      `/api/v1.0/teams/${teamId}/lifecycle/activity`,
      { token: megan },
    );
    expect(refused.status).toBe(409);
    expect(
      (await lifecycleRecords(suite.app, teamId)).filter((r) => r.action === 'team_kept_active'),
    ).toHaveLength(1);
  });

  test('"I\'m not the right person" is recorded for the owner who says it, for either notice', async () => {
    const teamId = await provisionTeam(suite.app, 'quiet', 'Handed over');
    const { alex, isaiah, megan } = await tokens();
    const added = await suite.app.call('POST', `/api/v1.0/teams/${teamId}/members`, {
      token: alex,
      body: { user: { id: PEOPLE.adele }, role: 'owner' },
    });
    expect(added.status).toBe(201);
    const path = `/api/v1.0/teams/${teamId}/lifecycle/notRightPerson`;

    const renewal = await suite.app.call<NotRightPersonAnswer>('POST', path, { token: alex });
    expect(renewal.status).toBe(200);
    expect(renewal.body).toMatchObject({ teamId, notice: 'renewal', otherOwnerCount: 1 });
    expect(Date.parse(renewal.body.recordedDateTime)).not.toBeNaN();
    const inactivity = await suite.app.call<NotRightPersonAnswer>('POST', path, {
      token: alex,
      body: { notice: 'inactivity' },
    });
    expect(inactivity.body.notice).toBe('inactivity');

    // Bad input and people who are not owners change nothing.
    const bad = await suite.app.call<{ error: { details: Array<{ target: string }> } }>('POST', path, {
      token: alex,
      body: { notice: 'everything' },
    });
    expect(bad.status).toBe(400);
    expect(
      (await suite.app.call('POST', path, { token: alex, body: { notice: 'renewal', extra: 1 } })).status,
    ).toBe(400);
    expect((await suite.app.call('POST', path, { token: isaiah })).status).toBe(404);
    expect(
      (
        await suite.app.call('POST', `/api/v1.0/teams/no-such-team/lifecycle/notRightPerson`, {
          token: megan,
        })
      ).status,
    ).toBe(404);

    const records = (await lifecycleRecords(suite.app, teamId)).filter(
      (r) => r.action === 'owner_not_right_person',
    );
    expect(records).toEqual([
      { action: 'owner_not_right_person', details: { notice: 'renewal', otherOwnerCount: 1 } },
      { action: 'owner_not_right_person', details: { notice: 'inactivity', otherOwnerCount: 1 } },
    ]);
    const actor = await suite.app.steward.store.db
      .selectFrom('audit_records')
      .select('actor')
      .where('action', '=', 'owner_not_right_person')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(actor.actor)).toMatchObject({ id: PEOPLE.alex });
  });
});
