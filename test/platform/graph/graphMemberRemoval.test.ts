import { suiteGraphPlatform } from '../../support/graphTenant';

const OWNER = '00000000-0000-0000-0000-000000000020';
const GUEST = '00000000-0000-0000-0000-000000000022';
const STRANGER = '00000000-0000-0000-0000-000000000023';

const graph = suiteGraphPlatform({}, (fake) => {
  [OWNER, GUEST, STRANGER].forEach((id, i) =>
    fake.addUser({ id, displayName: `Person ${i}`, userPrincipalName: `p${i}@contoso.example` }),
  );
});

/**
 * The port's `removeMember` on Graph against the simulator: Graph deletes a conversationMember by
 * its membership id (`DELETE /teams/{id}/members/{membership-id}`), so the adapter finds it by the
 * user id first; someone not (or no longer) in the team is not an error, and nothing is deleted.
 */
test('removes a guest by user id through the membership Graph gives them, once', async () => {
  const teamId = graph.fake.addTeam({ displayName: 'Guests', ownerIds: [OWNER], guestIds: [GUEST] });
  const membership = (await graph.platform.teams.listMembers(teamId)).find((m) => m.userId === GUEST)!;
  const mark = graph.fake.graphRequests().length;

  expect(await graph.platform.teams.removeMember(teamId, GUEST)).toBe(true);
  const deletes = graph.fake
    .graphRequests()
    .slice(mark)
    .filter((r) => r.method === 'DELETE');
  expect(deletes.map((r) => r.path)).toEqual([`/v1.0/teams/${teamId}/members/${membership.id}`]);
  expect((await graph.platform.lifecycle.getTeam(teamId))?.guestIds).toEqual([]);
  expect((await graph.platform.teams.listMembers(teamId)).map((m) => m.userId)).toEqual([OWNER]);

  const again = graph.fake.graphRequests().length;
  expect(await graph.platform.teams.removeMember(teamId, GUEST)).toBe(false);
  expect(await graph.platform.teams.removeMember(teamId, STRANGER)).toBe(false);
  expect(
    graph.fake
      .graphRequests()
      .slice(again)
      .filter((r) => r.method === 'DELETE'),
  ).toEqual([]);
});
