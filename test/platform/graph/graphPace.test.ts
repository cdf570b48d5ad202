import type { Agent } from 'undici';
import {
  createGraphPlatform,
  type GraphPlatform,
  type GraphPlatformOptions,
} from '../../../src/platform/graph';
import type { NewTeamSpec } from '../../../src/platform/port';
import { FakeGraph, type LoggedRequest } from '../../support/fakeGraph';
import { PUBLISHED_LIMITS } from '../../support/fakeGraph/limits';

/**
 * The adapter against the Graph simulator over HTTPS on loopback: the welcome message as the bot,
 * members in the group request and in bulk, polling that follows Graph's guidance, the v1.0 label
 * path, and the simulator's own limits and refusals.
 */

const BOT = {
  appId: 'b0b0b0b0-0000-0000-0000-000000000001',
  secret: 'bot-secret',
  /** The manifest's id; the catalog knows the app by another id, its `externalId` being this one. */
  teamsAppId: '5e7a1c2d-3b4f-4a6e-9c8d-000000000001',
};
const PEOPLE = Array.from(
  { length: 30 },
  (_, n) => `00000000-0000-0000-0000-0000000001${String(n).padStart(2, '0')}`,
);
const OWNER = PEOPLE[0]!;

let fake: FakeGraph;
let dispatcher: Agent;
let delays: number[];
let keys = 0;

function start(
  options: GraphPlatformOptions = {},
  config: Partial<ReturnType<FakeGraph['config']>> = {},
): GraphPlatform {
  return createGraphPlatform(
    { ...fake.config(), ...config },
    {
      dispatcher,
      sleep: async (ms) => {
        delays.push(ms);
      },
      random: () => 0.5,
      bot: { appId: BOT.appId, appPassword: BOT.secret, appTenantId: fake.tenantId },
      ...options,
    },
  );
}

function spec(overrides: Partial<NewTeamSpec> = {}): NewTeamSpec {
  keys++;
  return {
    displayName: `Pace ${keys}`,
    description: 'A team',
    visibility: 'private',
    mailNickname: `pace${keys}`,
    settings: {},
    ownerId: OWNER,
    provisioningKey: `pace-${keys}`,
    ...overrides,
  };
}

function since(mark: number): LoggedRequest[] {
  return fake.requests.slice(mark).filter((r) => r.path.startsWith('/v1.0/'));
}

beforeAll(async () => {
  fake = await FakeGraph.start({ bot: BOT });
  dispatcher = fake.dispatcher();
  PEOPLE.forEach((id, i) =>
    fake.addUser({ id, displayName: `Person ${i}`, userPrincipalName: `p${i}@contoso.example` }),
  );
});

beforeEach(() => {
  delays = [];
});

afterAll(async () => {
  await dispatcher.close();
  await fake.close();
});

