import type { Agent } from 'undici';
import { createGraphPlatform, type GraphPlatform } from '../../../src/platform/graph';
import { FakeGraph } from '../../support/fakeGraph';

const ALEX = '00000000-0000-0000-0000-000000000020';
const MEGAN = '00000000-0000-0000-0000-000000000021';
const ADELE = '00000000-0000-0000-0000-000000000022';

let fake: FakeGraph;
let dispatcher: Agent;
let platform: GraphPlatform;

beforeAll(async () => {
  // Pages of two, so the inventory has to follow @odata.nextLink for teams and for members.
  fake = await FakeGraph.start({ pageSize: 2 });
  dispatcher = fake.dispatcher();
  for (const [id, name] of [
    [ALEX, 'Alex'],
    [MEGAN, 'Megan'],
    [ADELE, 'Adele'],
  ]) {
    fake.addUser({ id: id!, displayName: name!, userPrincipalName: `${name}@contoso.example`, mail: null });
  }
  platform = createGraphPlatform(fake.config(), { dispatcher, sleep: async () => undefined });
});

afterAll(async () => {
  await platform.close();
  await dispatcher.close();
  await fake.close();
});

test('the Graph team inventory lists every team with its archive flag and owner count', async () => {
  const sales = fake.addTeam({ displayName: 'Sales', ownerIds: [MEGAN, ADELE], memberIds: [ALEX] });
  const legal = fake.addTeam({ displayName: 'Legal', ownerIds: [ALEX], memberIds: [MEGAN, ADELE] });
  const empty = fake.addTeam({ displayName: 'Abandoned', ownerIds: [], memberIds: [ALEX] });
  await platform.teams.archiveTeam(legal, false);

  const inventory = await platform.teams.listTeamInventory();
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
  expect(fake.graphRequests().some((r) => r.method === 'GET' && r.path.startsWith('/v1.0/teams?'))).toBe(
    true,
  );
});
