import { requestClassKey } from '../../../src/domain/graphBudget';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Agent } from 'undici';
import { NotFound } from '../../../src/domain/errors';
import { Team, TeamChannelTab, TeamMember } from '../../../src/contract';
import {
  createGraphPlatform,
  type GraphPlatform,
  type GraphPlatformOptions,
} from '../../../src/platform/graph';
import {
  type NewTeamSpec,
  type OperationCheckpoint,
  type OperationState,
  PlatformError,
} from '../../../src/platform/port';
import { FakeGraph, type LoggedRequest } from '../../support/fakeGraph';

const ALEX = '00000000-0000-0000-0000-000000000020';
const MEGAN = '00000000-0000-0000-0000-000000000021';
const ADELE = '00000000-0000-0000-0000-000000000022';
const PEOPLE = [
  ALEX,
  MEGAN,
  ADELE,
  ...[3, 4, 5, 6].map((n) => `00000000-0000-0000-0000-0000000000${30 + n}`),
];
const WEB_APP = 'com.microsoft.teamspace.tab.web';
const LABEL = 'c0ffee00-0000-0000-0000-000000000001';

let fake: FakeGraph;
let dispatcher: Agent;
let platform: GraphPlatform;
/** Every wait the adapter asked for; nothing really waits. */
let delays: number[];
let logs: string;
let keys = 0;

function start(options: GraphPlatformOptions = {}): GraphPlatform {
  return createGraphPlatform(fake.config(), {
    dispatcher,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    replicationDelayMs: 10_000,
    logger: pino(
      { level: 'debug' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          logs += chunk.toString();
          done();
        },
      }),
    ),
    ...options,
  });
}

function spec(overrides: Partial<NewTeamSpec> = {}): NewTeamSpec {
  keys++;
  return {
    displayName: `Project ${keys}`,
    description: 'A project team',
    visibility: 'private',
    mailNickname: `project${keys}`,
    settings: {
      memberSettings: { allowCreateUpdateChannels: false, allowDeleteChannels: false },
      funSettings: { allowGiphy: false, giphyContentRating: 'strict' },
      discoverySettings: { showInTeamsSearchAndSuggestions: false },
    },
    ownerId: ALEX,
    provisioningKey: `job-${keys}`,
    ...overrides,
  };
}

/** Graph requests since `mark` (an index into the request log). */
function since(mark: number): LoggedRequest[] {
  return fake.requests.slice(mark).filter((r) => r.path.startsWith('/v1.0/'));
}

beforeAll(async () => {
  fake = await FakeGraph.start({ operationPolls: 2, pageSize: 3 });
  dispatcher = fake.dispatcher();
  PEOPLE.forEach((id, i) =>
    fake.addUser({
      id,
      displayName: `Person ${i}`,
      userPrincipalName: `person${i}@contoso.example`,
      mail: `person${i}@contoso.example`,
    }),
  );
  fake.apps.set(WEB_APP, {
    id: WEB_APP,
    externalId: null,
    displayName: 'Website',
    distributionMethod: 'store',
  });
  fake.labels.push({ id: LABEL, name: 'Confidential', sensitivity: 2, isActive: true });
});

beforeEach(() => {
  delays = [];
  logs = '';
  platform = start();
});

afterEach(async () => {
  await platform.close();
});

afterAll(async () => {
  await dispatcher.close();
  await fake.close();
});

