import type { DelegatedGrant } from '../../domain/delegation';
import { NotFound } from '../../domain/errors';
import { requestClassKey } from '../../domain/graphBudget';
import type { Team } from '../../contract';
import {
  type CloneTeamSpec,
  type NewTeamSpec,
  type OperationCheckpoint,
  type OperationState,
  PlatformError,
} from '../port';
import type { GraphClient } from './client';
import type { Binds } from './binds';
import { groupPeople } from './groupPeople';
import { type GraphGroup, type GraphTeam, graphSettings, toTeam } from './mapping';
import { odataString, segment } from './paths';
import { acceptedOperation, type OperationPoller } from './operations';
import type { GroupUpdate, GroupUpsert, TeamClone, TeamFromGroup } from './payloads';

/** The bucket `POST /teams` spends: a job waiting to send it comes back at its turn. */
const CREATE_TEAM_KEY = requestClassKey('createTeam');

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
 * people (unlike a description or a mail alias). The group request carries the owners and the
 * first members (a team made from a group takes its members, `api/team-post.md`; a group request
 * takes at most 20 owners and members together, `api/group-post-groups.md`); the members step adds
 * the rest in bulk.
 *
 * Clones: `POST /teams/{id}/clone` makes the group itself and ignores `mailNickname`
 * (`api/team-clone.md`), so nothing we choose identifies the copy. What Graph does return is the
 * operation's `Location`: the job checkpoints it when it parks to wait, and a resumed job polls that
 * operation, whose `targetResourceId` is the new team, instead of cloning again. (A crash between
 * Graph accepting the clone and that checkpoint being written, one database write, is the window
 * left.)
 */

/** The part of GraphTeams that brings teams into existence. */
export class TeamProvisioner {
  constructor(
    private readonly client: GraphClient,
    private readonly poller: OperationPoller,
    private readonly binds: Binds,
    private readonly replicationDelayMs: number,
  ) {}

  /**
   * Creates (or, for a resumed job, finishes creating) the team of `spec`. With a job's
   * `operation`, each wait parks the job, and the step resumes where the state says: waiting for
   * the new group to replicate, following the creation, or waiting for the team to be visible.
   *
   * Nothing is read first: the group's upsert by its key creates it (201) or finds it (204, a
   * resumed job), so a new team costs one group write. Graph documents that a team made from a
   * group younger than 15 minutes may fail with 404 until the group replicates, and that the
   * creation is retried three times ten seconds apart (`api/team-post.md`): a new group's team is
   * asked for after that first interval, not at once (a 404 the job knows is coming), and each 404
   * then waits another interval, never a resent `POST /teams` sooner.
   */
  async createTeam(spec: NewTeamSpec, operation?: OperationCheckpoint): Promise<Team & { found?: boolean }> {
    const checkpoint = this.poller.through(operation);
    const saved = operation?.state;
    const what = `create team "${spec.displayName}"`;
    if (saved?.teamId && !saved.location) return this.visible(checkpoint, saved.teamId, saved);
    let groupId: string;
    if (saved?.location) {
      const state = { ...saved, location: saved.location };
      const made = (await this.poller.follow(checkpoint, state, what, 'create', true)) ?? saved.teamId;
      if (!made)
        throw new PlatformError('Microsoft Graph finished creating a team it did not name', 502, false);
      groupId = made;
    } else if (saved?.groupId) {
      groupId = saved.groupId;
      await this.teamFromGroup(checkpoint, groupId, spec, saved.misses ?? 0);
    } else {
      const upserted = await this.upsertGroup(spec, checkpoint);
      groupId = upserted.id;
      if (upserted.created) {
        // A group made now cannot have a team, and is not in Teams yet: wait Graph's interval first.
        await checkpoint.wait({
          for: 'replication',
          afterMs: this.replicationDelayMs,
          state: { groupId, misses: 0 },
          budgetKey: CREATE_TEAM_KEY,
        });
        await this.teamFromGroup(checkpoint, groupId, spec, 0);
      } else {
        const team = await this.findTeam(groupId);
        if (team) return { ...toTeam(team), found: true };
        await this.teamFromGroup(checkpoint, groupId, spec, saved?.misses ?? 0);
      }
    }
    return this.visible(checkpoint, groupId);
  }

  /**
   * Puts the label on the team's group with the person's delegated token: Graph refuses
   * `assignedLabels` to application tokens (`api/group-update.md`), so this is the one Graph call
   * that is never sent with Steward's own token.
   */
  async applyLabel(teamId: string, labelId: string, grant: DelegatedGrant): Promise<void> {
    await this.client.send({
      method: 'PATCH',
      path: `/groups/${segment(teamId)}`,
      body: { assignedLabels: [{ labelId }] } satisfies GroupUpdate,
      delegated: grant,
    });
  }