describe('the welcome message', () => {
  test('installs Steward’s app in the team, then the bot posts in General; no app-only channel message', async () => {
    const platform = start();
    const team = await platform.teams.createTeam(spec());
    const mark = fake.requests.length;
    const outcome = await platform.teams.welcome(team.id, 'Welcome <all>!');
    await platform.close();

    expect(outcome).toEqual({ posted: 'Posted the welcome message in General as the bot.' });
    // Found in the catalog by its manifest id (`api/appcatalogs-list-teamsapps.md`, Example 3), then
    // installed by the catalog's id, which is not the manifest's.
    const catalogId = String(fake.stewardApp()?.id);
    expect(catalogId).not.toBe(BOT.teamsAppId);
    const lookup = since(mark).find((r) => r.path.startsWith('/v1.0/appCatalogs/teamsApps?'));
    expect(new URL(lookup!.path, fake.origin).searchParams.get('$filter')).toBe(
      `externalId eq '${BOT.teamsAppId}'`,
    );
    const install = since(mark).find((r) => r.path.endsWith('/installedApps'));
    expect(install?.body).toEqual({
      'teamsApp@odata.bind': `${fake.baseUrl}/appCatalogs/teamsApps/${catalogId}`,
    });
    expect(since(mark).some((r) => r.path.endsWith('/messages'))).toBe(false);
    const conversation = fake.requests.slice(mark).find((r) => r.path === '/botframework/v3/conversations');
    expect(conversation?.body).toMatchObject({
      isGroup: true,
      bot: { id: `28:${BOT.appId}` },
      channelData: { channel: { id: fake.teams.get(team.id)?.channels[0]?.id } },
      activity: { type: 'message', text: 'Welcome <all>!' },
    });
    expect(fake.teams.get(team.id)?.channels[0]?.messages).toEqual([
      expect.objectContaining({ content: 'Welcome <all>!', from: `28:${BOT.appId}` }),
    ]);
  });

  test('looks the app up in the catalog once per process', async () => {
    const platform = start();
    const first = await platform.teams.createTeam(spec());
    const second = await platform.teams.createTeam(spec());
    const mark = fake.requests.length;
    await platform.teams.welcome(first.id, 'One');
    await platform.teams.welcome(second.id, 'Two');
    await platform.close();
    expect(since(mark).filter((r) => r.path.startsWith('/v1.0/appCatalogs/'))).toHaveLength(1);
    expect(since(mark).filter((r) => r.path.endsWith('/installedApps'))).toHaveLength(2);
  });

  test('is skipped with its reason when no Teams app id is configured', async () => {
    const platform = start({}, { teamsAppId: undefined });
    const team = await platform.teams.createTeam(spec());
    const mark = fake.requests.length;
    const outcome = await platform.teams.welcome(team.id, 'Hello');
    await platform.close();
    expect(outcome).toEqual({ skipped: expect.stringContaining('STEWARD_TEAMS_APP_ID') });
    expect(fake.requests.slice(mark)).toEqual([]);
  });

  test('is skipped, saying how to publish the app, when it is not in the organisation’s catalog', async () => {
    const platform = start({}, { teamsAppId: '0f5c6d7e-1a2b-4c3d-8e9f-a0b1c2d3e4f5' });
    const team = await platform.teams.createTeam(spec());
    const mark = fake.requests.length;
    const outcome = await platform.teams.welcome(team.id, 'Hello');
    await platform.close();
    expect(outcome).toEqual({
      skipped: expect.stringMatching(/not in the organisation's app catalog: publish it .*publish-app/),
    });
    expect(since(mark).filter((r) => r.path.endsWith('/installedApps'))).toEqual([]);
    expect(fake.teams.get(team.id)?.channels[0]?.messages).toEqual([]);
  });

  test('is skipped, naming the permission, when Graph refuses the catalog to Steward', async () => {
    fake.granted.delete('AppCatalog.Read.All');
    try {
      const platform = start();
      const team = await platform.teams.createTeam(spec());
      const outcome = await platform.teams.welcome(team.id, 'Hello');
      await platform.close();
      expect(outcome).toEqual({ skipped: expect.stringContaining('AppCatalog.Read.All') });
    } finally {
      fake.granted.add('AppCatalog.Read.All');
    }
  });

  test('is skipped with its reason when the bot has no app registration', async () => {
    const platform = start({ bot: {} });
    const team = await platform.teams.createTeam(spec());
    expect(await platform.teams.welcome(team.id, 'Hello')).toEqual({
      skipped: expect.stringContaining('MicrosoftAppId'),
    });
    await platform.close();
  });

  test('is skipped with Graph’s reason when the install is refused, without taking it for an expired token', async () => {
    const platform = start();
    const team = await platform.teams.createTeam(spec());
    // Gone from the catalog after Steward found it: the install answers 404.
    fake.fail({ method: 'POST', path: /\/installedApps$/, times: 1, status: 404 });
    const tokens = fake.tokensIssued;
    const outcome = await platform.teams.welcome(team.id, 'Hello');
    await platform.close();
    expect(outcome).toEqual({ skipped: expect.stringContaining('404') });
    expect(fake.tokensIssued).toBe(tokens);
    expect(fake.teams.get(team.id)?.channels[0]?.messages).toEqual([]);
  });

  test('the simulator refuses a channel message posted with the app’s own token, as Graph does', async () => {
    const platform = start();
    const team = await platform.teams.createTeam(spec());
    await platform.close();
    const channel = fake.teams.get(team.id)!.channels[0]!;
    const token = await tokenFor(fake);
    const response = await fetchJson(
      `${fake.baseUrl}/teams/${team.id}/channels/${encodeURIComponent(channel.id)}/messages`,
      {
        method: 'POST',
        token,
        body: { body: { contentType: 'html', content: '<p>hi</p>' } },
      },
    );
    expect(response.status).toBe(401);
    expect(channel.messages).toEqual([]);
  });
});

describe('owners and members', () => {
  test('go in the group request up to 20 people, the rest in one bulk call; nobody is added twice', async () => {
    const platform = start();
    const members = [
      { id: OWNER, role: 'owner' as const },
      { id: PEOPLE[1]!, role: 'owner' as const },
      ...PEOPLE.slice(2).map((id) => ({ id, role: 'member' as const })),
    ];
    const mark = fake.requests.length;
    const team = await platform.teams.createTeam(spec({ members }));
    const upsert = since(mark).find((r) => r.method === 'PATCH' && r.path.includes('uniqueName'));
    const body = upsert?.body as Record<string, string[]>;
    expect(body['owners@odata.bind']).toHaveLength(2);
    expect(body['owners@odata.bind']!.length + body['members@odata.bind']!.length).toBe(20);

    const added = fake.requests.length;
    expect(await platform.teams.addMembers(team.id, members)).toEqual({ added: 12, changed: 0 });
    const calls = since(added);
    expect(calls.map((r) => `${r.method} ${r.path.replace(team.id, '{team}')}`)).toEqual([
      'GET /v1.0/teams/{team}/members',
      'POST /v1.0/teams/{team}/members/add',
    ]);
    expect((calls[1]?.body as { values: unknown[] }).values).toHaveLength(12);
    const present = fake.teams.get(team.id)!.members;
    expect(present).toHaveLength(30);
    expect(new Set(present.map((m) => m.userId)).size).toBe(30);
    expect(
      present
        .filter((m) => m.roles.includes('owner'))
        .map((m) => m.userId)
        .sort(),
    ).toEqual([OWNER, PEOPLE[1]].sort());

    // Again (a resumed job): one read, nothing added.
    const again = fake.requests.length;
    expect(await platform.teams.addMembers(team.id, members)).toEqual({ added: 0, changed: 0 });
    expect(since(again)).toHaveLength(1);
    await platform.close();
  });

  test('a member whose role differs is changed, not added', async () => {
    const platform = start();
    const team = await platform.teams.createTeam(spec({ members: [{ id: PEOPLE[5]!, role: 'member' }] }));
    const mark = fake.requests.length;
    expect(await platform.teams.addMembers(team.id, [{ id: PEOPLE[5]!, role: 'owner' }])).toEqual({
      added: 0,
      changed: 1,
    });
    expect(since(mark).map((r) => r.method)).toEqual(['GET', 'PATCH']);
    await platform.close();
  });
});

describe('polling', () => {
  test('waits what Graph’s Retry-After says when it gives one', async () => {
    fake.options.operationRetryAfter = 45;
    fake.operationPolls = 2;
    try {
      const platform = start();
      await platform.teams.createTeam(spec());
      await platform.close();
    } finally {
      fake.options.operationRetryAfter = undefined;
      fake.operationPolls = 1;
    }
    // After Graph's replication interval for the new group (10 s), before its team is asked for.
    expect(delays.slice(0, 4)).toEqual([10_000, 31_000, 45_000, 45_000]);
  });

  test('the intervals are configurable', async () => {
    const platform = start({ polling: { initialDelayMs: 20, growth: 2, maxDelayMs: 50 } });
    fake.operationPolls = 3;
    try {
      await platform.teams.createTeam(spec());
    } finally {
      fake.operationPolls = 1;
    }
    await platform.close();
    expect(delays.slice(1, 5)).toEqual([20, 40, 50, 50]);
  });
});

test('sensitivity labels are read from v1.0’s path, with sublabels nested', async () => {
  fake.labels.push({
    id: 'label-1',
    name: 'Confidential',
    description: 'Staff only',
    color: '#ff0000',
    priority: 2,
    toolTip: 'Staff only',
    isEnabled: true,
    applicableTo: 'email,teamwork,file',
    sublabels: [{ id: 'label-2', name: 'Projects', priority: 3, isEnabled: false, applicableTo: 'teamwork' }],
  });
  const platform = start();
  const mark = fake.requests.length;
  const labels = await platform.directory.labels();
  await platform.close();
  expect(since(mark).map((r) => r.path)).toEqual([
    '/v1.0/security/dataSecurityAndGovernance/sensitivityLabels',
  ]);
  expect(labels).toEqual([
    expect.objectContaining({
      id: 'label-1',
      name: 'Confidential',
      sensitivity: 2,
      tooltip: 'Staff only',
      parent: null,
    }),
    expect.objectContaining({
      id: 'label-2',
      isActive: false,
      parent: 'label-1',
    }),
  ]);
  // The beta-only path is not a v1.0 resource.
  const beta = await fetchJson(`${fake.baseUrl}/security/informationProtection/sensitivityLabels`, {
    method: 'GET',
    token: await tokenFor(fake),
  });
  expect(beta.status).toBe(400);
});

describe('the simulator’s limits', () => {
  let limited: FakeGraph;
  let limitedDispatcher: Agent;
  let clock = 1_000_000;

  beforeAll(async () => {
    // The buckets' clock stands still unless a test moves it, so counts do not depend on the machine's speed.
    limited = await FakeGraph.start({ limits: PUBLISHED_LIMITS, scale: 1, now: () => clock });
    limitedDispatcher = limited.dispatcher();
  });

  afterAll(async () => {
    await limitedDispatcher.close();
    await limited.close();
  });

  test('four requests a second on one team, then 429 with Retry-After and Graph’s error body', async () => {
    const teamId = limited.addTeam({ displayName: 'Busy' });
    const token = await tokenFor(limited);
    const answers = [];
    for (let i = 0; i < 6; i++)
      answers.push(await fetchJson(`${limited.baseUrl}/teams/${teamId}`, { method: 'GET', token }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429, 429]);
    expect(answers[4]!.headers.get('retry-after')).toBe('1');
    expect(answers[4]?.body).toMatchObject({ error: { code: 'TooManyRequests' } });
    expect(limited.throttle?.refused.get('team')).toBe(2);
    clock += 250; // a quarter of a second refills one of the team's four tokens
    expect((await fetchJson(`${limited.baseUrl}/teams/${teamId}`, { method: 'GET', token })).status).toBe(
      200,
    );
    expect((await fetchJson(`${limited.baseUrl}/teams/${teamId}`, { method: 'GET', token })).status).toBe(
      429,
    );
  });

  test('four member additions a minute on one team; the adapter’s one bulk call fits where one call each would not', async () => {
    const ids = PEOPLE.slice(0, 6);
    ids.forEach((id, i) =>
      limited.addUser({ id, displayName: `P${i}`, userPrincipalName: `q${i}@contoso.example` }),
    );
    const teamId = limited.addTeam({ displayName: 'Members', ownerIds: [ids[0]!] });
    const token = await tokenFor(limited);
    const statuses = [];
    for (const id of ids.slice(1)) {
      const answer = await fetchJson(`${limited.baseUrl}/teams/${teamId}/members`, {
        method: 'POST',
        token,
        body: {
          '@odata.type': '#microsoft.graph.aadUserConversationMember',
          roles: [],
          'user@odata.bind': `${limited.baseUrl}/users('${id}')`,
        },
      });
      statuses.push(answer.status);
      clock += 1000; // a second later: the team's bucket is full again, the member additions' is not
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429]);

    const other = limited.addTeam({ displayName: 'Bulk', ownerIds: [ids[0]!] });
    const platform = createGraphPlatform(limited.config(), {
      dispatcher: limitedDispatcher,
      sleep: async () => {},
    });
    expect(
      await platform.teams.addMembers(
        other,
        ids.slice(1).map((id) => ({ id, role: 'member' as const })),
      ),
    ).toEqual({
      added: 5,
      changed: 0,
    });
    await platform.close();
  });
});