describe('creating a team', () => {
  test('upserts the group by provisioning key, makes the team from it and polls the operation', async () => {
    const mark = fake.requests.length;
    const request = spec();
    const team = await platform.teams.createTeam(request);

    expect(Team.parse(team)).toEqual(team);
    expect(team).toMatchObject({
      displayName: request.displayName,
      description: 'A project team',
      visibility: 'private',
      isArchived: false,
      memberSettings: { allowCreateUpdateChannels: false, allowDeleteChannels: false },
      funSettings: { allowGiphy: false, giphyContentRating: 'strict' },
      discoverySettings: {},
    });

    const calls = since(mark);
    const upsert = calls.find((r) => r.method === 'PATCH' && r.path.includes('uniqueName'));
    expect(upsert?.path).toBe(`/v1.0/groups(uniqueName='steward-${request.provisioningKey}')`);
    expect(upsert?.headers.prefer).toBe('create-if-missing');
    expect(upsert?.body).toEqual({
      displayName: request.displayName,
      description: request.description,
      mailNickname: request.mailNickname,
      mailEnabled: true,
      securityEnabled: false,
      groupTypes: ['Unified'],
      visibility: 'Private',
      'owners@odata.bind': [`${fake.baseUrl}/users('${ALEX}')`],
      'members@odata.bind': [`${fake.baseUrl}/users('${ALEX}')`],
    });

    const post = calls.find((r) => r.method === 'POST' && r.path === '/v1.0/teams');
    expect(post?.body).toEqual({
      'template@odata.bind': `${fake.baseUrl}/teamsTemplates('standard')`,
      'group@odata.bind': `${fake.baseUrl}/groups('${team.id}')`,
      memberSettings: { allowCreateUpdateChannels: false, allowDeleteChannels: false },
      funSettings: { allowGiphy: false, giphyContentRating: 'strict' },
      // discoverySettings are beta-only: not sent to v1.0.
    });

    // Nothing is read before the group's upsert, and the team is asked for once, after Graph's
    // replication interval for a new group (`api/team-post.md`: 10 s). Then notStarted,
    // inProgress, succeeded: three looks, more than 30 s apart (teamsasyncoperation.md), then
    // wider; the new team is read once more the interval after.
    expect(calls.filter((r) => r.method === 'GET' && r.path.includes('/groups'))).toEqual([]);
    expect(calls.filter((r) => r.method === 'POST' && r.path === '/v1.0/teams')).toHaveLength(1);
    const polls = calls.filter((r) => r.method === 'GET' && r.path.includes('/operations('));
    expect(polls).toHaveLength(3);
    expect(delays.slice(0, 5)).toEqual([10_000, 31_000, 46_500, 69_750, 10_000]);

    // No label goes with the group: Graph takes one only from a person (`applyLabel`).
    expect(calls.filter((r) => JSON.stringify(r.body ?? {}).includes('assignedLabels'))).toEqual([]);

    const members = await platform.teams.listMembers(team.id);
    expect(members).toEqual([expect.objectContaining({ userId: ALEX, roles: ['owner'] })]);
  });

  test("a job waiting out a new group's replication comes back at its turn to ask for the team", async () => {
    const waits: Array<{ for: string; budgetKey?: string }> = [];
    await platform.teams.createTeam(spec(), {
      wait: async ({ for: reason, budgetKey }) => {
        waits.push({ for: reason, budgetKey });
      },
    });
    // The call after the replication wait is `POST /teams`, after each wait for the operation a
    // look at it (the `other` class): the job names the bucket, so that a worker takes it up when
    // that bucket has a turn rather than to wait for one (jobLeases.ts). The read of the new team
    // after its own replication wait names none.
    expect(waits).toEqual([
      { for: 'replication', budgetKey: requestClassKey('createTeam') },
      ...Array(waits.length - 2).fill({ for: 'teamCreation', budgetKey: requestClassKey('other') }),
      { for: 'replication', budgetKey: undefined },
    ]);
  });

  test('finds the team again by its provisioning key, and creating it twice makes one team', async () => {
    const request = spec();
    expect(await platform.teams.findTeamByProvisioningKey(request.provisioningKey)).toBeUndefined();
    const team = await platform.teams.createTeam(request);
    expect(await platform.teams.findTeamByProvisioningKey(request.provisioningKey)).toEqual(team);

    const mark = fake.requests.length;
    expect(await platform.teams.createTeam(request)).toEqual({ ...team, found: true });
    // The group's upsert finds it (204); no second team is asked for.
    expect(
      since(mark)
        .filter((r) => r.method !== 'GET')
        .map((r) => r.method),
    ).toEqual(['PATCH']);
  });

  test('a job that died while Graph was still creating the team resumes it instead of making another', async () => {
    const request = spec();
    const crashing = start({
      sleep: async () => {
        throw new Error('worker died');
      },
    });
    await expect(crashing.teams.createTeam(request)).rejects.toThrow('worker died');
    await crashing.close();
    expect(await platform.teams.findTeamByProvisioningKey(request.provisioningKey)).toBeUndefined();

    // Graph goes on without us: the operation ends while the resumed job waits.
    const resumed = start({
      sleep: async (ms) => {
        delays.push(ms);
        fake.settle();
      },
    });
    const mark = fake.requests.length;
    const team = await resumed.teams.createTeam(request);
    await resumed.close();

    const posts = since(mark).filter((r) => r.method === 'POST' && r.path === '/v1.0/teams');
    expect(posts).toHaveLength(1); // answered 409: the team was already on its way
    expect([...fake.groups.values()].filter((g) => g.displayName === request.displayName)).toHaveLength(1);
    expect(team.displayName).toBe(request.displayName);
  });

  test('Graph refuses a group displayName over 256 characters, as its group resource documents', async () => {
    // Steward never sends one (the API holds every name to the limit); the simulator refuses it as Graph does.
    await expect(platform.teams.createTeam(spec({ displayName: 'g'.repeat(257) }))).rejects.toThrow(
      PlatformError,
    );
    const team = await platform.teams.createTeam(spec({ displayName: 'g'.repeat(256) }));
    expect(team.displayName).toBe('g'.repeat(256));
  });

  test('waits out the 404 Graph gives for a group Teams cannot see yet', async () => {
    fake.replicationDelays = 2;
    const mark = fake.requests.length;
    const team = await platform.teams.createTeam(spec());
    expect(team.id).toBeTruthy();
    // Graph's interval before the first request, then one after each 404 (and before the team's read).
    expect(since(mark).filter((r) => r.method === 'POST' && r.path === '/v1.0/teams')).toHaveLength(3);
    expect(delays.filter((d) => d === 10_000)).toHaveLength(4);
  });

  test('a new group Graph has not replicated: the team is asked for once, after the interval, nothing read before', async () => {
    // Each new group is invisible for 200 ms (reads and POST /teams from it answer 404); the
    // adapter's replication interval is 250 ms, slept for real.
    fake.options.groupReplicationMs = 200;
    fake.options.random = () => 1;
    const real = start({
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 250))),
      replicationDelayMs: 250,
    });
    try {
      const mark = fake.requests.length;
      const team = await real.teams.createTeam(spec());
      expect(team.id).toBeTruthy();
      const calls = since(mark);
      expect(calls.filter((r) => r.method === 'POST' && r.path === '/v1.0/teams')).toHaveLength(1);
      expect(calls.filter((r) => r.path.startsWith('/v1.0/groups') && r.method === 'GET')).toEqual([]);
      expect(calls.filter((r) => r.status === 404)).toEqual([]);
    } finally {
      await real.close();
      fake.options.groupReplicationMs = undefined;
      fake.options.random = undefined;
    }
  });

  test('a failed operation is a final PlatformError with Graph’s reason', async () => {
    fake.failNextOperation('The team template is not available');
    const error = await platform.teams.createTeam(spec()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ transient: false });
    expect((error as Error).message).toContain('The team template is not available');
  });
});

