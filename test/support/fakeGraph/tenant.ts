import { randomBytes, randomUUID } from 'node:crypto';
import { fail, HttpError, type Json } from './protocol';
import {
  type LoggedRequest,
  type FakeUser,
  type GroupRecord,
  type TeamRecord,
  type ChannelRecord,
  type OperationRecord,
  type FakeGraphOptions,
} from './records';

/** The simulated tenant's state, its seeding (`addUser`, `addTeam`, …) and its lookups. */
export abstract class Tenant {
  readonly tenantId: string;
  readonly clientId: string;
  readonly clientSecret: string;

  /** Every request, Entra ID's included, in arrival order. */
  readonly requests: LoggedRequest[] = [];

  readonly users = new Map<string, FakeUser>();

  readonly groups = new Map<string, GroupRecord>();

  readonly teams = new Map<string, TeamRecord>();

  readonly operations = new Map<string, OperationRecord>();

  /** Directory objects per user id, as `/users/{id}/memberOf` lists them. */
  readonly memberOf = new Map<string, Json[]>();

  readonly labels: Json[] = [];

  readonly apps = new Map<string, Json>();

  operationPolls: number;
  pageSize: number;
  readonly options: FakeGraphOptions;

  /** POST /teams from a group answers 404 this many times first (Graph's replication delay). */
  replicationDelays = 0;
  protected nextOperationFailure: string | undefined;

  /** The Graph requests (not Entra ID's). */
  graphRequests(): LoggedRequest[] {
    return this.requests.filter((r) => r.path.startsWith('/v1.0/'));
  }

  /** Adds a person. */
  addUser(user: FakeUser): FakeUser {
    this.users.set(user.id, user);
    return user;
  }

  /**
   * Adds a Microsoft 365 group without a team, and lists it in `/users/{id}/memberOf` of its
   * members (as a directory group that audience rules read).
   */
  addGroup(group: {
    id?: string;
    displayName: string;
    description?: string;
    mailNickname: string;
    memberIds?: string[];
  }): string {
    const record = this.newGroup(
      {
        displayName: group.displayName,
        description: group.description ?? null,
        mailNickname: group.mailNickname,
        visibility: 'Private',
      },
      group.id,
    );
    for (const userId of group.memberIds ?? []) {
      record.memberIds.add(userId);
      const entries = this.memberOf.get(userId) ?? [];
      entries.push({
        '@odata.type': '#microsoft.graph.group',
        id: record.id,
        displayName: record.displayName,
        description: record.description,
        mailNickname: record.mailNickname,
        groupTypes: ['Unified'],
      });
      this.memberOf.set(userId, entries);
    }
    return record.id;
  }

  /**
   * Adds an existing team (and its group) with a General channel, and the other channels given
   * with their tabs (their apps must be in `apps` for the tabs to be readable with the app).
   */
  addTeam(team: {
    /** The team's (and group's) id; a new GUID by default. */
    id?: string;
    displayName: string;
    description?: string;
    visibility?: 'Public' | 'Private';
    ownerIds?: string[];
    memberIds?: string[];
    /** Guests: members whose conversationMember role is `guest`. */
    guestIds?: string[];
    /** When the team was made (default now), and its last activity day for the activity report. */
    createdDateTime?: string;
    lastActivityDate?: string;
    settings?: Record<string, Json>;
    channels?: Array<{
      displayName: string;
      description?: string;
      tabs?: Array<{ displayName: string; teamsAppId: string; configuration?: Json }>;
    }>;
  }): string {
    const group = this.newGroup(
      {
        displayName: team.displayName,
        description: team.description ?? null,
        mailNickname: team.displayName.replace(/[^A-Za-z0-9]/g, '') + randomBytes(2).toString('hex'),
        visibility: team.visibility ?? 'Private',
      },
      team.id,
    );
    for (const id of team.ownerIds ?? []) {
      group.ownerIds.add(id);
      group.memberIds.add(id);
    }
    for (const id of team.memberIds ?? []) group.memberIds.add(id);
    const record = this.newTeam(group, team.settings ?? {});
    for (const userId of team.guestIds ?? []) {
      group.memberIds.add(userId);
      record.members.push({ id: randomUUID(), userId, roles: ['guest'] });
    }
    if (team.createdDateTime) record.createdDateTime = team.createdDateTime;
    if (team.lastActivityDate) record.lastActivityDate = team.lastActivityDate;
    for (const spec of team.channels ?? []) {
      const channel = this.newChannel(spec.displayName, spec.description ?? null, 'standard');
      channel.tabs = (spec.tabs ?? []).map((tab) => ({
        id: randomUUID(),
        displayName: tab.displayName,
        teamsAppId: tab.teamsAppId,
        configuration: tab.configuration ?? {},
      }));
      record.channels.push(channel);
    }
    return group.id;
  }

  // ---- directory ----

