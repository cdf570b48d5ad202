import type { Agent } from 'undici';
import { createGraphPlatform, type GraphPlatform } from '../../../src/platform/graph';
import type { LifecycleFacts, TeamActivity } from '../../../src/platform/port';
import { FakeGraph } from '../../support/fakeGraph';

const OWNER = '00000000-0000-0000-0000-000000000020';
const MEMBER = '00000000-0000-0000-0000-000000000021';
const GUEST = '00000000-0000-0000-0000-000000000022';

let fake: FakeGraph;
let dispatcher: Agent;
let platform: GraphPlatform;

beforeAll(async () => {
  // Two teams a page, so the cursor is Graph's @odata.nextLink.
  fake = await FakeGraph.start({ pageSize: 2 });
  dispatcher = fake.dispatcher();
  [OWNER, MEMBER, GUEST].forEach((id, i) =>
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
 * The lifecycle port on Graph against the simulator: teams page by page with their creation date,
 * archive flag, owners and guests (conversationMember roles), and the Teams activity report, a 302
 * to a CSV download that carries no token.
 */
test('teams page by page with owners and guests, and the activity report streamed from its download', async () => {
  const active = fake.addTeam({
    displayName: 'Sales, North',
    ownerIds: [OWNER],
    memberIds: [MEMBER],
    guestIds: [GUEST],
    createdDateTime: '2024-01-15T10:00:00Z',
    lastActivityDate: new Date().toISOString().slice(0, 10),
  });
  const quiet = fake.addTeam({ displayName: 'Quiet', memberIds: [MEMBER], lastActivityDate: '2001-01-01' });
  const third = fake.addTeam({ displayName: 'Third', ownerIds: [OWNER] });

  const seen: LifecycleFacts[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await platform.lifecycle.listTeams(cursor, 2);
    seen.push(...page.teams);
    cursor = page.next;
    pages++;
  } while (cursor);
  expect(pages).toBe(2);
  const byId = new Map(seen.map((t) => [t.teamId, t]));
  expect(byId.get(active)).toEqual({
    teamId: active,
    displayName: 'Sales, North',
    createdDateTime: '2024-01-15T10:00:00Z',
    isArchived: false,
    lastActivityDate: null,
    ownerIds: [OWNER],
    guestIds: [GUEST],
  });
  expect(byId.get(quiet)).toMatchObject({ ownerIds: [], guestIds: [] });
  expect(byId.get(third)?.ownerIds).toEqual([OWNER]);
  expect(await platform.lifecycle.getTeam('no-such-team')).toBeUndefined();

  const activity: TeamActivity[] = [];
  for await (const row of platform.lifecycle.activity()) activity.push(row);
  expect(activity).toEqual([
    { teamId: active, lastActivityDate: new Date().toISOString().slice(0, 10) },
    // Older than the report's period (180 days): Graph leaves the date empty.
    { teamId: quiet, lastActivityDate: null },
    { teamId: third, lastActivityDate: null },
  ]);
  const report = fake.graphRequests().find((r) => r.path.includes('getTeamsTeamActivityDetail'));
  expect(report?.path).toContain("period='D180'");
  const download = fake.requests.find((r) => r.path.startsWith('/reports-download/'));
  expect(download).toBeDefined();
  expect(download!.headers.authorization).toBeUndefined();
});
