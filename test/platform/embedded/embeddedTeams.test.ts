import { randomUUID } from 'node:crypto';
import { Conflict, NotFound } from '../../../src/domain/errors';
import { EmbeddedTeams, SEED_TEMPLATE_TEAM_ID, seedEmbeddedTeams } from '../../../src/platform/embedded';
import { DEFAULT_TEAM_SETTINGS } from '../../../src/platform/embedded/teamRows';
import { type CloneTeamSpec, PlatformError } from '../../../src/platform/port';
import { migrate, openStore, type Store } from '../../../src/store/database';
import { seedDemoData } from '../../../src/store/seed';
import { newTeamSpec } from '../../support/teams';
import {
  createTestDatabase,
  databaseKinds,
  storeOptionsOf,
  type TestDatabase,
} from '../../support/databases';

const ALEX = '00000000-0000-0000-0000-000000000020';
const MEGAN = '00000000-0000-0000-0000-000000000021';
const LYNNE = '00000000-0000-0000-0000-000000000025';
const STRANGER = 'not-in-the-directory';
const PUBLIC_URL = 'http://steward.test';
const CHANNEL_ID = /^19:[0-9a-f]{32}@thread\.tacv2$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PLATFORM_TABLES = [
  'platform_teams',
  'platform_channels',
  'platform_tabs',
  'platform_members',
  'platform_messages',
] as const;

const webTab = (displayName: string, websiteUrl: string) => ({
  displayName,
  teamsAppId: 'com.microsoft.teamspace.tab.web',
  configuration: { entityId: displayName, contentUrl: websiteUrl, websiteUrl },
});