describe('cloning a team', () => {
  let sourceId: string;

  beforeAll(() => {
    sourceId = fake.addTeam({ displayName: 'Template team', ownerIds: [MEGAN], memberIds: [ADELE] });
    const source = fake.teams.get(sourceId);
    source?.channels.push({
      id: '19:planning@thread.tacv2',
      displayName: 'Planning',
      description: null,
      membershipType: 'standard',
      createdDateTime: '2024-01-01T00:00:00Z',
      tabs: [{ id: 'tab-1', displayName: 'Site', teamsAppId: WEB_APP, configuration: {} }],
      messages: [],
    });
  });

  const cloneSpec = (key: string, mailNickname: string) => ({
    sourceTeamId: sourceId,
    displayName: 'Cloned project',
    description: 'From the template',
    visibility: 'public' as const,
    mailNickname,
    ownerId: ALEX,
    provisioningKey: key,
    parts: { apps: true, tabs: true, settings: true, channels: true, members: false },
  });

  test('posts the chosen parts as one comma-separated string and waits for the copy', async () => {
    const mark = fake.requests.length;
    const waits: Array<{ for: string; afterMs: number; state: OperationState }> = [];
    const team = await platform.teams.cloneTeam(cloneSpec('clone-1', 'clonedproject'), {
      wait: async (wait) => {
        waits.push(wait);
      },
    });

    const post = since(mark).find((r) => r.method === 'POST' && r.path.endsWith('/clone'));
    expect(post?.path).toBe(`/v1.0/teams/${sourceId}/clone`);
    expect(post?.body).toEqual({
      displayName: 'Cloned project',
      description: 'From the template',
      mailNickname: 'clonedproject',
      visibility: 'public',
      partsToClone: 'apps,tabs,settings,channels',
    });
    // The operation goes with every wait, from the first one on (a job parks with it); clones are
    // looked at after 5 s, then less and less often.
    expect(waits.slice(0, 3).map((w) => w.state.location)).toEqual(
      Array(3).fill(expect.stringMatching(/^\/teams\('[^']+'\)\/operations\('[^']+'\)$/)),
    );
    // Then the copy is first read after Graph's replication interval, not the moment it is made.
    expect(waits.map((w) => w.for)).toEqual(['teamClone', 'teamClone', 'teamClone', 'replication']);
    expect(since(mark).map((r) => `${r.method} ${r.path.replace(/\('[^']+'\)/g, '(…)')}`)).toEqual([
      `POST /v1.0/teams/${sourceId}/clone`,
      'GET /v1.0/teams(…)/operations(…)',
      'GET /v1.0/teams(…)/operations(…)',
      'GET /v1.0/teams(…)/operations(…)',
      `GET /v1.0/teams/${team.id}`,
    ]);
    expect(waits.map((w) => w.afterMs)).toEqual([5000, 7500, 11_250, 10_000]);
    expect(delays).toEqual([]); // the checkpoint waited, not the adapter
    expect(team).toMatchObject({ displayName: 'Cloned project', visibility: 'public' });
    const channels = await platform.teams.listChannels(team.id);
    expect(channels.map((c) => c.displayName)).toEqual(['General', 'Planning']);
    expect(await platform.teams.listMembers(team.id)).toEqual([]);
  });

  test('a job that died while the clone was under way waits for that clone when it resumes', async () => {
    let saved: OperationState | undefined;
    const crashing: OperationCheckpoint = {
      wait: async ({ state }) => {
        saved = state;
        throw new Error('worker died');
      },
    };
    // Graph ignores the alias of a clone (team-clone.md), so two clones may well share one: the
    // resumed job must not look for its copy by alias.
    await fake.addTeam({ displayName: 'Unrelated', ownerIds: [MEGAN] });
    await expect(
      platform.teams.cloneTeam(cloneSpec('clone-5', 'clonedbeforecrash'), crashing),
    ).rejects.toThrow('worker died');
    expect(saved?.location).toBeDefined();

    const mark = fake.requests.length;
    const team = await platform.teams.cloneTeam(cloneSpec('clone-5', 'clonedbeforecrash'), {
      state: saved,
      wait: async () => fake.settle(),
    });
    expect(team.displayName).toBe('Cloned project');
    expect(since(mark).filter((r) => r.path.endsWith('/clone'))).toEqual([]);
    // Back from its park, the step looks at the same operation at once.
    expect(since(mark)[0]?.path).toBe(`/v1.0${saved?.location}`);
    expect([...fake.groups.values()].filter((g) => g.displayName === 'Cloned project')).toHaveLength(2);
  });

  test('an unknown source team is NotFound', async () => {
    await expect(
      platform.teams.cloneTeam({ ...cloneSpec('clone-4', 'nosource'), sourceTeamId: 'no-such-team' }),
    ).rejects.toBeInstanceOf(NotFound);
  });
});

