import { suiteGraphPlatform } from '../../support/graphTenant';

const ALEX = '00000000-0000-0000-0000-000000000020';
const MEGAN = '00000000-0000-0000-0000-000000000021';
const ADELE = '00000000-0000-0000-0000-000000000022';

// Pages of two, so the inventory has to follow @odata.nextLink for teams and for members.
const graph = suiteGraphPlatform({ pageSize: 2 }, (fake) => {
  for (const [id, name] of [
    [ALEX, 'Alex'],
    [MEGAN, 'Megan'],
    [ADELE, 'Adele'],
  ]) {
    fake.addUser({ id: id!, displayName: name!, userPrincipalName: `${name}@contoso.example`, mail: null });
  }
});

test('the Graph team inventory lists every team with its archive flag and owner count', async () => {
  const sales = graph.fake.addTeam({ displayName: 'Sales', ownerIds: [MEGAN, ADELE], memberIds: [ALEX] });
  const legal = graph.fake.addTeam({ displayName: 'Legal', ownerIds: [ALEX], memberIds: [MEGAN, ADELE] });
  const empty = graph.fake.addTeam({ displayName: 'Abandoned', ownerIds: [], memberIds: [ALEX] });
  await graph.platform.teams.archiveTeam(legal, false);

  const inventory = await graph.platform.teams.listTeamInventory();
  expect(
    inventory.map(({ id, displayName, isArchived, ownerCount }) => ({
      id,
      displayName,
      isArchived,
      ownerCount,
    })),
  ).toEqual([
    { id: empty, displayName: 'Abandoned', isArchived: false, ownerCount: 0 },
    { id: legal, displayName: 'Legal', isArchived: true, ownerCount: 1 },
    { id: sales, displayName: 'Sales', isArchived: false, ownerCount: 2 },
  ]);
  expect(inventory.every((team) => team.createdDateTime !== '')).toBe(true);
  expect(
    graph.fake.graphRequests().some((r) => r.method === 'GET' && r.path.startsWith('/v1.0/teams?')),
  ).toBe(true);
});