describe.each(databaseKinds)('embedded teams on %s', (kind) => {
  let database: TestDatabase;
  let store: Store;
  let teams: EmbeddedTeams;

  const count = async (table: (typeof PLATFORM_TABLES)[number], teamId: string) => {
    const column = table === 'platform_teams' ? 'id' : 'team_id';
    const row = await store.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .where(column, '=', teamId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = openStore(storeOptionsOf(database));
    await migrate(store.db);
    await seedDemoData(store);
    teams = new EmbeddedTeams(store.db, { publicUrl: () => PUBLIC_URL, latencyMs: 0, faults: [] });
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  describe('createTeam', () => {
    it('creates the team with its General channel and first owner, shaped like Graph', async () => {
      const spec = newTeamSpec({ settings: { memberSettings: { allowDeleteChannels: false } } });
      const team = await teams.createTeam(spec);
      expect(team.id).toMatch(GUID);
      expect(team).toMatchObject({
        displayName: 'Project Apollo',
        description: 'Going to the moon.',
        visibility: 'private',
        webUrl: `${PUBLIC_URL}/platform/teams/${team.id}`,
        isArchived: false,
        isMembershipLimitedToOwners: false,
        classification: null,
        guestSettings: DEFAULT_TEAM_SETTINGS.guestSettings,
        messagingSettings: DEFAULT_TEAM_SETTINGS.messagingSettings,
        funSettings: DEFAULT_TEAM_SETTINGS.funSettings,
        discoverySettings: DEFAULT_TEAM_SETTINGS.discoverySettings,
      });
      expect(team.memberSettings).toEqual({
        ...DEFAULT_TEAM_SETTINGS.memberSettings,
        allowDeleteChannels: false,
      });
      expect(new Date(team.createdDateTime).toISOString()).toBe(team.createdDateTime);

      const channels = await teams.listChannels(team.id);
      expect(channels).toHaveLength(1);
      expect(channels[0]).toMatchObject({ displayName: 'General', membershipType: 'standard' });
      expect(channels[0]?.id).toMatch(CHANNEL_ID);
      expect(await teams.primaryChannel(team.id)).toEqual(channels[0]);
      expect(team.internalId).toBe(channels[0]?.id);

      const members = await teams.listMembers(team.id);
      expect(members).toEqual([
        {
          id: expect.stringMatching(/^MCMjMSMj/),
          userId: ALEX,
          displayName: 'Alex Wilber',
          email: 'alexw@example.com',
          roles: ['owner'],
        },
      ]);
      expect(await teams.getTeam(team.id)).toEqual(team);
      expect(await teams.findTeamByProvisioningKey(spec.provisioningKey)).toEqual(team);
    });

    it('returns the team already made with the same provisioning key instead of a second one', async () => {
      const spec = newTeamSpec();
      const first = await teams.createTeam(spec);
      const again = await teams.createTeam({ ...spec, displayName: 'Another name', ownerId: MEGAN });
      expect(again).toEqual({ ...first, found: true });
      expect(await count('platform_members', first.id)).toBe(1);
      expect(await count('platform_channels', first.id)).toBe(1);
      const keyed = await store.db
        .selectFrom('platform_teams')
        .select('id')
        .where('provisioning_key', '=', spec.provisioningKey)
        .execute();
      expect(keyed).toHaveLength(1);
    });

    it('makes exactly one team when five calls race with the same provisioning key', async () => {
      const spec = newTeamSpec();
      const results = await Promise.all(Array.from({ length: 5 }, () => teams.createTeam(spec)));
      expect(new Set(results.map((t) => t.id)).size).toBe(1);
      const keyed = await store.db
        .selectFrom('platform_teams')
        .select('id')
        .where('provisioning_key', '=', spec.provisioningKey)
        .execute();
      expect(keyed).toHaveLength(1);
      const id = results[0]?.id ?? '';
      expect(await count('platform_members', id)).toBe(1);
      expect(await count('platform_channels', id)).toBe(1);
    });

    it('makes exactly one team when five adapters race with the same key', async () => {
      const spec = newTeamSpec();
      const adapters = Array.from(
        { length: 5 },
        () => new EmbeddedTeams(store.db, { publicUrl: () => PUBLIC_URL, latencyMs: 0, faults: [] }),
      );
      const results = await Promise.all(adapters.map((adapter) => adapter.createTeam(spec)));
      expect(new Set(results.map((t) => t.id)).size).toBe(1);
      expect(await count('platform_members', results[0]?.id ?? '')).toBe(1);
    });
  });

  describe('cloneTeam', () => {
    let source: string;
    let generalTabId: string;

    beforeAll(async () => {
      const team = await teams.createTeam(
        newTeamSpec({
          displayName: 'Source team',
          settings: {
            funSettings: { giphyContentRating: 'strict' },
            guestSettings: { allowDeleteChannels: true },
          },
        }),
      );
      source = team.id;
      const general = await teams.primaryChannel(source);
      generalTabId = (await teams.createTab(source, general.id, webTab('Checklist', 'https://example.com/c')))
        .id;
      const planning = await teams.createChannel(
        source,
        { displayName: 'Planning', membershipType: 'standard' },
        ALEX,
      );
      await teams.createTab(source, planning.id, webTab('Charter', 'https://example.com/charter'));
      await teams.createTab(source, planning.id, webTab('Roadmap', 'https://example.com/roadmap'));
      await teams.createChannel(source, { displayName: 'Leads', membershipType: 'private' }, ALEX);
      await teams.addMember(source, MEGAN, 'member');
      await teams.addMember(source, STRANGER, 'owner');
      await teams.postMessage(source, general.id, '<p>Not copied</p>');
    });

    const clone = (parts: Partial<CloneTeamSpec['parts']>, overrides: Partial<CloneTeamSpec> = {}) =>
      teams.cloneTeam({
        displayName: 'Copy',
        description: 'A copy',
        visibility: 'public',
        mailNickname: 'copy',
        ownerId: LYNNE,
        provisioningKey: `job-${randomUUID()}`,
        sourceTeamId: source,
        parts: { apps: false, tabs: false, settings: false, channels: false, members: false, ...parts },
        ...overrides,
      });

    const tabNames = async (teamId: string) => {
      const result: Record<string, string[]> = {};
      for (const channel of await teams.listChannels(teamId))
        result[channel.displayName] = (await teams.listTabs(teamId, channel.id)).map((t) => t.displayName);
      return result;
    };

    it('copies everything when every part is chosen, with new ids', async () => {
      const team = await clone({ apps: true, tabs: true, settings: true, channels: true, members: true });
      expect(team).toMatchObject({ displayName: 'Copy', description: 'A copy', visibility: 'public' });
      expect(team.funSettings.giphyContentRating).toBe('strict');
      expect(team.guestSettings.allowDeleteChannels).toBe(true);
      const channels = await teams.listChannels(team.id);
      expect(channels.map((c) => [c.displayName, c.membershipType])).toEqual([
        ['General', 'standard'],
        ['Planning', 'standard'],
        ['Leads', 'private'],
      ]);
      const sourceChannels = await teams.listChannels(source);
      for (const channel of channels) expect(sourceChannels.map((c) => c.id)).not.toContain(channel.id);
      expect(await tabNames(team.id)).toEqual({
        General: ['Checklist'],
        Planning: ['Charter', 'Roadmap'],
        Leads: [],
      });
      const [generalTab] = await teams.listTabs(team.id, channels[0]?.id ?? '');
      expect(generalTab?.id).not.toBe(generalTabId);
      expect(generalTab?.webUrl).toBe(`${PUBLIC_URL}/platform/teams/${team.id}#tab-${generalTab?.id}`);
      expect(generalTab?.sortOrderIndex).toBe('10000');
      const members = await teams.listMembers(team.id);
      expect(members.map((m) => [m.userId, m.roles])).toEqual(
        expect.arrayContaining([
          [ALEX, ['owner']],
          [MEGAN, []],
          [STRANGER, ['owner']],
          [LYNNE, ['owner']],
        ]),
      );
      expect(members).toHaveLength(4);
      expect((await teams.viewTeam(team.id))?.generalMessages).toEqual([]);
    });

    it('copies nothing but the names when no part is chosen', async () => {
      const team = await clone({});
      expect(team.funSettings).toEqual(DEFAULT_TEAM_SETTINGS.funSettings);
      expect(await tabNames(team.id)).toEqual({ General: [] });
      expect((await teams.listMembers(team.id)).map((m) => [m.userId, m.roles])).toEqual([
        [LYNNE, ['owner']],
      ]);
    });

    it.each([
      [{ channels: true }, { General: [], Planning: [], Leads: [] }],
      [{ tabs: true }, { General: ['Checklist'] }],
      [
        { channels: true, tabs: true },
        { General: ['Checklist'], Planning: ['Charter', 'Roadmap'], Leads: [] },
      ],
    ])('copies channels and tabs as chosen: %j', async (parts, expected) => {
      expect(await tabNames((await clone(parts)).id)).toEqual(expected);
    });

    it('copies settings and members only when chosen', async () => {
      const settingsOnly = await clone({ settings: true });
      expect(settingsOnly.funSettings.giphyContentRating).toBe('strict');
      expect(await teams.listMembers(settingsOnly.id)).toHaveLength(1);
      const membersOnly = await clone({ members: true });
      expect(membersOnly.funSettings.giphyContentRating).toBe('moderate');
      expect(await teams.listMembers(membersOnly.id)).toHaveLength(4);
    });

    it('makes the new owner an owner even where the source has them as a member', async () => {
      const team = await clone({ members: true }, { ownerId: MEGAN });
      const megan = (await teams.listMembers(team.id)).find((m) => m.userId === MEGAN);
      expect(megan?.roles).toEqual(['owner']);
    });

    it('is idempotent by provisioning key', async () => {
      const key = `job-${randomUUID()}`;
      const first = await clone({ channels: true }, { provisioningKey: key });
      const again = await clone({ channels: true }, { provisioningKey: key });
      expect(again.id).toBe(first.id);
      expect(await count('platform_channels', first.id)).toBe(3);
    });

    it('refuses an unknown source with NotFound and writes nothing', async () => {
      const key = `job-${randomUUID()}`;
      await expect(
        clone({ channels: true }, { sourceTeamId: 'no-such-team', provisioningKey: key }),
      ).rejects.toThrow(NotFound);
      expect(await teams.findTeamByProvisioningKey(key)).toBeUndefined();
    });
  });

  describe('members', () => {
    it('adds, re-adds without duplicates, and changes roles', async () => {
      const team = await teams.createTeam(newTeamSpec());
      const added = await teams.addMember(team.id, MEGAN, 'member');
      expect(added).toMatchObject({
        userId: MEGAN,
        displayName: 'Megan Bowen',
        email: 'meganb@example.com',
        roles: [],
      });
      expect(await teams.addMember(team.id, MEGAN, 'member')).toEqual(added);
      const upgraded = await teams.addMember(team.id, MEGAN, 'owner');
      expect(upgraded).toEqual({ ...added, roles: ['owner'] });
      expect(await teams.listMembers(team.id)).toHaveLength(2);
      expect(await teams.addMember(team.id, MEGAN, 'member')).toEqual(added);
    });

    it('names people outside the directory by their id', async () => {
      const team = await teams.createTeam(newTeamSpec());
      expect(await teams.addMember(team.id, STRANGER, 'member')).toMatchObject({
        userId: STRANGER,
        displayName: STRANGER,
        email: null,
        roles: [],
      });
    });

    it('lists members in the order they joined', async () => {
      const team = await teams.createTeam(newTeamSpec());
      await teams.addMember(team.id, LYNNE, 'member');
      await teams.addMember(team.id, MEGAN, 'member');
      expect((await teams.listMembers(team.id)).map((m) => m.userId)).toEqual([ALEX, LYNNE, MEGAN]);
    });
  });

  describe('channels and tabs', () => {
    it('lists General first, then channels as created, and refuses a name taken in any case', async () => {
      const team = await teams.createTeam(newTeamSpec());
      const zeta = await teams.createChannel(
        team.id,
        { displayName: 'Zeta', membershipType: 'standard' },
        ALEX,
      );
      const alpha = await teams.createChannel(
        team.id,
        { displayName: 'Alpha', description: 'First letter', membershipType: 'private' },
        ALEX,
      );
      expect(alpha).toMatchObject({
        displayName: 'Alpha',
        description: 'First letter',
        membershipType: 'private',
      });
      expect(alpha.id).toMatch(CHANNEL_ID);
      expect((await teams.listChannels(team.id)).map((c) => c.id).slice(1)).toEqual([zeta.id, alpha.id]);
      await expect(
        teams.createChannel(team.id, { displayName: 'zETA', membershipType: 'standard' }, ALEX),
      ).rejects.toThrow(Conflict);
      await expect(
        teams.createChannel(team.id, { displayName: 'general', membershipType: 'standard' }, ALEX),
      ).rejects.toThrow(Conflict);
      // Another team may use the name.
      const other = await teams.createTeam(newTeamSpec());
      await expect(
        teams.createChannel(other.id, { displayName: 'Zeta', membershipType: 'standard' }, ALEX),
      ).resolves.toMatchObject({ displayName: 'Zeta' });
    });

    it('creates tabs in Graph shape with increasing sort orders', async () => {
      const team = await teams.createTeam(newTeamSpec());
      const general = await teams.primaryChannel(team.id);
      const first = await teams.createTab(team.id, general.id, webTab('Wiki', 'https://example.com/wiki'));
      const second = await teams.createTab(team.id, general.id, {
        displayName: 'Plan',
        teamsAppId: 'com.contoso.planner',
        configuration: {},
      });
      expect(first).toEqual({
        id: expect.stringMatching(GUID),
        displayName: 'Wiki',
        webUrl: `${PUBLIC_URL}/platform/teams/${team.id}#tab-${first.id}`,
        sortOrderIndex: '10000',
        configuration: {
          entityId: 'Wiki',
          contentUrl: 'https://example.com/wiki',
          websiteUrl: 'https://example.com/wiki',
          removeUrl: null,
        },
        teamsApp: {
          id: 'com.microsoft.teamspace.tab.web',
          externalId: null,
          displayName: 'Website',
          distributionMethod: 'store',
        },
      });
      expect(second.sortOrderIndex).toBe('10100');
      expect(second.configuration).toEqual({
        entityId: null,
        contentUrl: null,
        websiteUrl: null,
        removeUrl: null,
      });
      expect(await teams.listTabs(team.id, general.id)).toEqual([first, second]);
    });

    it('refuses a channel of another team with NotFound', async () => {
      const team = await teams.createTeam(newTeamSpec());
      const other = await teams.createTeam(newTeamSpec());
      const otherGeneral = await teams.primaryChannel(other.id);
      await expect(teams.listTabs(team.id, otherGeneral.id)).rejects.toThrow(NotFound);
      await expect(teams.createTab(team.id, otherGeneral.id, webTab('X', 'https://x.test'))).rejects.toThrow(
        NotFound,
      );
      await expect(teams.postMessage(team.id, otherGeneral.id, 'hi')).rejects.toThrow(NotFound);
    });

    it('stores posted messages', async () => {
      const team = await teams.createTeam(newTeamSpec());
      const general = await teams.primaryChannel(team.id);
      await teams.postMessage(team.id, general.id, '<p>Welcome!</p>');
      expect((await teams.viewTeam(team.id))?.generalMessages.map((m) => m.body)).toEqual([
        '<p>Welcome!</p>',
      ]);
    });
  });

  describe('updates, archiving and deletion', () => {
    it('merges settings key by key and changes only the given fields', async () => {
      const team = await teams.createTeam(newTeamSpec({ settings: { funSettings: { allowGiphy: false } } }));
      await teams.updateTeam(team.id, {
        displayName: 'Renamed',
        classification: 'Internal',
        funSettings: { giphyContentRating: 'strict' },
        messagingSettings: { allowTeamMentions: false },
      });
      const updated = await teams.getTeam(team.id);
      expect(updated).toMatchObject({
        displayName: 'Renamed',
        description: 'Going to the moon.',
        classification: 'Internal',
      });
      expect(updated?.funSettings).toEqual({
        ...DEFAULT_TEAM_SETTINGS.funSettings,
        allowGiphy: false,
        giphyContentRating: 'strict',
      });
      expect(updated?.messagingSettings).toEqual({
        ...DEFAULT_TEAM_SETTINGS.messagingSettings,
        allowTeamMentions: false,
      });
      await teams.updateTeam(team.id, { classification: null });
      expect((await teams.getTeam(team.id))?.classification).toBeNull();
    });

    it('archives (with the site read-only when asked) and unarchives', async () => {
      const team = await teams.createTeam(newTeamSpec());
      await teams.archiveTeam(team.id, true);
      expect(await teams.viewTeam(team.id)).toMatchObject({
        team: { isArchived: true },
        siteReadOnlyForMembers: true,
      });
      await teams.unarchiveTeam(team.id);
      expect(await teams.viewTeam(team.id)).toMatchObject({
        team: { isArchived: false },
        siteReadOnlyForMembers: false,
      });
      await teams.archiveTeam(team.id, false);
      expect(await teams.viewTeam(team.id)).toMatchObject({
        team: { isArchived: true },
        siteReadOnlyForMembers: false,
      });
    });

    it('deletes a team with everything in it', async () => {
      const team = await teams.createTeam(newTeamSpec());
      const general = await teams.primaryChannel(team.id);
      await teams.createChannel(team.id, { displayName: 'Extra', membershipType: 'standard' }, ALEX);
      await teams.createTab(team.id, general.id, webTab('Tab', 'https://example.com'));
      await teams.addMember(team.id, MEGAN, 'member');
      await teams.postMessage(team.id, general.id, 'hello');
      await teams.deleteTeam(team.id);
      for (const table of PLATFORM_TABLES) expect(await count(table, team.id)).toBe(0);
      expect(await teams.getTeam(team.id)).toBeUndefined();
      await expect(teams.deleteTeam(team.id)).rejects.toThrow(NotFound);
    });
  });

  it('throws NotFound for unknown teams, and answers undefined where the port says so', async () => {
    const id = randomUUID();
    const calls: Array<() => Promise<unknown>> = [
      () => teams.updateTeam(id, { displayName: 'x' }),
      () => teams.deleteTeam(id),
      () => teams.archiveTeam(id, false),
      () => teams.unarchiveTeam(id),
      () => teams.listMembers(id),
      () => teams.addMember(id, ALEX, 'owner'),
      () => teams.listChannels(id),
      () => teams.primaryChannel(id),
      () => teams.createChannel(id, { displayName: 'x', membershipType: 'standard' }, ALEX),
      () => teams.listTabs(id, '19:x@thread.tacv2'),
      () => teams.createTab(id, '19:x@thread.tacv2', webTab('x', 'https://x.test')),
      () => teams.postMessage(id, '19:x@thread.tacv2', 'x'),
    ];
    for (const call of calls) await expect(call()).rejects.toThrow(NotFound);
    expect(await teams.getTeam(id)).toBeUndefined();
    expect(await teams.findTeamByProvisioningKey(`job-${randomUUID()}`)).toBeUndefined();
    expect(await teams.viewTeam(id)).toBeUndefined();
  });

  describe('knobs', () => {
    it('fails the configured calls with PlatformError, transient unless 500, and nothing is written', async () => {
      const faulty = new EmbeddedTeams(store.db, {
        publicUrl: () => PUBLIC_URL,
        latencyMs: 0,
        faults: [
          { call: 2, status: 429 },
          { call: 3, status: 500 },
          { call: 4, status: 503 },
        ],
      });
      const spec = newTeamSpec();
      const team = await faulty.createTeam(spec);
      const failure = (promise: Promise<unknown>) =>
        promise.then(
          () => undefined,
          (error: unknown) => error,
        );
      const throttled = await failure(faulty.addMember(team.id, MEGAN, 'member'));
      expect(throttled).toBeInstanceOf(PlatformError);
      expect(throttled).toMatchObject({ status: 429, transient: true, retryAfterMs: 1000 });
      expect(
        await failure(faulty.createChannel(team.id, { displayName: 'X', membershipType: 'standard' }, ALEX)),
      ).toMatchObject({
        status: 500,
        transient: false,
      });
      const unavailable = await failure(faulty.createTeam(newTeamSpec({ provisioningKey: 'never-written' })));
      expect(unavailable).toMatchObject({ status: 503, transient: true });
      expect(await faulty.listMembers(team.id)).toHaveLength(1);
      expect(await faulty.listChannels(team.id)).toHaveLength(1);
      expect(await teams.findTeamByProvisioningKey('never-written')).toBeUndefined();
    });

    it('counts calls per adapter, and not the seeding or viewer reads', async () => {
      const faulty = new EmbeddedTeams(store.db, {
        publicUrl: () => PUBLIC_URL,
        latencyMs: 0,
        faults: [{ call: 1, status: 503 }],
      });
      await faulty.listTeamSummaries();
      await faulty.viewTeam(randomUUID());
      await expect(faulty.getTeam(randomUUID())).rejects.toMatchObject({ status: 503 });
      await expect(faulty.getTeam(randomUUID())).resolves.toBeUndefined();
    });

    it('waits the configured latency before every call', async () => {
      const slow = new EmbeddedTeams(store.db, { publicUrl: () => PUBLIC_URL, latencyMs: 150, faults: [] });
      const started = performance.now();
      await slow.getTeam(randomUUID());
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(140);
      expect(elapsed).toBeLessThan(5000);
    });
  });

  describe('seed', () => {
    it('creates the template team the demo clone template copies, once', async () => {
      expect(await seedEmbeddedTeams(teams)).toBe(true);
      expect(await seedEmbeddedTeams(teams)).toBe(false);
      const team = await teams.getTeam(SEED_TEMPLATE_TEAM_ID);
      expect(team?.displayName).toBe('Onboarding template team');
      const channels = await teams.listChannels(SEED_TEMPLATE_TEAM_ID);
      expect(channels.map((c) => c.displayName)).toEqual(['General', 'Welcome', 'Resources']);
      const welcome = channels[1]?.id ?? '';
      expect((await teams.listTabs(SEED_TEMPLATE_TEAM_ID, welcome)).map((t) => t.teamsApp.id)).toEqual([
        'com.microsoft.teamspace.tab.web',
      ]);
      const members = await teams.listMembers(SEED_TEMPLATE_TEAM_ID);
      expect(members.length).toBeGreaterThanOrEqual(3);
      expect(members.every((m) => m.displayName !== m.userId)).toBe(true);
      expect(members.some((m) => m.roles.includes('owner'))).toBe(true);

      const cohort = await teams.cloneTeam({
        displayName: 'Cohort-Spring 2026',
        description: '',
        visibility: 'private',
        mailNickname: 'cohortspring2026',
        ownerId: ALEX,
        provisioningKey: `job-${randomUUID()}`,
        sourceTeamId: SEED_TEMPLATE_TEAM_ID,
        parts: { apps: true, tabs: true, settings: true, channels: true, members: false },
      });
      expect((await teams.listChannels(cohort.id)).map((c) => c.displayName)).toEqual([
        'General',
        'Welcome',
        'Resources',
      ]);
    });
  });
});