describe('an existing team', () => {
  let teamId: string;

  beforeAll(() => {
    teamId = fake.addTeam({ displayName: 'Sales', ownerIds: [MEGAN], memberIds: PEOPLE.slice(2) });
  });

  test('getTeam maps Graph’s team and answers undefined for an unknown id', async () => {
    const team = await platform.teams.getTeam(teamId);
    expect(Team.parse(team)).toEqual(team);
    expect(team).toMatchObject({ id: teamId, displayName: 'Sales', specialization: 'none' });
    expect(team?.internalId).toMatch(/^19:/);
    expect(await platform.teams.getTeam('no-such-team')).toBeUndefined();
    await expect(platform.teams.listMembers('no-such-team')).rejects.toBeInstanceOf(NotFound);
    // `/teams/..` would be Graph's root once the URL is normalised: such ids name nothing.
    expect(await platform.teams.getTeam('..')).toBeUndefined();
    await expect(platform.teams.listMembers('.')).rejects.toBeInstanceOf(NotFound);
  });

  test('updateTeam writes names and visibility to the group and settings to the team', async () => {
    const mark = fake.requests.length;
    await platform.teams.updateTeam(teamId, {
      displayName: 'Sales EMEA',
      visibility: 'public',
      messagingSettings: { allowTeamMentions: false },
    });
    const calls = since(mark);
    expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([
      `PATCH /v1.0/groups/${teamId}`,
      `PATCH /v1.0/teams/${teamId}`,
    ]);
    expect(calls[0]?.body).toEqual({ displayName: 'Sales EMEA', visibility: 'Public' });
    expect(calls[1]?.body).toEqual({ messagingSettings: { allowTeamMentions: false } });
    expect(await platform.teams.getTeam(teamId)).toMatchObject({
      displayName: 'Sales EMEA',
      visibility: 'public',
      messagingSettings: { allowTeamMentions: false },
    });
  });

  test('archive and unarchive wait for their operations', async () => {
    const mark = fake.requests.length;
    await platform.teams.archiveTeam(teamId, true);
    expect(since(mark)[0]).toMatchObject({
      method: 'POST',
      path: `/v1.0/teams/${teamId}/archive`,
      body: { shouldSetSpoSiteReadOnlyForMembers: true },
    });
    expect(fake.teams.get(teamId)).toMatchObject({ isArchived: true, siteReadOnlyForMembers: true });
    expect((await platform.teams.getTeam(teamId))?.isArchived).toBe(true);

    await platform.teams.unarchiveTeam(teamId);
    expect((await platform.teams.getTeam(teamId))?.isArchived).toBe(false);
    await expect(platform.teams.archiveTeam('no-such-team', false)).rejects.toBeInstanceOf(NotFound);
  });

  test('listMembers follows @odata.nextLink across pages', async () => {
    const mark = fake.requests.length;
    const members = await platform.teams.listMembers(teamId);
    expect(members).toHaveLength(PEOPLE.length - 1);
    members.forEach((m) => expect(TeamMember.parse(m)).toEqual(m));
    expect(members.find((m) => m.userId === MEGAN)?.roles).toEqual(['owner']);
    const pages = since(mark);
    expect(pages).toHaveLength(2);
    expect(decodeURIComponent(pages[1]?.path ?? '')).toContain('$skiptoken=3');
  });

  test('addMember adds, and on 409 gives the existing member the requested role', async () => {
    const added = await platform.teams.addMember(teamId, ALEX, 'member');
    expect(added).toMatchObject({
      userId: ALEX,
      roles: [],
      displayName: 'Person 0',
      email: 'person0@contoso.example',
    });

    const mark = fake.requests.length;
    const promoted = await platform.teams.addMember(teamId, ALEX, 'owner');
    expect(promoted).toMatchObject({ id: added.id, userId: ALEX, roles: ['owner'] });
    const calls = since(mark);
    expect(calls[0]).toMatchObject({
      method: 'POST',
      body: {
        '@odata.type': '#microsoft.graph.aadUserConversationMember',
        roles: ['owner'],
        'user@odata.bind': `${fake.baseUrl}/users('${ALEX}')`,
      },
    });
    expect(calls.at(-1)).toMatchObject({
      method: 'PATCH',
      path: `/v1.0/teams/${teamId}/members/${added.id}`,
      body: { '@odata.type': '#microsoft.graph.aadUserConversationMember', roles: ['owner'] },
    });

    const again = fake.requests.length;
    expect(await platform.teams.addMember(teamId, ALEX, 'owner')).toEqual(promoted);
    expect(since(again).some((r) => r.method === 'PATCH')).toBe(false);
  });

  test('channels: list, primary, create standard and private ones', async () => {
    const primary = await platform.teams.primaryChannel(teamId);
    expect(primary.displayName).toBe('General');
    const standard = await platform.teams.createChannel(
      teamId,
      { displayName: 'Deals', description: 'Big ones', membershipType: 'standard' },
      MEGAN,
    );
    expect(standard).toMatchObject({
      displayName: 'Deals',
      description: 'Big ones',
      membershipType: 'standard',
    });

    const mark = fake.requests.length;
    const secret = await platform.teams.createChannel(
      teamId,
      { displayName: 'Leadership', membershipType: 'private' },
      MEGAN,
    );
    expect(secret.membershipType).toBe('private');
    expect(since(mark)[0]?.body).toEqual({
      displayName: 'Leadership',
      membershipType: 'private',
      members: [
        {
          '@odata.type': '#microsoft.graph.aadUserConversationMember',
          roles: ['owner'],
          'user@odata.bind': `${fake.baseUrl}/users('${MEGAN}')`,
        },
      ],
    });
    const all = await platform.teams.listChannels(teamId);
    expect(all.map((c) => c.displayName)).toEqual(['General', 'Deals', 'Leadership']);
  });

  test('tabs: create binds the catalog app and reads the tab back with its app', async () => {
    const channel = await platform.teams.primaryChannel(teamId);
    const mark = fake.requests.length;
    const tab = await platform.teams.createTab(teamId, channel.id, {
      displayName: 'Intranet',
      teamsAppId: WEB_APP,
      configuration: { contentUrl: 'https://intranet.example', websiteUrl: 'https://intranet.example' },
    });
    expect(TeamChannelTab.parse(tab)).toEqual(tab);
    expect(tab).toMatchObject({
      displayName: 'Intranet',
      configuration: { contentUrl: 'https://intranet.example', entityId: null },
      teamsApp: { id: WEB_APP, displayName: 'Website', distributionMethod: 'store' },
    });
    expect(since(mark)[0]?.body).toEqual({
      displayName: 'Intranet',
      'teamsApp@odata.bind': `${fake.baseUrl}/appCatalogs/teamsApps/${WEB_APP}`,
      configuration: { contentUrl: 'https://intranet.example', websiteUrl: 'https://intranet.example' },
    });
    expect(await platform.teams.listTabs(teamId, channel.id)).toEqual([tab]);
    expect(since(mark).at(-1)?.path).toContain('$expand=teamsApp');
  });

  test('deleteTeam deletes the group; the team is gone', async () => {
    const doomed = fake.addTeam({ displayName: 'Doomed', ownerIds: [MEGAN] });
    const mark = fake.requests.length;
    await platform.teams.deleteTeam(doomed);
    expect(since(mark).map((r) => `${r.method} ${r.path}`)).toEqual([`DELETE /v1.0/groups/${doomed}`]);
    expect(await platform.teams.getTeam(doomed)).toBeUndefined();
    await expect(platform.teams.deleteTeam(doomed)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('throttling, outages and retries', () => {
  let teamId: string;

  beforeAll(() => {
    teamId = fake.addTeam({ displayName: 'Busy', ownerIds: [MEGAN] });
  });

  test('a 429 is retried after its Retry-After', async () => {
    fake.fail({ path: new RegExp(`^/teams/${teamId}$`), times: 2, status: 429, retryAfter: '1' });
    const mark = fake.requests.length;
    expect(await platform.teams.getTeam(teamId)).toMatchObject({ id: teamId });
    expect(since(mark)).toHaveLength(3);
    expect(delays).toEqual([1000, 1000]);
    expect(logs).toContain('graph call will be retried');
  });

  test('a 503 without Retry-After is retried with a growing backoff, then succeeds', async () => {
    fake.fail({ path: new RegExp(`^/teams/${teamId}/channels$`), times: 2, status: 503 });
    expect(await platform.teams.listChannels(teamId)).toHaveLength(1);
    // 500 ms, then 1000 ms, each scaled by the jitter (0.75 with random() = 0.5).
    expect(delays).toEqual([375, 750]);
  });

  test('a Retry-After that is neither delay-seconds nor an HTTP-date is ignored: the retry backs off', async () => {
    fake.fail({ path: new RegExp(`^/teams/${teamId}/channels$`), times: 2, status: 503, retryAfter: '1.5' });
    expect(await platform.teams.listChannels(teamId)).toHaveLength(1);
    // Not at once: 500 ms, then 1000 ms, scaled by the jitter, as without a Retry-After.
    expect(delays).toEqual([375, 750]);
  });

  test('when the attempts run out, the error is transient and carries the status and Retry-After', async () => {
    fake.fail({ path: new RegExp(`^/teams/${teamId}/members$`), times: 10, status: 503, retryAfter: '2' });
    const mark = fake.requests.length;
    const error = await platform.teams.listMembers(teamId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status: 503, transient: true, retryAfterMs: 2000 });
    expect(since(mark)).toHaveLength(5);
    fake.clearFaults();
  });

  test('a Retry-After longer than the in-process limit is handed back at once', async () => {
    fake.fail({
      path: new RegExp(`^/teams/${teamId}/primaryChannel$`),
      times: 1,
      status: 429,
      retryAfter: '120',
    });
    const error = await platform.teams.primaryChannel(teamId).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, transient: true, retryAfterMs: 120_000 });
    expect(delays).toEqual([]);
  });

  test('a POST that timed out at the gateway is not sent again (it may have been done)', async () => {
    fake.fail({ method: 'POST', path: /\/channels$/, times: 1, status: 504 });
    const mark = fake.requests.length;
    const error = await platform.teams
      .createChannel(teamId, { displayName: 'Timed out', membershipType: 'standard' }, MEGAN)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 504, transient: true });
    expect(since(mark)).toHaveLength(1);
  });

  test('an unreachable Graph is a transient PlatformError after the retries', async () => {
    const offline = createGraphPlatform(
      { ...fake.config(), baseUrl: 'https://127.0.0.1:9/v1.0' },
      { dispatcher, sleep: async (ms) => void delays.push(ms), tokens: { getToken: async () => 'unused' } },
    );
    const error = await offline.teams.getTeam(teamId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ transient: true });
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect(delays).toHaveLength(4);
  });
});

