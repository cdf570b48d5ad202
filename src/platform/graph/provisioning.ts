import { NotFound } from '../../domain/errors';
import type { Team } from '../../domain/wire';
import { type CloneTeamSpec, type NewTeamSpec, PlatformError } from '../port';
import type { GraphClient, Sleep } from './client';
import { odataString, segment } from './paths';
import { type GraphTeam, pickSettings, toTeam } from './mapping';
import { acceptedOperation, type OperationPoller } from './operations';

/**
 * Creating and cloning teams so that a job resumed after a crash finds its team instead of making
 * a second one.
 *
 * New teams: the group comes first, upserted by an alternate key Graph lets us choose,
 * `PATCH /groups(uniqueName='steward-{provisioningKey}')` with `Prefer: create-if-missing`; the
 * team is then made from that group (`POST /teams` with `group@odata.bind`). The key exists in
 * Graph from the very first call, so there is no window in which a team exists that the key does
 * not find: a resumed job re-runs `createTeam`, finds the group, and a second `POST /teams` for it
 * answers 409, which means "wait for the one already under way". `uniqueName` is not shown to
 * people (unlike a description or a mail alias).
 *
 * Clones: `POST /teams/{id}/clone` makes the group itself, so it cannot carry a uniqueName. The
 * clone's mail alias (`mailNickname`, unique among Microsoft 365 groups of a tenant) is the handle
 * instead, and an open extension `com.steward.provisioning` written on the new group as soon as it
 * is readable says which job made it. A resumed `cloneTeam` with the same spec finds the group by
 * its alias, checks the key and waits for that clone. `findTeamByProvisioningKey` cannot search
 * open extensions, so it finds created teams only; for clones the worker's retry of `cloneTeam` is
 * what resumes. The one gap: a crash in the seconds between Graph accepting the clone and the
 * marker being written leaves a group with our alias but no key; the resumed clone then fails with
 * a readable "alias already used" error rather than making a duplicate.
 */

const MARKER = 'com.steward.provisioning';

interface GraphGroup {
  id: string;
}

interface Marker {
  provisioningKey?: string;
}

/** `@odata.bind` URLs: Graph wants absolute URLs of its own (so a sovereign cloud's host, not the public one). */
export class Binds {
  constructor(private readonly baseUrl: string) {}

  /** A user, for owners, members and conversation members. */
  user(userId: string): string {
    return `${this.baseUrl}/users('${encodeURIComponent(userId)}')`;
  }

  /** A group, to make a team from it. */
  group(groupId: string): string {
    return `${this.baseUrl}/groups('${encodeURIComponent(groupId)}')`;
  }

  /** The standard team template. */
  template(): string {
    return `${this.baseUrl}/teamsTemplates('standard')`;
  }

  /** An app of the tenant's catalog, for tabs. */
  app(teamsAppId: string): string {
    return `${this.baseUrl}/appCatalogs/teamsApps/${encodeURIComponent(teamsAppId)}`;
  }
}

/** The part of GraphTeams that brings teams into existence. */
export class TeamProvisioner {
  constructor(
    private readonly client: GraphClient,
    private readonly poller: OperationPoller,
    private readonly binds: Binds,
    private readonly sleep: Sleep,
    private readonly replicationDelayMs: number,
  ) {}

  /** Creates (or, for a resumed job, finishes creating) the team of `spec`. */
  async createTeam(spec: NewTeamSpec): Promise<Team> {
    const group = (await this.groupByKey(spec.provisioningKey)) ?? (await this.upsertGroup(spec));
    if (!(await this.findTeam(group.id))) await this.teamFromGroup(group.id, spec);
    if (spec.sensitivityLabelId) {
      await this.client.send({
        method: 'PATCH',
        path: `/groups/${segment(group.id)}`,
        body: { assignedLabels: [{ labelId: spec.sensitivityLabelId }] },
      });
    }
    return this.teamEventually(group.id);
  }

  /** Clones (or resumes cloning) `spec.sourceTeamId`. */
  async cloneTeam(spec: CloneTeamSpec): Promise<Team> {
    const existing = await this.groupByMailNickname(spec.mailNickname);
    if (existing) {
      const marker = await this.client.find<Marker>(`/groups/${segment(existing.id)}/extensions/${MARKER}`);
      if (marker?.provisioningKey !== spec.provisioningKey) {
        throw new PlatformError(
          `The mail alias "${spec.mailNickname}" is already used by another group; choose another team email`,
          409,
          false,
        );
      }
      return this.teamEventually(existing.id, { patient: true });
    }

    const parts = (Object.keys(spec.parts) as Array<keyof CloneTeamSpec['parts']>).filter(
      (p) => spec.parts[p],
    );
    const response = await this.client.send({
      method: 'POST',
      path: `/teams/${segment(spec.sourceTeamId)}/clone`,
      body: {
        displayName: spec.displayName,
        description: spec.description,
        mailNickname: spec.mailNickname,
        visibility: spec.visibility,
        // Graph's clonableTeamParts flags: a comma-separated string, not an array.
        partsToClone: parts.join(','),
      },
    });
    const accepted = acceptedOperation(response, 'clone the team');
    // The marker is written as early as Graph lets us (the new group appears within seconds), and
    // tried again on every poll until it is there.
    let marked = false;
    const mark = async () => {
      if (!marked && accepted.teamId) marked = await this.writeMarker(accepted.teamId, spec.provisioningKey);
    };
    await mark();
    const teamId = await this.poller.wait(accepted, `clone team ${spec.sourceTeamId}`, mark);
    if (!teamId) {
      throw new PlatformError('Microsoft Graph finished the clone without naming the new team', 502, false);
    }
    accepted.teamId ??= teamId;
    await mark();
    return this.teamEventually(teamId);
  }