  /**
   * Clones `spec.sourceTeamId`, or, when the checkpoint names a clone an earlier attempt started,
   * follows that one.
   */
  async cloneTeam(spec: CloneTeamSpec, operation?: OperationCheckpoint): Promise<Team> {
    const checkpoint = this.poller.through(operation);
    const saved = operation?.state;
    if (saved?.teamId && !saved.location) return this.visible(checkpoint, saved.teamId, saved);
    const parts = (Object.keys(spec.parts) as Array<keyof CloneTeamSpec['parts']>).filter(
      (p) => spec.parts[p],
    );
    const start = async () => {
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
        } satisfies TeamClone,
      });
      // The clone's own team id is not known yet: Content-Location names the source.
      return { location: acceptedOperation(response, 'clone the team').location, teamId: undefined };
    };
    const teamId = await this.poller.carryOut(checkpoint, start, `clone team ${spec.sourceTeamId}`, 'clone');
    if (!teamId) {
      throw new PlatformError('Microsoft Graph finished the clone without naming the new team', 502, false);
    }
    return this.visible(checkpoint, teamId);
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

  /**
   * The job's group, made now (`created`) or, for a resumed job, found by its key: a 204 names no
   * group, which is then read by its key (waited for while Graph replicates it).
   */
  private async upsertGroup(
    spec: NewTeamSpec,
    checkpoint: OperationCheckpoint,
  ): Promise<{ id: string; created: boolean }> {
    const path = `/groups(uniqueName=${encodeURIComponent(odataString(uniqueName(spec.provisioningKey)))})`;
    const { owners, members } = groupPeople(spec);
    const response = await this.client
      .send<GraphGroup>({
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
          'owners@odata.bind': owners.map((id) => this.binds.user(id)),
          'members@odata.bind': members.map((id) => this.binds.user(id)),
        } satisfies GroupUpsert,
      })
      .catch((error: unknown) => {
        // An upsert that updates an existing group may refuse binding its people again ("One or
        // more added object references already exist"): the group is there, as when it says 204.
        if (error instanceof PlatformError && error.status === 400 && /already exist/i.test(error.message))
          return { status: 204, headers: {}, body: undefined };
        throw error;
      });
    if (response.body?.id) return { id: response.body.id, created: response.status === 201 };
    // 204: the group existed (an earlier attempt made it); a young one is read once replicated.
    const group = await this.poller.appear(
      checkpoint,
      () => this.groupByKey(spec.provisioningKey),
      `The group for provisioning key ${spec.provisioningKey}`,
      {},
    );
    return { id: group.id, created: false };
  }

  /**
   * Makes the team from its group and follows the operation. Returns without waiting when Graph
   * answers 409: a team is already being made from this group (by an earlier run of this job),
   * and the caller waits for it to be visible.
   */
  private async teamFromGroup(
    checkpoint: OperationCheckpoint,
    groupId: string,
    spec: NewTeamSpec,
    notFound: number,
  ): Promise<void> {
    // Display name, visibility and members come from the group; Graph refuses them here.
    const body = {
      'template@odata.bind': this.binds.template(),
      'group@odata.bind': this.binds.group(groupId),
      ...graphSettings(spec.settings),
    } satisfies TeamFromGroup;
    for (let attempt = notFound; ; attempt++) {
      try {
        const response = await this.client.send({ method: 'POST', path: '/teams', body });
        const accepted = acceptedOperation(response, 'create the team');
        const state = { location: accepted.location, teamId: accepted.teamId ?? groupId };
        await this.poller.follow(checkpoint, state, `create team "${spec.displayName}"`, 'create');
        return;
      } catch (error) {
        // A group younger than 15 minutes may not have reached Teams yet: Graph documents a 404
        // here and advises three retries ten seconds apart (the state keeps the group, so the
        // job comes back to this request, not to the group's upsert and a read of it).
        if (error instanceof NotFound && attempt < 3) {
          const state = { groupId, misses: attempt + 1 };
          await checkpoint.wait({
            for: 'replication',
            afterMs: this.replicationDelayMs,
            state,
            budgetKey: CREATE_TEAM_KEY,
          });
          continue;
        }
        if (error instanceof PlatformError && error.status === 409) return;
        throw error;
      }
    }
  }

  private findTeam(teamId: string): Promise<GraphTeam | undefined> {
    return this.client.find<GraphTeam>(`/teams/${segment(teamId)}`);
  }

  /**
   * The team once Graph shows it (a new team answers 404 until it is replicated). A team whose
   * operation has just ended is first read after Graph's replication interval; a resumed wait
   * (`saved`) reads at once.
   */
  private async visible(
    checkpoint: OperationCheckpoint,
    teamId: string,
    saved?: OperationState,
  ): Promise<Team> {
    const read = () => this.findTeam(teamId);
    const what = `Team ${teamId}`;
    return toTeam(
      await this.poller.appear(checkpoint, read, what, { teamId }, saved, this.replicationDelayMs),
    );
  }
}

function uniqueName(provisioningKey: string): string {
  return `steward-${provisioningKey}`;
}
