import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { type AuditTarget, callerRecord } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import { AlreadyUnderWay, Conflict, Forbidden, NotFound } from '../../domain/errors';
import { teamChangeOf } from '../../domain/teamUpdate';
import type { JobCatalog } from '../jobs/registry';
import type {
  Job,
  Team,
  TeamChannel,
  TeamChannelPayload,
  TeamChannelTab,
  TeamChannelTabPayload,
  TeamMember,
  TeamMembershipPayload,
  TeamUpdate,
} from '../../contract';
import type { TeamsPlatform } from '../../platform/port';
import type { JobRepository } from '../../store/jobs/jobs';
import type { Database } from '../../store/schema';
import type { AuditLog } from '../audit/audit';
import type { DirectoryService } from '../directory/directory';
import type { EventBus, StewardEvent } from '../webhooks/events';
import type { ArchiveData } from '../jobData/archiveData';
import { requireActive, TeamAccess, teamNotFound } from '../access/teamAccess';

/** A change to a team made on the collaboration platform, as the `teams` trail records it. */
interface TeamChange {
  action: string;
  target: AuditTarget;
  details?: Record<string, unknown>;
}

/** Managing existing teams: reading, settings, members, channels, tabs, archive and deletion. */
export class TeamService {
  private readonly now: () => Date;
  private readonly access: TeamAccess;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      teams: TeamsPlatform;
      jobs: JobRepository;
      events: EventBus;
      audit: AuditLog;
      directory: DirectoryService;
      onQueued: () => void;
      /** The registered job types: a job's wire form. */
      jobTypes: JobCatalog;
      now?: () => Date;
    },
  ) {
    this.now = deps.now ?? (() => new Date());
    this.access = new TeamAccess(deps.teams);
  }

  /** A team (admins). */
  async get(teamId: string): Promise<Team> {
    return this.access.require(teamId);
  }

  /** Changes a team's name, description, visibility or settings (admins). */
  async update(caller: Caller, teamId: string, update: TeamUpdate): Promise<void> {
    const team = await this.access.require(teamId);
    const changed = teamChangeOf(update, team);
    const change = {
      action: 'team_updated',
      target: teamTarget(team),
      details: { fields: Object.keys(changed) },
    };
    await this.change(caller, change, () => this.deps.teams.updateTeam(teamId, changed));
  }

  /** Deletes a team: its owners, or Teams and global admins. */
  async delete(caller: Caller, teamId: string): Promise<void> {
    const team = await this.access.require(teamId);
    await this.access.requireRelation(caller, teamId, 'owner');
    await this.change(
      caller,
      { action: 'team_deleted', target: teamTarget(team) },
      () => this.deps.teams.deleteTeam(teamId),
      async (trx, now) => [
        await this.deps.events.record(
          trx,
          'team_deleted',
          { team: { id: team.id, displayName: team.displayName }, requester: { id: caller.id } },
          now,
        ),
      ],
    );
  }

  /** Queues the archiving (or unarchiving) of a team; the job is what the 202's Location points at. */
  async archive(
    caller: Caller,
    teamId: string,
    action: 'archive' | 'unarchive',
    siteReadOnly: boolean,
  ): Promise<Job> {
    const team = await this.access.require(teamId);
    await this.access.requireRelation(caller, teamId, 'owner');
    if (action === 'archive' && team.isArchived)
      throw new Conflict(`"${team.displayName}" is archived already.`);
    if (action === 'unarchive' && !team.isArchived)
      throw new Conflict(`"${team.displayName}" is not archived.`);
    const data: ArchiveData = {
      action,
      team: { id: team.id, displayName: team.displayName },
      requester: { id: caller.id, displayName: caller.name ?? caller.id },
      shouldSetSpoSiteReadOnlyForMembers: action === 'archive' && siteReadOnly,
    };
    const line = `${action === 'archive' ? 'Archiving' : 'Unarchiving'} "${team.displayName}" requested by ${data.requester.displayName}.`;
    const now = this.now();
    // One archive or unarchive of a team at a time, decided by the database (insertOncePerTeam):
    // the same action asked again while under way answers with its job, the other one is 409.
    const { job, inserted } = await this.deps.db.transaction().execute(async (trx) => {
      const { job: stored, inserted } = await this.deps.jobs.insertOncePerTeam(
        {
          id: randomUUID(),
          type: 'TeamArchiveRequest',
          queued: true,
          data,
          log: [line],
          requesterId: caller.id,
          teamId,
        },
        now,
        trx,
      );
      if (!inserted) {
        if ((stored.data as Partial<ArchiveData>).action === action) return { job: stored, inserted };
        throw new AlreadyUnderWay(
          `"${team.displayName}" is being ${action === 'archive' ? 'unarchived' : 'archived'} (job ${stored.id}).`,
        );
      }
      await this.deps.audit.record(
        trx,
        callerRecord(caller, {
          trail: 'teams',
          action: `team_${action}_requested`,
          target: teamTarget(team),
          details: { jobId: stored.id, ...(action === 'archive' ? { siteReadOnly } : {}) },
        }),
        now,
      );
      return { job: stored, inserted };
    });
    if (inserted) this.deps.onQueued();
    return this.deps.jobTypes.wire(job, await this.deps.jobs.isPaused());
  }

  /** The members of a team: its members, or admins. */
  async members(caller: Caller, teamId: string): Promise<TeamMember[]> {
    const members = await this.access.membersOf(teamId);
    if (!caller.privileged && !members.some((m) => m.userId === caller.id)) throw teamNotFound(teamId);
    return members;
  }

  /** Adds a member or an owner: the team's owners. */
  async addMember(caller: Caller, teamId: string, payload: TeamMembershipPayload): Promise<TeamMember> {
    const team = await this.access.require(teamId);
    await this.access.requireRelation(caller, teamId, 'owner');
    requireActive(team);
    const [user] = await this.deps.directory.resolveMembers([payload.user], 'user');
    const change = {
      action: 'member_added',
      target: teamTarget(team),
      details: { userId: user!.id, role: payload.role },
    };
    return this.change(caller, change, () => this.deps.teams.addMember(teamId, user!.id, payload.role));
  }

  /** A team's channels: its members. */
  async channels(caller: Caller, teamId: string): Promise<TeamChannel[]> {
    await this.access.requireRelation(caller, teamId, 'member');
    return this.deps.teams.listChannels(teamId);
  }

  /** A team's General channel: its members. */
  async primaryChannel(caller: Caller, teamId: string): Promise<TeamChannel> {
    await this.access.requireRelation(caller, teamId, 'member');
    return this.deps.teams.primaryChannel(teamId);
  }

  /** Creates a channel: owners, or members when the team's member settings allow it. */
  async createChannel(caller: Caller, teamId: string, payload: TeamChannelPayload): Promise<TeamChannel> {
    const team = await this.access.require(teamId);
    const relation = await this.access.requireRelation(caller, teamId, 'member');
    const settings = team.memberSettings;
    const allowed =
      payload.membershipType === 'private'
        ? settings.allowCreatePrivateChannels !== false
        : settings.allowCreateUpdateChannels !== false;
    if (relation !== 'owner' && !allowed)
      throw new Forbidden('Only owners may create this kind of channel in this team.');
    requireActive(team);
    const change = {
      action: 'channel_created',
      target: teamTarget(team),
      details: { displayName: payload.displayName, membershipType: payload.membershipType ?? 'standard' },
    };
    return this.change(caller, change, () => this.deps.teams.createChannel(teamId, payload, caller.id));
  }

  /** A channel's tabs: the team's members. */
  async tabs(caller: Caller, teamId: string, channelId: string): Promise<TeamChannelTab[]> {
    await this.access.requireRelation(caller, teamId, 'member');
    return this.deps.teams.listTabs(teamId, channelId);
  }

  /** Adds a tab: owners, or members when the team's member settings allow it. */
  async createTab(
    caller: Caller,
    teamId: string,
    channelId: string,
    payload: TeamChannelTabPayload,
  ): Promise<TeamChannelTab> {
    const team = await this.access.require(teamId);
    const relation = await this.access.requireRelation(caller, teamId, 'member');
    if (relation !== 'owner' && team.memberSettings.allowCreateUpdateRemoveTabs === false) {
      throw new Forbidden('Only owners may add tabs in this team.');
    }
    requireActive(team);
    const change = {
      action: 'tab_created',
      target: teamTarget(team),
      details: { channelId, displayName: payload.displayName, teamsAppId: payload.teamsAppId },
    };
    return this.change(caller, change, () => this.deps.teams.createTab(teamId, channelId, payload));
  }

  /**
   * Makes a change on the platform, then records it in the `teams` trail, in one transaction with
   * the events `after` records. The platform (Microsoft Graph) is outside Steward's database, so the
   * record follows the call that made the change; a call that fails is recorded as a failure.
   */
  private async change<T>(
    caller: Caller,
    change: TeamChange,
    work: () => Promise<T>,
    after?: (trx: Transaction<Database>, now: Date) => Promise<StewardEvent[]>,
  ): Promise<T> {
    let result: T;
    try {
      result = await work();
    } catch (error) {
      // Not found: the team went between the check and the call (a delete at the same moment);
      // nothing was changed, and the caller is answered as the check would have answered it.
      if (error instanceof NotFound) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      await this.deps.db
        .transaction()
        .execute((trx) => this.record(trx, caller, change, 'failure', { reason }, this.now()))
        .catch(() => {
          // The caller needs the platform's error, not a failure to record it.
        });
      throw error;
    }
    const now = this.now();
    const events = await this.deps.db.transaction().execute(async (trx) => {
      await this.record(trx, caller, change, 'success', {}, now);
      return after ? after(trx, now) : [];
    });
    this.deps.events.publish(events);
    return result;
  }

  private record(
    trx: Transaction<Database>,
    caller: Caller,
    change: TeamChange,
    outcome: 'success' | 'failure',
    extra: Record<string, unknown>,
    now: Date,
  ): Promise<void> {
    return this.deps.audit.record(
      trx,
      callerRecord(caller, {
        trail: 'teams',
        action: change.action,
        target: change.target,
        outcome,
        details: { ...change.details, ...extra },
      }),
      now,
    );
  }
}

function teamTarget(team: Team): AuditTarget {
  return { type: 'team', id: team.id, displayName: team.displayName };
}
