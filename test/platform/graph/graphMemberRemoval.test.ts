import type { Agent } from 'undici';
import { createGraphPlatform, type GraphPlatform } from '../../../src/platform/graph';
import { FakeGraph } from '../../support/fakeGraph';

const OWNER = '00000000-0000-0000-0000-000000000020';
const GUEST = '00000000-0000-0000-0000-000000000022';
const STRANGER = '00000000-0000-0000-0000-000000000023';

let fake: FakeGraph;
let dispatcher: Agent;
let platform: GraphPlatform;

beforeAll(async () => {
  fake = await FakeGraph.start();
  dispatcher = fake.dispatcher();
  [OWNER, GUEST, STRANGER].forEach((id, i) =>
    fake.addUser({ id, displayName: `Person ${i}`, userPrincipalName: `p${i}@contoso.example` }),
  );
  platform = createGraphPlatform(fake.config(), { dispatcher, sleep: async () => {} });
});

afterAll(async () => {
  await platform.close();
  await dispatcher.close();
  await fake.close();
});

/**
 * The port's `removeMember` on Graph against the simulator: Graph deletes a conversationMember by
 * its membership id (`DELETE /teams/{id}/members/{membership-id}`), so the adapter finds it by the
 * user id first; someone not (or no longer) in the team is not an error, and nothing is deleted.
 */
test('removes a guest by user id through the membership Graph gives them, once', async () => {
  const teamId = fake.addTeam({ displayName: 'Guests', ownerIds: [OWNER], guestIds: [GUEST] });
  const membership = (await platform.teams.listMembers(teamId)).find((m) => m.userId === GUEST)!;
  const mark = fake.graphRequests().length;

  expect(await platform.teams.removeMember(teamId, GUEST)).toBe(true);
  const deletes = fake
    .graphRequests()
    .slice(mark)
    .filter((r) => r.method === 'DELETE');
  expect(deletes.map((r) => r.path)).toEqual([`/v1.0/teams/${teamId}/members/${membership.id}`]);
  expect((await platform.lifecycle.getTeam(teamId))?.guestIds).toEqual([]);
  expect((await platform.teams.listMembers(teamId)).map((m) => m.userId)).toEqual([OWNER]);

  const again = fake.graphRequests().length;
  expect(await platform.teams.removeMember(teamId, GUEST)).toBe(false);
  expect(await platform.teams.removeMember(teamId, STRANGER)).toBe(false);
  expect(
    fake
      .graphRequests()
      .slice(again)
      .filter((r) => r.method === 'DELETE'),
  ).toEqual([]);
});
