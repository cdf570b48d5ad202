import type { Agent } from 'undici';
import { createGraphPlatform } from '../../../src/platform/graph';
import { FakeGraph } from '../../support/fakeGraph';

const APP_ID = '7a7a7a7a-0000-4000-8000-00000000007a';
const ALEX = '00000000-0000-0000-0000-000000000020';
const GONE = '00000000-0000-0000-0000-0000000000ff';
const ISAIAH = '00000000-0000-0000-0000-000000000023';

let fake: FakeGraph;
let dispatcher: Agent;

beforeAll(async () => {
  fake = await FakeGraph.start();
  dispatcher = fake.dispatcher();
  for (const [id, displayName] of [
    [ALEX, 'Alex Wilber'],
    [GONE, 'Gone Person'],
    [ISAIAH, 'Isaiah Langer'],
  ] as const)
    fake.addUser({ id, displayName, userPrincipalName: `${displayName.split(' ')[0]}@example.com` });
});
afterAll(async () => {
  await dispatcher.close();
  await fake.close();
});

const directory = (rolesApp?: string) =>
  createGraphPlatform({ ...fake.config(), rolesApp }, { dispatcher, sleep: async () => undefined }).directory;

/**
 * The Graph adapter's role holders at the edges of what Graph answers: a disabled app role, a
 * person or a group deleted since their assignment, and no app registration configured at all.
 */
test('disabled roles, deleted people and deleted groups name nobody; the others are listed', async () => {
  const sp = fake.addServicePrincipal({
    appId: APP_ID,
    displayName: 'Steward API (edges)',
    appRoles: [{ value: 'GOVERNANCE_MANAGER' }, { value: 'GLOBAL_ADMIN', isEnabled: false }],
  });
  const deleted = fake.addGroup({ displayName: 'Former board', mailNickname: 'former', memberIds: [ISAIAH] });
  fake.assignAppRole(sp, 'GOVERNANCE_MANAGER', { type: 'User', id: ALEX });
  fake.assignAppRole(sp, 'GOVERNANCE_MANAGER', { type: 'User', id: GONE });
  fake.assignAppRole(sp, 'GOVERNANCE_MANAGER', { type: 'Group', id: deleted });
  fake.assignAppRole(sp, 'GLOBAL_ADMIN', { type: 'User', id: ISAIAH });
  fake.users.delete(GONE);
  fake.groups.delete(deleted);

  const holders = await directory(APP_ID).roleHolders(['GOVERNANCE_MANAGER', 'GLOBAL_ADMIN']);
  expect(holders).toMatchObject({ listed: true, source: 'appRoleAssignments' });
  expect(holders.listed && holders.people.map((p) => [p.id, p.roles])).toEqual([
    [ALEX, ['GOVERNANCE_MANAGER']],
  ]);
  // Roles not asked about are not listed either.
  const admins = await directory(APP_ID).roleHolders(['TEAMS_SERVICE_ADMIN']);
  expect(admins.listed && admins.people).toEqual([]);
});

test('without an app registration to read roles from, nobody is listed and Graph is not asked', async () => {
  const mark = fake.graphRequests().length;
  const holders = await directory(undefined).roleHolders(['GOVERNANCE_MANAGER']);
  expect(holders).toMatchObject({ listed: false, reason: expect.stringMatching(/STEWARD_GRAPH_ROLES_APP/) });
  expect(fake.graphRequests().slice(mark)).toEqual([]);
});
