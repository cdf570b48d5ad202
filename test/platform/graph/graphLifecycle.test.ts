import type { LifecycleFacts, TeamActivity } from '../../../src/platform/port';
import { suiteGraphPlatform } from '../../support/graphTenant';

const OWNER = '00000000-0000-0000-0000-000000000020';
const MEMBER = '00000000-0000-0000-0000-000000000021';
const GUEST = '00000000-0000-0000-0000-000000000022';

// Two teams a page, so the cursor is Graph's @odata.nextLink.
const graph = suiteGraphPlatform({ pageSize: 2 }, (fake) => {
  [OWNER, MEMBER, GUEST].forEach((id, i) =>
    fake.addUser({ id, displayName: `Person ${i}`, userPrincipalName: `p${i}@contoso.example` }),
  );
});

/**
 * The lifecycle port on Graph against the simulator: teams page by page with their creation date,
 * archive flag, owners and guests (conversationMember roles), and the Teams activity report, a 302
 * to a CSV download that carries no token.
 */
test('teams page by page with owners and guests, and the activity report streamed from its download', async () => {
  const active = graph.fake.addTeam({
    displayName: 'Sales, North',
    ownerIds: [OWNER],
    memberIds: [MEMBER],
    guestIds: [GUEST],
    createdDateTime: '2024-01-15T10:00:00Z',
    lastActivityDate: new Date().toISOString().slice(0, 10),
  });
  const quiet = graph.fake.addTeam({
    displayName: 'Quiet',
    memberIds: [MEMBER],
    lastActivityDate: '2001-01-01',
  });
  const third = graph.fake.addTeam({ displayName: 'Third', ownerIds: [OWNER] });

  const seen: LifecycleFacts[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await graph.platform.lifecycle.listTeams(cursor, 2);
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
  expect(await graph.platform.lifecycle.getTeam('no-such-team')).toBeUndefined();

  const activity: TeamActivity[] = [];
  for await (const row of graph.platform.lifecycle.activity()) activity.push(row);
  expect(activity).toEqual([
    { teamId: active, lastActivityDate: new Date().toISOString().slice(0, 10) },
    // Older than the report's period (180 days): Graph leaves the date empty.
    { teamId: quiet, lastActivityDate: null },
    { teamId: third, lastActivityDate: null },
  ]);
  const report = graph.fake.graphRequests().find((r) => r.path.includes('getTeamsTeamActivityDetail'));
  expect(report?.path).toContain("period='D180'");
  const download = graph.fake.requests.find((r) => r.path.startsWith('/reports-download/'));
  expect(download).toBeDefined();
  expect(download!.headers.authorization).toBeUndefined();
});
