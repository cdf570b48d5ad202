import type { Job } from '../../src/contract';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases';
import { GUESTS, inviteGuests } from '../support/guests';
import { lifecycleTemplate, provisionTeam } from '../support/lifecycle';
import { PEOPLE, startTestSteward, type TestSteward } from '../support/steward';
import { answers, expectOneAfterAnother, type RaceCase, runRace } from './races';

const api = '/api/v1.0';

/**
 * Identical requests spread over two Steward processes on one database (the second an API
 * process, as a scaled-out deployment runs them behind a load balancer): each process decides
 * nothing alone, so the answers and effects are those of the requests one after another.
 */
describe.each(databaseKinds)('identical requests on two processes, on %s', (kind) => {
  let db: TestDatabase;
  let first: TestSteward;
  let second: TestSteward;
  const token: Record<string, string> = {};
  const teams: Record<string, string[]> = {};
  let turn = 0;

  /** Each call goes to the next process in turn. */
  const call = (method: string, path: string, who: string, body?: unknown) =>
    (turn++ % 2 === 0 ? first : second).call(method, `${api}${path}`, { token: token[who], body });

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    first = await startTestSteward(db, { STEWARD_JOB_POLL_MS: '50', STEWARD_LIFECYCLE_EVALUATION_AT: 'off' });
    second = await startTestSteward(db, { STEWARD_ROLE: 'api', STEWARD_LIFECYCLE_EVALUATION_AT: 'off' });
    token.alex = await first.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
    token.adele = await first.userToken(PEOPLE.adele, [], { name: 'Adele Vance' });
    token.isaiah = await first.userToken(PEOPLE.isaiah, [], { name: 'Isaiah Langer' });
    await lifecycleTemplate(first, 'race-owners', {
      ownership: { minimumOwners: 2, onOwnerless: 'askMembers' },
      guestReview: { enabled: true, everyDays: 90 },
    });
    const [owners, plain] = await Promise.all([
      Promise.all(Array.from({ length: 4 }, (_, i) => provisionTeam(first, 'race-owners', `Two ${i}`))),
      Promise.all(Array.from({ length: 4 }, (_, i) => provisionTeam(first, 'project', `Scaled ${i}`))),
    ]);
    Object.assign(teams, { owners, plain });
    for (const id of owners.slice(0, 2)) {
      const added = await call('POST', `/teams/${id}/members`, 'alex', { user: { id: PEOPLE.isaiah } });
      if (added.status !== 201) throw new Error(`member: ${added.status} ${added.text}`);
    }
    for (const id of owners.slice(2, 4)) await inviteGuests(first, id, [GUESTS.zoe.id]);
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await db?.drop();
  });

  const team =
    (list: string, offset = 0) =>
    async (k: number) =>
      teams[list]![offset + k]!;
  const cases: RaceCase[] = [
    {
      name: 'archiving a team',
      mode: 'once',
      answers: answers(202),
      subject: team('plain', 0),
      request: (id) => call('POST', `/teams/${id}/archive`, 'alex', {}),
    },
    {
      name: 'approving a request',
      mode: 'once',
      answers: answers(200, 409),
      subject: async () => {
        const res = await call('POST', '/teams/provisioning', 'alex', {
          template: { id: 'client-engagement' },
          team: { name: `Scaled request ${turn}` },
        });
        return ((res.body as Job).data.approval as { id: string }).id;
      },
      request: (id) => call('POST', `/approvals/${id}/approve`, 'adele', {}),
    },
    {
      name: 'a request to join a team',
      mode: 'once',
      answers: answers(201, 409),
      subject: team('plain', 2),
      request: (id) => call('POST', `/teams/${id}/joinRequests`, 'isaiah', { message: 'Count me in' }),
    },
    {
      name: 'a member stepping up as owner',
      mode: 'once',
      answers: answers(202, 409),
      subject: team('owners', 0),
      request: (id) => call('POST', `/teams/${id}/lifecycle/ownership`, 'isaiah'),
    },
    {
      name: "an owner's guest review",
      mode: 'once',
      answers: answers(200),
      subject: team('owners', 2),
      request: (id) =>
        call('POST', `/teams/${id}/lifecycle/guestReview`, 'alex', { remove: [GUESTS.zoe.id] }),
    },
  ];

  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, race) => {
    expectOneAfterAnother(race, await runRace(first, race));
  });
});
