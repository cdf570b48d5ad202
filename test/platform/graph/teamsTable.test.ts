import type { Agent } from 'undici';
import { PUBLISHED_GRAPH_LIMITS } from '../../../src/domain/graphBudget';
import { createGraphPlatform, type GraphPlatform } from '../../../src/platform/graph';
import { migrate, openStore, type Store } from '../../../src/store/database';
import { GraphBudgetRepository } from '../../../src/store/graphBudget/graphBudget';
import { createTestDatabase, storeOptionsOf, type TestDatabase } from '../../support/databases';
import { FakeGraph } from '../../support/fakeGraph';
import { PUBLISHED_LIMITS } from '../../support/fakeGraph/limits';

/**
 * Steward's own table of Microsoft's Teams limits (`PUBLISHED_GRAPH_LIMITS`) against the Graph
 * simulator's own reading of the same doc (`PUBLISHED_LIMITS`, written apart from it): the calls
 * on one team that the table limits per operation (channel creations, member additions, app
 * installations) meet no 429 when paced by Steward's table alone.
 */

const OWNER = '00000000-0000-0000-0000-0000000000a1';
const PEOPLE = Array.from({ length: 6 }, (_, i) => `00000000-0000-0000-0000-0000000000b${i}`);
const APPS = ['app-one', 'app-two', 'app-three'];

let fake: FakeGraph;
let dispatcher: Agent;
let db: TestDatabase;
let store: Store;
let platform: GraphPlatform;

beforeAll(async () => {
  fake = await FakeGraph.start({ limits: PUBLISHED_LIMITS, scale: 1 });
  dispatcher = fake.dispatcher();
  for (const id of [OWNER, ...PEOPLE]) {
    fake.addUser({ id, displayName: id, userPrincipalName: `${id}@contoso.com`, mail: null });
  }
  for (const id of APPS) {
    fake.apps.set(id, { id, externalId: null, displayName: id, distributionMethod: 'organization' });
  }
  db = await createTestDatabase('sqlite');
  store = openStore(storeOptionsOf(db));
  await migrate(store.db);
  platform = createGraphPlatform(
    // Steward's table, not the simulator's: each side read the doc on its own.
    { ...fake.config(), budget: { limits: PUBLISHED_GRAPH_LIMITS, headroom: 0.9, maxWaitMs: 60_000 } },
    { dispatcher, retry: { maxAttempts: 1 }, budgetStore: new GraphBudgetRepository(store.db) },
  );
});

afterAll(async () => {
  await platform.close();
  await store.close();
  await db.drop();
  await dispatcher.close();
  await fake.close();
});

test('channels made one after another on a team: one a second, no 429', async () => {
  const teamId = fake.addTeam({ displayName: 'Channels', ownerIds: [OWNER] });
  for (const name of ['One', 'Two', 'Three']) {
    await platform.teams.createChannel(teamId, { displayName: name, membershipType: 'standard' }, OWNER);
  }
  expect(fake.throttle?.refused.get('channelCreations') ?? 0).toBe(0);
  expect(fake.throttle?.refusedTotal).toBe(0);
  const posts = fake.requests.filter(
    (r) => r.method === 'POST' && r.path === `/v1.0/teams/${teamId}/channels`,
  );
  expect(posts).toHaveLength(3);
  // The table's pace, read off what Graph received: at least a second apart (the budget spends 90 %).
  for (let i = 1; i < posts.length; i++) expect(posts[i]!.at - posts[i - 1]!.at).toBeGreaterThanOrEqual(1000);
});

test('member additions on a team: four a minute at most, no 429', async () => {
  const teamId = fake.addTeam({ displayName: 'Members', ownerIds: [OWNER] });
  for (const id of PEOPLE.slice(0, 2)) await platform.teams.addMember(teamId, id, 'member');
  expect(fake.throttle?.refused.get('members') ?? 0).toBe(0);
  expect(fake.throttle?.refusedTotal).toBe(0);
});

test('apps installed one after another in a team: no 429', async () => {
  const teamId = fake.addTeam({ displayName: 'Apps', ownerIds: [OWNER] });
  for (const app of APPS) await platform.teams.workspace.installApp(teamId, app);
  expect(fake.throttle?.refusedTotal).toBe(0);
  expect(fake.requests.filter((r) => r.path === `/v1.0/teams/${teamId}/installedApps`)).toHaveLength(3);
});