describe('the app token', () => {
  test('is fetched once, sent on every Graph call and never logged', async () => {
    // A fake of its own, so that the token count starts at zero.
    const own = await FakeGraph.start();
    const ownDispatcher = own.dispatcher();
    let output = '';
    const logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          output += chunk.toString();
          done();
        },
      }),
    );
    const teamId = own.addTeam({ displayName: 'Tokens' });
    const graph = createGraphPlatform(own.config(), { dispatcher: ownDispatcher, logger });
    try {
      // Five calls at once on a cold start share one token request; later calls use msal's cache.
      await Promise.all([1, 2, 3, 4, 5].map(() => graph.teams.getTeam(teamId)));
      await graph.teams.listChannels(teamId);
      expect(own.tokensIssued).toBe(1);
      const token = own.requests.find((r) => r.path.includes('/oauth2/v2.0/token'));
      expect(token?.body).toMatchObject({
        grant_type: 'client_credentials',
        client_id: own.clientId,
        scope: expect.stringContaining('https://graph.microsoft.com/.default'),
      });
      const calls = own.graphRequests();
      expect(calls).toHaveLength(6);
      for (const call of calls) {
        // Steward's own token: app-only, as Graph reads its claims.
        expect(fake.tokenClaims(call.headers.authorization!.slice('Bearer '.length))).toMatchObject({
          idtyp: 'app',
        });
        expect(call.headers['client-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
      const issued = calls[0]?.headers.authorization?.slice('Bearer '.length) ?? '';
      expect(output).toContain('graph call');
      expect(output).not.toContain(issued);
      expect(output).not.toContain('Bearer');
      expect(output).not.toContain(own.clientSecret);

      // A revoked token is refreshed once, behind the caller's back.
      own.revokeTokens();
      expect(await graph.teams.getTeam(teamId)).toMatchObject({ id: teamId });
      expect(own.tokensIssued).toBe(2);
    } finally {
      await graph.close();
      await ownDispatcher.close();
      await own.close();
    }
  });

  test('a wrong client secret is a final PlatformError that does not repeat the secret', async () => {
    const wrong = createGraphPlatform({ ...fake.config(), clientSecret: 'not-the-secret' }, { dispatcher });
    const error = await wrong.teams.getTeam('any').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ transient: false });
    expect((error as Error).message).toContain('invalid_client');
    expect((error as Error).message).not.toContain('not-the-secret');
    await wrong.close();
  });

  test('an unreachable Entra ID is transient; an unknown tenant is final', async () => {
    const unreachable = createGraphPlatform(
      { ...fake.config(), authorityHost: 'https://127.0.0.1:9' },
      { dispatcher },
    );
    await expect(unreachable.teams.getTeam('any')).rejects.toMatchObject({ transient: true });
    const unknown = createGraphPlatform({ ...fake.config(), tenantId: 'another-tenant' }, { dispatcher });
    await expect(unknown.teams.getTeam('any')).rejects.toMatchObject({ transient: false });
  });
});
