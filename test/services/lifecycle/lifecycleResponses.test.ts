import type {
  GovernanceManagers,
  GuestReview,
  LifecyclePreview,
  OwnershipStepUp,
  TeamMember,
} from '../../../src/contract';
import { STEWARD_BOT_APP_ID } from '../../../src/store/seed/directory';
import { databaseKinds } from '../../support/databases';
import { GUESTS, inviteGuests, jobEnded } from '../../support/guests';
import {
  DAY,
  dayAfter,
  evaluate,
  lifecycleRecords,
  lifecycleTemplate,
  provisionTeam,
  teamEvents,
} from '../../support/lifecycle';
import { suiteOnMovedClock } from '../../support/movedClock';
import { PEOPLE } from '../../support/steward';

/**
 * What people answer to the lifecycle's cards, over HTTP with Steward's clock moved: a member steps
 * up as owner of a team short of owners (once per episode), an owner's guest review removes a
 * guest from the platform and moves the next review; and who may do each.
 */
describe.each(databaseKinds)('lifecycle responses on %s', (kind) => {
  const suite = suiteOnMovedClock(kind, { STEWARD_LIFECYCLE_EVALUATION_AT: 'off' }, async (app) => {
    await lifecycleTemplate(app, 'two-owners', {
      ownership: { minimumOwners: 2, onOwnerless: 'askMembers' },
      guestReview: { enabled: true, everyDays: 90 },
    });
  });

  const token = (id: string, name: string) => suite.app.userToken(id, [], { name });
  /** A team of the template with Alex as its one owner and Isaiah and Adele as members. */
  const teamWithMembers = async (name: string) => {
    const teamId = await provisionTeam(suite.app, 'two-owners', name);
    const alex = await token(PEOPLE.alex, 'Alex Wilber');
    for (const id of [PEOPLE.isaiah, PEOPLE.adele]) {
      const added = await suite.app.call('POST', `/api/v1.0/teams/${teamId}/members`, {
        token: alex,
        body: { user: { id }, role: 'member' },
      });
      expect(added.status).toBe(201);
    }
    return teamId;
  };
  const members = async (teamId: string) =>
    (
      await suite.app.call<TeamMember[]>('GET', `/api/v1.0/teams/${teamId}/members`, {
        token: await token(PEOPLE.alex, 'Alex Wilber'),
      })
    ).body;

  test('the first member to step up becomes an owner; a second gets a 409 naming who did, not a second owner', async () => {
    const teamId = await teamWithMembers('Short of owners');
    await evaluate(suite.app);
    const [ownerless] = await teamEvents(suite.app, 'team_ownerless', teamId);
    expect(ownerless?.lifecycle).toMatchObject({ outcome: 'askMembers', ownerCount: 1 });

    const stepUp = async (id: string, name: string) =>
      suite.app.call<OwnershipStepUp & { error: { message: string } }>(
        'POST',
        `/api/v1.0/teams/${teamId}/lifecycle/ownership`,
        { token: await token(id, name) },
      );
    // Someone outside the team is not told it exists; its owner has nothing to step up to.
    expect((await stepUp(PEOPLE.patti, 'Patti Fernandez')).status).toBe(404);
    const owner = await stepUp(PEOPLE.alex, 'Alex Wilber');
    expect(owner.status).toBe(409);
    expect(owner.body.error.message).toMatch(/already an owner/);

    const isaiah = await stepUp(PEOPLE.isaiah, 'Isaiah Langer');
    expect(isaiah.status).toBe(202);
    expect(isaiah.body).toMatchObject({
      teamId,
      displayName: 'Short of owners',
      owner: { id: PEOPLE.isaiah, displayName: 'Isaiah Langer' },
      ownerlessSince: dayAfter(0),
    });
    expect(isaiah.headers.location).toMatch(new RegExp(`/api/v1.0/jobs/${isaiah.body.jobId}$`));
    // Adele accepts before the job ran, and again after: Isaiah stepped up, she does not become owner.
    const early = await stepUp(PEOPLE.adele, 'Adele Vance');
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe('Isaiah Langer already stepped up as owner of "Short of owners".');
    expect(await jobEnded(suite.app, isaiah.body.jobId)).toBe('completed');
    expect((await stepUp(PEOPLE.adele, 'Adele Vance')).body.error.message).toMatch(/^Isaiah Langer already/);

    const roles = new Map((await members(teamId)).map((m) => [m.userId, m.roles]));
    expect(roles.get(PEOPLE.isaiah)).toEqual(['owner']);
    expect(roles.get(PEOPLE.adele)).toEqual([]);
    const trail = await lifecycleRecords(suite.app, teamId);
    expect(trail.filter((r) => r.action === 'owner_step_up')).toEqual([
      { action: 'owner_step_up', details: { ownerlessSince: dayAfter(0), jobId: isaiah.body.jobId } },
    ]);
    // With two owners the team is no longer short of them: the next day's evaluation closes the
    // episode, and a late click is told the team has its owners.
    suite.moveBy(DAY);
    await evaluate(suite.app);
    expect(await teamEvents(suite.app, 'team_ownerless', teamId)).toHaveLength(1);
    expect((await stepUp(PEOPLE.adele, 'Adele Vance')).body.error.message).toMatch(
      /already has the 2 owner\(s\) its policy asks for/,
    );
  });

  test('two members accepting at the same moment: one becomes owner, the other is told who', async () => {
    const teamId = await teamWithMembers('Both at once');
    const people = [
      { id: PEOPLE.isaiah, name: 'Isaiah Langer' },
      { id: PEOPLE.adele, name: 'Adele Vance' },
    ];
    const answers = await Promise.all(
      people.map(async ({ id, name }) =>
        suite.app.call<OwnershipStepUp & { error: { message: string } }>(
          'POST',
          `/api/v1.0/teams/${teamId}/lifecycle/ownership`,
          { token: await token(id, name) },
        ),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    const winner = answers.find((a) => a.status === 202)!.body;
    const loser = answers.find((a) => a.status === 409)!.body;
    expect(loser.error.message).toBe(
      `${winner.owner.displayName} already stepped up as owner of "Both at once".`,
    );
    expect(await jobEnded(suite.app, winner.jobId)).toBe('completed');
    const owners = (await members(teamId)).filter((m) => m.roles.includes('owner')).map((m) => m.userId);
    expect(owners.sort()).toEqual([PEOPLE.alex, winner.owner.id].sort());
  });

  test('a guest cannot step up as owner', async () => {
    const teamId = await teamWithMembers('Guests cannot own');
    await inviteGuests(suite.app, teamId, [GUESTS.zoe.id]);
    const res = await suite.app.call('POST', `/api/v1.0/teams/${teamId}/lifecycle/ownership`, {
      token: await token(GUESTS.zoe.id, GUESTS.zoe.displayName),
    });
    expect(res.status).toBe(403);
  });

  test('a guest review removes the guest from the platform, keeps the other, and the next review moves', async () => {
    const teamId = await teamWithMembers('Reviewed guests');
    await inviteGuests(suite.app, teamId, [GUESTS.zoe.id, GUESTS.jurgen.id]);
    const review = async (who: string, name: string, remove: string[]) =>
      suite.app.call<GuestReview & { error: { details: Array<{ code: string; target: string }> } }>(
        'POST',
        `/api/v1.0/teams/${teamId}/lifecycle/guestReview`,
        { token: await token(who, name), body: { remove } },
      );
    const reviewsOf = async (asOf: string) => {
      const res = await suite.app.call<LifecyclePreview>('GET', `/api/v1.0/lifecycle/preview?asOf=${asOf}`, {
        token: await suite.app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER']),
      });
      return res.body.value.filter((a) => a.teamId === teamId && a.action === 'guestReview');
    };
    expect(await reviewsOf(dayAfter(89))).toEqual([]);
    expect(await reviewsOf(dayAfter(90))).toEqual([expect.objectContaining({ dueOn: dayAfter(90) })]);

    suite.moveBy(91 * DAY);
    await evaluate(suite.app);
    expect(await teamEvents(suite.app, 'team_guest_review_due', teamId)).toHaveLength(1);
    // Members who are not owners may not review; someone outside the team is not told it exists.
    expect((await review(PEOPLE.isaiah, 'Isaiah Langer', [GUESTS.zoe.id])).status).toBe(403);
    expect((await review(PEOPLE.patti, 'Patti Fernandez', [GUESTS.zoe.id])).status).toBe(404);
    // Someone who is not a guest is refused whole: nothing recorded, nobody removed.
    const refused = await review(PEOPLE.alex, 'Alex Wilber', [GUESTS.zoe.id, PEOPLE.adele]);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      expect.objectContaining({ code: 'notAGuest', target: 'remove[1]' }),
    ]);
    expect((await lifecycleRecords(suite.app, teamId)).map((r) => r.action)).not.toContain(
      'guest_review_completed',
    );

    const done = await review(PEOPLE.alex, 'Alex Wilber', [GUESTS.zoe.id]);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      teamId,
      reviewedOn: dayAfter(91),
      reviewedBy: { id: PEOPLE.alex, displayName: 'Alex Wilber' },
      nextReviewOn: dayAfter(181),
      removed: [GUESTS.zoe],
      kept: [GUESTS.jurgen],
    });
    expect(await jobEnded(suite.app, done.body.jobId!)).toBe('completed');
    const left = (await members(teamId)).map((m) => m.userId);
    expect(left).not.toContain(GUESTS.zoe.id);
    expect(left).toContain(GUESTS.jurgen.id);
    const trail = await lifecycleRecords(suite.app, teamId);
    expect(trail.find((r) => r.action === 'guest_review_completed')?.details).toEqual({
      kept: [GUESTS.jurgen.id],
      removed: [GUESTS.zoe.id],
      jobId: done.body.jobId,
    });

    // The review is recorded: the next is due 90 days after it, not again tomorrow.
    expect(await reviewsOf(dayAfter(180))).toEqual([]);
    expect(await reviewsOf(dayAfter(181))).toEqual([expect.objectContaining({ dueOn: dayAfter(181) })]);
    await evaluate(suite.app);
    expect(await teamEvents(suite.app, 'team_guest_review_due', teamId)).toHaveLength(1);
  });

  test('governance managers are listed for the bot and for governance, not for everyone', async () => {
    const bot = await suite.app.appToken(STEWARD_BOT_APP_ID, ['INTEGRATION_MANAGER']);
    const listed = await suite.app.call<GovernanceManagers>('GET', '/api/v1.0/lifecycle/governanceManagers', {
      token: bot,
    });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ listed: true, source: 'directory' });
    // The governance manager, and the global admin, who has governance powers too.
    expect(listed.body.value.map((u) => [u.id, u.roles])).toEqual([
      [PEOPLE.lynne, ['GOVERNANCE_MANAGER']],
      [PEOPLE.megan, ['GLOBAL_ADMIN']],
    ]);
    const alex = await token(PEOPLE.alex, 'Alex Wilber');
    expect(
      (await suite.app.call('GET', '/api/v1.0/lifecycle/governanceManagers', { token: alex })).status,
    ).toBe(403);
  });
});
