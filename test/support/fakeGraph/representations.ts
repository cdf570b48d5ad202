import { type Json, type Reply } from './protocol';
import {
  type ChannelRecord,
  type FakeUser,
  type GroupRecord,
  MEMBER_TYPE,
  type ParsedRequest,
  type TeamRecord,
} from './records';
import { Tenant } from './tenant';

/**
 * Graph's JSON for each record of the simulated tenant, as v1.0 answers it (fields Graph always
 * returns, nulls where the tenant has nothing), and OData collections with `@odata.nextLink`.
 */
export abstract class Representations extends Tenant {
  protected collection(request: ParsedRequest, items: Json[]): Reply {
    const query = request.url.searchParams;
    const size = Math.min(Number(query.get('$top')) || Infinity, this.pageSize);
    const skip = Number(query.get('$skiptoken')) || 0;
    const body: Json = {
      '@odata.context': `${this.baseUrl}/$metadata#collection`,
      value: items.slice(skip, skip + size),
    };
    if (query.get('$count') === 'true') body['@odata.count'] = items.length;
    if (skip + size < items.length) {
      const next = new URL(request.url.href);
      next.searchParams.set('$skiptoken', String(skip + size));
      body['@odata.nextLink'] = next.href;
    }
    return { status: 200, body };
  }

  protected userJson(request: ParsedRequest, user: FakeUser): Json {
    const select = request.url.searchParams.get('$select');
    const full: Json = {
      givenName: null,
      surname: null,
      mail: null,
      jobTitle: null,
      department: null,
      companyName: null,
      country: null,
      city: null,
      usageLocation: null,
      preferredLanguage: null,
      businessPhones: [],
      ...user,
    };
    if (!select) return full;
    return Object.fromEntries(select.split(',').map((field) => [field, full[field] ?? null]));
  }

  protected groupJson(group: GroupRecord): Json {
    return {
      id: group.id,
      displayName: group.displayName,
      description: group.description,
      mailNickname: group.mailNickname,
      mail: `${group.mailNickname}@contoso.example`,
      visibility: group.visibility,
      classification: group.classification,
      groupTypes: ['Unified'],
      uniqueName: group.uniqueName,
      resourceProvisioningOptions: this.teams.has(group.id) ? ['Team'] : [],
    };
  }

  protected teamJson(team: TeamRecord): Json {
    const group = this.group(team.id);
    return {
      id: team.id,
      createdDateTime: team.createdDateTime,
      displayName: group.displayName,
      description: group.description,
      internalId: team.internalId,
      classification: group.classification,
      specialization: 'none',
      visibility: group.visibility.toLowerCase(),
      webUrl: `https://teams.microsoft.com/l/team/${encodeURIComponent(team.internalId)}/conversations?groupId=${team.id}&tenantId=${this.tenantId}`,
      isArchived: team.isArchived,
      tenantId: this.tenantId,
      summary: null,
      // Graph v1.0 does not return discoverySettings; the fields below are real v1.0 ones too.
      memberSettings: { allowCreateUpdateChannels: true, ...team.settings.memberSettings },
      guestSettings: { ...team.settings.guestSettings },
      messagingSettings: { ...team.settings.messagingSettings },
      funSettings: { ...team.settings.funSettings },
    };
  }

  protected membersJson(teamId: string): Json[] {
    return this.team(teamId).members.map((m) => this.memberJson(m));
  }

  protected memberJson(member: { id: string; userId: string; roles: string[] }): Json {
    const user = this.users.get(member.userId);
    return {
      '@odata.type': MEMBER_TYPE,
      id: member.id,
      roles: member.roles,
      displayName: user?.displayName ?? null,
      visibleHistoryStartDateTime: '0001-01-01T00:00:00Z',
      userId: member.userId,
      email: user?.mail ?? null,
      tenantId: this.tenantId,
    };
  }

  protected channelJson(team: TeamRecord, channel: ChannelRecord): Json {
    return {
      id: channel.id,
      createdDateTime: channel.createdDateTime,
      displayName: channel.displayName,
      description: channel.description,
      membershipType: channel.membershipType,
      isFavoriteByDefault: null,
      email: '',
      webUrl: `https://teams.microsoft.com/l/channel/${encodeURIComponent(channel.id)}?groupId=${team.id}`,
    };
  }

  protected tabJson(channel: ChannelRecord, tab: ChannelRecord['tabs'][number], expand: boolean): Json {
    const json: Json = {
      id: tab.id,
      displayName: tab.displayName,
      webUrl: `https://teams.microsoft.com/l/entity/${tab.teamsAppId}/${tab.id}?label=${encodeURIComponent(tab.displayName)}`,
      configuration: {
        entityId: null,
        contentUrl: null,
        websiteUrl: null,
        removeUrl: null,
        ...tab.configuration,
      },
    };
    if (expand)
      json.teamsApp = this.apps.get(tab.teamsAppId) ?? {
        id: tab.teamsAppId,
        externalId: null,
        displayName: '',
        distributionMethod: 'store',
      };
    return json;
  }
}