  protected user(key: string): FakeUser {
    const k = key.toLowerCase();
    // An object id is a GUID, which Graph reads in any case (and always writes in lower case).
    const user =
      this.users.get(key) ??
      [...this.users.values()].find(
        (u) => u.id.toLowerCase() === k || u.userPrincipalName.toLowerCase() === k,
      );
    if (user) return user;
    if (!key.includes('@') && !/^[0-9a-f-]+$/i.test(key))
      throw new HttpError(fail(400, 'Request_BadRequest', `Invalid object identifier '${key}'.`));
    throw new HttpError(fail(404, 'Request_ResourceNotFound', `Resource '${key}' does not exist.`));
  }

  // ---- groups ----

  protected newGroup(
    fields: Pick<GroupRecord, 'displayName' | 'description' | 'mailNickname' | 'visibility'>,
    id: string = randomUUID(),
  ): GroupRecord {
    if (this.groups.has(id)) throw new Error(`The fake already has a group ${id}.`);
    const group: GroupRecord = {
      id,
      classification: null,
      uniqueName: null,
      ownerIds: new Set(),
      memberIds: new Set(),
      assignedLabels: [],
      extensions: new Map(),
      ...fields,
    };
    this.groups.set(group.id, group);
    return group;
  }

  /** The group was made moments ago and Graph has not replicated it yet (its reads answer 404). */
  protected replicating(group: GroupRecord): boolean {
    return group.visibleAt !== undefined && Date.now() < group.visibleAt;
  }

  protected group(id: string): GroupRecord {
    const group = this.groups.get(id);
    if (!group)
      throw new HttpError(fail(404, 'Request_ResourceNotFound', `Resource '${id}' does not exist.`));
    return group;
  }

  protected userFromBind(bind: string): string {
    const match = /\/users(?:\('([^']+)'\)|\/([^/]+))$/.exec(bind);
    const id = decodeURIComponent(match?.[1] ?? match?.[2] ?? '');
    if (!this.users.has(id))
      throw new HttpError(fail(400, 'Request_BadRequest', `Invalid object identifier '${id}'.`));
    return id;
  }

  // ---- teams ----

  protected team(id: string): TeamRecord {
    const team = this.teams.get(id);
    if (!team) throw new HttpError(fail(404, 'NotFound', `No team found with Group Id ${id}`));
    return team;
  }

  protected newTeam(group: GroupRecord, settings: Record<string, Json>): TeamRecord {
    const team: TeamRecord = {
      id: group.id,
      internalId: `19:${randomBytes(16).toString('hex')}@thread.tacv2`,
      createdDateTime: new Date().toISOString(),
      isArchived: false,
      siteReadOnlyForMembers: false,
      settings: {
        memberSettings: {
          allowCreateUpdateChannels: true,
          allowCreatePrivateChannels: true,
          allowDeleteChannels: true,
        },
        guestSettings: { allowCreateUpdateChannels: false, allowDeleteChannels: false },
        messagingSettings: { allowUserEditMessages: true, allowUserDeleteMessages: true },
        funSettings: { allowGiphy: true, giphyContentRating: 'moderate' },
        ...settings,
      },
      members: [...group.memberIds, ...group.ownerIds]
        .filter((id, i, all) => all.indexOf(id) === i)
        .map((userId) => ({ id: randomUUID(), userId, roles: group.ownerIds.has(userId) ? ['owner'] : [] })),
      channels: [],
      installedApps: new Set(),
      visibleAt: 0,
    };
    team.channels.push(this.newChannel('General', null, 'standard'));
    this.teams.set(team.id, team);
    return team;
  }

  protected newChannel(
    displayName: string,
    description: string | null,
    membershipType: string,
  ): ChannelRecord {
    return {
      id: `19:${randomBytes(12).toString('hex')}@thread.tacv2`,
      displayName,
      description,
      membershipType,
      createdDateTime: new Date().toISOString(),
      tabs: [],
      messages: [],
    };
  }

  protected channel(teamId: string, channelId: string): { team: TeamRecord; channel: ChannelRecord } {
    const team = this.team(teamId);
    const channel = team.channels.find((c) => c.id === channelId);
    if (!channel) throw new HttpError(fail(404, 'NotFound', `Channel ${channelId} not found.`));
    return { team, channel };
  }

  protected constructor(options: FakeGraphOptions) {
    this.tenantId = options.tenantId ?? '11111111-2222-3333-4444-555555555555';
    this.clientId = options.clientId ?? 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';
    this.clientSecret = options.clientSecret ?? 'fake-client-secret-value';
    this.operationPolls = options.operationPolls ?? 1;
    this.pageSize = options.pageSize ?? 100;
    this.options = options;
  }

  /** `https://127.0.0.1:<port>`: the simulator's origin, Entra ID's authority host. */
  abstract get origin(): string;

  /** Graph's base URL on the simulator. */
  abstract get baseUrl(): string;
}
