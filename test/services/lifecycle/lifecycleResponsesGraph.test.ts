import type { GuestReview, OwnershipStepUp } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { botGraphOptions, suiteGraphSteward } from '../../support/graphTenant';
import { GUESTS, jobEnded } from '../../support/guests';
import { PEOPLE } from '../../support/steward';

/**
 * Stepping up and guest reviews with Microsoft Graph (the simulator) as the platform: the jobs
 * change the team's conversationMembers through the Graph adapter, so the new owner has Graph's
 * `owner` role and the removed guest is gone from the team's members.
 */
describe.each(databaseKinds)('lifecycle responses on Microsoft Graph (simulator), %s', (kind) => {
  const suite = suiteGraphSteward(kind, {
    options: botGraphOptions,
    env: { STEWARD_JOB_POLL_MS: '25', STEWARD_LIFECYCLE_EVALUATION_AT: 'off' },
  });

  /** The team's conversationMembers as the simulator holds them: user id → roles. */
  const graphMembers = (teamId: string) =>
    new Map((suite.fake.teams.get(teamId)?.members ?? []).map((m) => [m.userId, m.roles]));

  test('a member steps up and becomes a Graph owner; an owner removes a guest from the Graph team', async () => {
    // A team Steward did not make: the tenant default policy (one owner at least) governs it.
    const teamId = suite.fake.addTeam({
      displayName: 'Graph orphans',
      memberIds: [PEOPLE.isaiah],
      guestIds: [GUESTS.zoe.id, GUESTS.jurgen.id],
    });
    const isaiah = await suite.app.userToken(PEOPLE.isaiah, [], { name: 'Isaiah Langer' });
    const stepUp = await suite.app.call<OwnershipStepUp>(
      'POST',
      `/api/v1.0/teams/${teamId}/lifecycle/ownership`,
      {
        token: isaiah,
      },
    );
    expect(stepUp.status).toBe(202);
    expect(await jobEnded(suite.app, stepUp.body.jobId)).toBe('completed');
    expect(graphMembers(teamId).get(PEOPLE.isaiah)).toEqual(['owner']);

    const review = await suite.app.call<GuestReview>(
      'POST',
      `/api/v1.0/teams/${teamId}/lifecycle/guestReview`,
      {
        token: isaiah,
        body: { remove: [GUESTS.zoe.id] },
      },
    );
    expect(review.status).toBe(200);
    expect(review.body.removed).toEqual([GUESTS.zoe]);
    expect(await jobEnded(suite.app, review.body.jobId!)).toBe('completed');
    const left = graphMembers(teamId);
    expect(left.has(GUESTS.zoe.id)).toBe(false);
    expect(left.get(GUESTS.jurgen.id)).toEqual(['guest']);
  });
});