test('operations take the simulator’s latency and a new team answers 404 until replicated; the adapter waits both out', async () => {
  const slow = await FakeGraph.start({ latency: { minMs: 600, maxMs: 800 }, replicationMs: 1500, scale: 1 });
  const slowDispatcher = slow.dispatcher();
  slow.addUser({ id: OWNER, displayName: 'Owner', userPrincipalName: 'owner@contoso.example' });
  const platform = createGraphPlatform(slow.config(), {
    dispatcher: slowDispatcher,
    polling: { initialDelayMs: 50, growth: 1, replicationDelayMs: 50, notFoundRetries: 100 },
    // The new team is first read this long after its operation ends: within the 1.5 s it takes.
    replicationDelayMs: 1000,
  });
  const started = Date.now();
  const team = await platform.teams.createTeam(spec());
  const took = Date.now() - started;
  await platform.close();
  await slowDispatcher.close();
  await slow.close();
  const polls = slow.graphRequests().filter((r) => r.path.includes('/operations('));
  const notYet = slow.requests.filter((r) => r.path === `/v1.0/teams/${team.id}`);
  // Still running at the first look (600 ms at least), and 404 at the first read of the team, 1 s
  // after the operation ends (for 1.5 s).
  expect(polls.length).toBeGreaterThanOrEqual(2);
  expect(notYet.length).toBeGreaterThanOrEqual(2);
  // Replication counts from the operation's end, which falls after the last poll that still saw it
  // running and before the one that saw it done (it once came 3 ms before that one): the team reads
  // answer 404 until 1.5 s after the former. Date.now() counts whole milliseconds, hence 1 ms.
  expect(notYet.at(-1)!.at - polls.at(-2)!.at).toBeGreaterThanOrEqual(1500 - 1);
  expect(took).toBeGreaterThanOrEqual(2100);
  expect(team.displayName).toMatch(/^Pace /);
});

/** A Graph token from the simulator's Entra ID. */
async function tokenFor(graph: FakeGraph): Promise<string> {
  const response = await fetchForm(`${graph.origin}/${graph.tenantId}/oauth2/v2.0/token`, {
    grant_type: 'client_credentials',
    client_id: graph.clientId,
    client_secret: graph.clientSecret,
    scope: 'https://graph.microsoft.com/.default',
  });
  return (response as { access_token: string }).access_token;
}

async function fetchForm(url: string, form: Record<string, string>): Promise<unknown> {
  const { request } = await import('undici');
  const response = await request(url, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return response.body.json();
}

async function fetchJson(
  url: string,
  options: { method: 'GET' | 'POST'; token: string; body?: unknown },
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const { request } = await import('undici');
  const response = await request(url, {
    method: options.method,
    dispatcher,
    headers: {
      authorization: `Bearer ${options.token}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.body.text();
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers))
    if (typeof value === 'string') headers.set(name, value);
  return { status: response.statusCode, headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}