  /** The created team whose group carries `key`, if the job got that far. */
  async findTeamByProvisioningKey(key: string): Promise<Team | undefined> {
    const group = await this.groupByKey(key);
    if (!group) return undefined;
    const team = await this.findTeam(group.id);
    return team && toTeam(team);
  }

  private groupByKey(key: string): Promise<GraphGroup | undefined> {
    return this.client.find<GraphGroup>(
      `/groups(uniqueName=${encodeURIComponent(odataString(uniqueName(key)))})?$select=id`,
    );
  }

  private async groupByMailNickname(mailNickname: string): Promise<GraphGroup | undefined> {
    const filter = encodeURIComponent(`mailNickname eq ${odataString(mailNickname)}`);
    const groups = await this.client.list<GraphGroup>(`/groups?$filter=${filter}&$select=id`, undefined, 1);
    return groups[0];
  }

  private async upsertGroup(spec: NewTeamSpec): Promise<GraphGroup> {
    const path = `/groups(uniqueName=${encodeURIComponent(odataString(uniqueName(spec.provisioningKey)))})`;
    const response = await this.client.send<GraphGroup>({
      method: 'PATCH',
      path,
      headers: { prefer: 'create-if-missing' },
      body: {
        displayName: spec.displayName,
        description: spec.description,
        mailNickname: spec.mailNickname,
        mailEnabled: true,
        securityEnabled: false,
        groupTypes: ['Unified'],
        visibility: spec.visibility === 'public' ? 'Public' : 'Private',
        // An app-made group needs an owner to become a team; owners also belong in members to be
        // members of the team.
        'owners@odata.bind': [this.binds.user(spec.ownerId)],
        'members@odata.bind': [this.binds.user(spec.ownerId)],
      },
    });
    if (response.body?.id) return response.body;
    // 204: the group existed after all (a retried request that had got through).
    const group = await this.groupByKey(spec.provisioningKey);
    if (!group) throw new NotFound(`The group for provisioning key ${spec.provisioningKey} vanished`);
    return group;
  }

  private async teamFromGroup(groupId: string, spec: NewTeamSpec): Promise<void> {
    // Display name, visibility and members come from the group; Graph refuses them here.
    const body = {
      'template@odata.bind': this.binds.template(),
      'group@odata.bind': this.binds.group(groupId),
      ...pickSettings(spec.settings),
    };
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await this.client.send({ method: 'POST', path: '/teams', body });
        const accepted = acceptedOperation(response, 'create the team');
        accepted.teamId ??= groupId;
        await this.poller.wait(accepted, `create team "${spec.displayName}"`);
        return;
      } catch (error) {
        // A group younger than ~15 minutes may not have reached Teams yet: Graph documents a 404
        // here and advises three retries ten seconds apart.
        if (error instanceof NotFound && attempt < 3) {
          await this.sleep(this.replicationDelayMs);
          continue;
        }
        // 409: a team is already being made from this group (by an earlier run of this job).
        if (error instanceof PlatformError && error.status === 409) {
          await this.poller.eventually(() => this.findTeam(groupId), `Team ${groupId}`, { patient: true });
          return;
        }
        throw error;
      }
    }
  }

  /**
   * Records the job's key on a clone's group; false when that has to wait. Only a final refusal
   * (a missing permission, say) is an error: the marker matters only if the job is resumed, and a
   * clone that Graph finished is worth more than a marker that could not be written yet.
   */
  private async writeMarker(groupId: string, provisioningKey: string): Promise<boolean> {
    try {
      await this.client.send({
        method: 'POST',
        path: `/groups/${segment(groupId)}/extensions`,
        body: { '@odata.type': 'microsoft.graph.openTypeExtension', extensionName: MARKER, provisioningKey },
      });
      return true;
    } catch (error) {
      if (error instanceof NotFound) return false; // the clone's group is not readable yet
      if (error instanceof PlatformError && error.status === 409) return true; // written by an earlier run
      if (error instanceof PlatformError && error.transient) return false;
      throw error;
    }
  }

  private findTeam(teamId: string): Promise<GraphTeam | undefined> {
    return this.client.find<GraphTeam>(`/teams/${segment(teamId)}`);
  }

  private async teamEventually(teamId: string, options: { patient?: boolean } = {}): Promise<Team> {
    const team = await this.poller.eventually(() => this.findTeam(teamId), `Team ${teamId}`, options);
    return toTeam(team);
  }
}

function uniqueName(provisioningKey: string): string {
  return `steward-${provisioningKey}`;
}
