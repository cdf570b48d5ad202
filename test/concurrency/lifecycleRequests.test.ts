import type { Job } from '../../src/contract';
import { databaseKinds } from '../support/databases';
import { GUESTS, inviteGuests } from '../support/guests';
import { lifecycleTemplate, provisionTeam } from '../support/lifecycle';
import { PEOPLE, suiteSteward } from '../support/steward';
import { answers, expectOneAfterAnother, type RaceCase, runRace } from './races';

const api = '/api/v1.0';

/**
 * The lifecycle's extensions (what owners and members answer to its cards, evaluations, the
 * policy), the owners' answer on drift, and an approver's approve and reject racing, fired at once
 * on SQLite and PostgreSQL (races.ts).
 */
describe.each(databaseKinds)('identical requests at once on lifecycle answers, on %s', (kind) => {
  const token: Record<string, string> = {};
  const teams: Record<string, string[]> = {};

  const call = (method: string, path: string, who: string, body?: unknown) =>
    suite.app.call(method, `${api}${path}`, { token: token[who], body });

  const suite = suiteSteward(kind, {
    env: { STEWARD_JOB_POLL_MS: '50', STEWARD_LIFECYCLE_EVALUATION_AT: 'off' },
  });
  beforeAll(async () => {
    token.alex = await suite.app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
    token.adele = await suite.app.userToken(PEOPLE.adele, [], { name: 'Adele Vance' });
    token.isaiah = await suite.app.userToken(PEOPLE.isaiah, [], { name: 'Isaiah Langer' });
    token.lynne = await suite.app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER'], { name: 'Lynne Robbins' });
    await lifecycleTemplate(suite.app, 'race-owners', {
      ownership: { minimumOwners: 2, onOwnerless: 'askMembers' },
      guestReview: { enabled: true, everyDays: 90 },
    });
    const [owners, plain] = await Promise.all([
      Promise.all(
        Array.from({ length: 4 }, (_, i) => provisionTeam(suite.app, 'race-owners', `Few owners ${i}`)),
      ),
      Promise.all(Array.from({ length: 6 }, (_, i) => provisionTeam(suite.app, 'project', `Lifecycle ${i}`))),
    ]);
    Object.assign(teams, { owners, plain });
    for (const id of owners.slice(0, 2)) {
      const added = await call('POST', `/teams/${id}/members`, 'alex', { user: { id: PEOPLE.isaiah } });
      if (added.status !== 201) throw new Error(`member: ${added.status} ${added.text}`);
    }
    for (const id of owners.slice(2, 4)) await inviteGuests(suite.app, id, [GUESTS.zoe.id]);
  }, 60_000);

  const team =
    (list: string, offset = 0) =>
    async (k: number) =>
      teams[list]![offset + k]!;

  const cases: RaceCase[] = [
    {
      // One owner per episode: the first member's step-up queues the job, the others are told who.
      name: 'a member stepping up as owner',
      mode: 'once',
      answers: answers(202, 409),
      subject: team('owners', 0),
      request: (id) => call('POST', `/teams/${id}/lifecycle/ownership`, 'isaiah'),
    },
    {
      // The same review again the same day (the same guests removed) is the one recorded: one
      // review, one removal job, and every answer the first one's.
      name: "an owner's guest review",
      mode: 'once',
      answers: answers(200),
      subject: team('owners', 2),
      request: (id) =>
        call('POST', `/teams/${id}/lifecycle/guestReview`, 'alex', { remove: [GUESTS.zoe.id] }),
    },
    {
      // "Keep it": the team is active today; each press is recorded and told, as one after another.
      name: 'an owner keeping a team active',
      mode: 'serial',
      answers: answers(200),
      subject: team('plain', 0),
      request: (id) => call('POST', `/teams/${id}/lifecycle/activity`, 'alex'),
    },
    {
      name: 'an owner who is not the right person',
      mode: 'serial',
      answers: answers(200),
      subject: team('plain', 2),
      request: (id) =>
        call('POST', `/teams/${id}/lifecycle/notRightPerson`, 'alex', { notice: 'inactivity' }),
    },
    {
      // "Add them": one drift job for the team, each owner's answer recorded.
      name: "the owners' answer on drift",
      mode: 'serial',
      answers: answers(200),
      subject: team('plain', 4),
      request: (id) => call('POST', `/teams/${id}/drift/answer`, 'alex', { answer: 'add' }),
    },
    {
      name: "replacing the tenant's lifecycle policy",
      mode: 'serial',
      answers: answers(200),
      subject: async () => '',
      request: () =>
        call('PUT', '/lifecycle/policy', 'lynne', {
          expiration: { enabled: true, days: 400, onExpiry: 'none' },
        }),
    },
    {
      name: 'running a lifecycle evaluation',
      mode: 'serial',
      answers: answers(202),
      subject: async () => '',
      request: () => call('POST', '/lifecycle/evaluations', 'lynne'),
    },
  ];

  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, race) => {
    expectOneAfterAnother(race, await runRace(suite.app, race));
  });

  test('an approver pressing approve and reject at once: one decision, the other press 409', async () => {
    const res = await call('POST', '/teams/provisioning', 'alex', {
      template: { id: 'client-engagement' },
      team: { name: 'Approve or reject' },
    });
    expect(res.status).toBe(201);
    const approval = ((res.body as Job).data.approval as { id: string }).id;
    const [approved, rejected] = await Promise.all([
      call('POST', `/approvals/${approval}/approve`, 'adele', {}),
      call('POST', `/approvals/${approval}/reject`, 'adele', { message: 'No' }),
    ]);
    expect([approved.status, rejected.status].sort()).toEqual([200, 409]);
    const decided = await suite.app.steward.store.db
      .selectFrom('audit_records')
      .select('action')
      .where('action', 'in', ['approval_approved', 'approval_rejected', 'approval_vote'])
      .execute();
    expect(decided).toEqual([
      { action: approved.status === 200 ? 'approval_approved' : 'approval_rejected' },
    ]);
  });
});
