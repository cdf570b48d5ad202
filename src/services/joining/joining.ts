import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { callerRecord } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import { Conflict, Forbidden, NotFound } from '../../domain/errors';
import type { TeamLikeness } from '../../domain/similarTeams';
import type {
  DirectoryTeam,
  JoinRequest,
  JoinRequestDecision,
  JoinRequestPayload,
  SimilarTeam,
  TeamProvisioningRequest,
} from '../../contract';
import type { TeamsPlatform } from '../../platform/port';
import type { TemplateRepository } from '../../store/catalog/templates';
import type { JobRepository } from '../../store/jobs/jobs';
import {
  type JoinRequestRepository,
  madeTeam,
  PendingJoinRequestExists,
} from '../../store/joining/joinRequests';
import type { Database, JoinRequestRow } from '../../store/schema';
import { TeamAccess, teamNotFound } from '../access/teamAccess';
import type { AuditLog } from '../audit/audit';
import type { EventBus } from '../webhooks/events';
import { decidedAlready, notFound, queueJoinJob, teamTarget, toJoinRequest } from './joinRequestRows';
import { TeamDirectory } from './teamDirectory';

export { DIRECTORY_TOP_MAX, SIMILAR_TEAMS_MAX } from './teamDirectory';

/**
 * The team directory and requests to join teams (docs/guides/joining-teams.md): which existing teams a person may see
 * that are alike what they ask for, their requests to join them, and the owners' decisions. An
 * approved request (or a direct join of a public team whose template allows it) queues a
 * `TeamJoinRequest` job that adds the member.
 *
 * What a caller may see of a team: governance managers (and Teams and global admins) see every
 * team; others see the teams they belong to, public teams, and private teams whose owners let Teams
 * show them in search and suggestions (`discoverySettings.showInTeamsSearchAndSuggestions`): the
 * name and description of those are already shown to everyone by Teams itself. Any other private
 * team is, to them, a team that does not exist (404).
 */
export class JoiningService {
  private readonly now: () => Date;
  private readonly access: TeamAccess;
  private readonly directory: TeamDirectory;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      teams: TeamsPlatform;
      templates: TemplateRepository;
      jobs: JobRepository;
      requests: JoinRequestRepository;
      events: EventBus;
      audit: AuditLog;
      onQueued: () => void;
      now?: () => Date;
    },
  ) {
    this.now = deps.now ?? (() => new Date());
    this.access = new TeamAccess(deps.teams);
    this.directory = new TeamDirectory(deps);
  }

  /** Teams whose name answers `search`, that the caller may see, most alike first. */
  search(caller: Caller, search: string, top: number): Promise<DirectoryTeam[]> {
    return this.directory.search(caller, search, top);
  }

  /** Existing teams alike a team someone asks for, that they may see (`TeamDirectory.similarTo`). */
  similarTo(caller: Caller, wanted: TeamLikeness): Promise<SimilarTeam[]> {
    return this.directory.similarTo(caller, wanted);
  }

  /** The warning of a provisioning request (or its preview) (`TeamDirectory.similarToRequest`). */
  similarToRequest(caller: Caller, request: TeamProvisioningRequest): Promise<SimilarTeam[] | undefined> {
    return this.directory.similarToRequest(caller, request);
  }

  /**
   * Asks to join a team the caller may see. The owners decide, unless the team is public and its
   * template lets people join directly: then the member is added at once (by a job).
   */
  async request(caller: Caller, teamId: string, payload: JoinRequestPayload): Promise<JoinRequest> {
    const made = await madeTeam(this.deps.db, teamId);
    const seen = await this.directory.see(caller, teamId, made);
    if (!seen) throw teamNotFound(teamId);
    if (caller.kind !== 'user') throw new Forbidden('Only a person may ask to join a team.');
    const { team, entry } = seen;
    if (team.isArchived) throw new Conflict(`"${team.displayName}" is archived: nobody joins it.`);
    if (entry.access === 'member') throw new Conflict(`You are in "${team.displayName}" already.`);
    const direct = entry.access === 'direct';
    const now = this.now();
    const at = now.toISOString();
    const requester = { id: caller.id, displayName: caller.name ?? caller.id };
    const row: JoinRequestRow = {
      id: randomUUID(),
      team_id: team.id,
      team_name: team.displayName,
      requester_id: requester.id,
      requester_name: requester.displayName,
      message: payload.message?.trim() || null,
      status: direct ? 'approved' : 'pending',
      direct: direct ? 1 : 0,
      decision: null,
      decided_by: null,
      decided_by_name: null,
      comment: null,
      decided_at: null,
      job_id: direct ? randomUUID() : null,
      failed_reason: null,
      created_at: at,
      updated_at: at,
    };
    const events = await this.deps.db.transaction().execute(async (trx) => {
      try {
        await this.deps.requests.insert(row, trx);
      } catch (error) {
        // One open request per person and team (migration 0022): the database decides, so a
        // second request at once, from any process, is refused like a later one.
        if (error instanceof PendingJoinRequestExists)
          throw new Conflict(`Your request to join "${team.displayName}" is under way already.`);
        throw error;
      }
      if (direct) await queueJoinJob(this.deps.jobs, trx, row, null, now);
      await this.deps.audit.record(
        trx,
        callerRecord(caller, {
          trail: 'teams',
          action: 'join_requested',
          target: teamTarget(team),
          details: { joinRequestId: row.id, direct, ...(row.job_id ? { jobId: row.job_id } : {}) },
        }),
        now,
      );
      const owners = entry.owners;
      return [
        await this.deps.events.record(
          trx,
          'team_join_requested',
          {
            team: { id: team.id, displayName: team.displayName, webUrl: team.webUrl },
            requester,
            owners,
            joinRequest: { id: row.id, message: row.message, direct },
          },
          now,
        ),
      ];
    });
    this.deps.events.publish(events);
    if (direct) this.deps.onQueued();
    return toJoinRequest(row);
  }

  /** A team's requests to join: its owners, and governance managers. */
  async forTeam(caller: Caller, teamId: string, status: string | undefined): Promise<JoinRequest[]> {
    await this.access.require(teamId);
    await this.access.requireRelation(caller, teamId, 'owner');
    return (await this.deps.requests.forTeam(teamId, status, this.deps.db)).map(toJoinRequest);
  }

  /** The caller's own requests to join teams. */
  async mine(caller: Caller): Promise<JoinRequest[]> {
    return (await this.deps.requests.forRequester(caller.id, this.deps.db)).map(toJoinRequest);
  }

  /** One request: its requester, the team's owners, and governance managers. */
  async get(caller: Caller, id: string): Promise<JoinRequest> {
    const row = await this.deps.requests.get(id, this.deps.db);
    if (!row) throw notFound(id);
    if (row.requester_id !== caller.id && !(await this.isOwner(caller, row.team_id))) throw notFound(id);
    return toJoinRequest(row);
  }

  /**
   * The owners' decision (or a governance manager's): approving queues the job that adds the
   * member; either way the requester is told through `team_join_decided`. Anyone else is refused
   * with 403; a request decided already is a 409.
   */
  async decide(caller: Caller, id: string, decision: JoinRequestDecision): Promise<JoinRequest> {
    const row = await this.deps.requests.get(id, this.deps.db);
    if (!row) throw notFound(id);
    if (!(await this.isOwner(caller, row.team_id)))
      throw new Forbidden(
        "Only the team's owners and governance managers may decide on a request to join it.",
      );
    if (row.status !== 'pending') throw decidedAlready(row);
    const team = await this.access.require(row.team_id);
    const approve = decision.decision === 'approve';
    if (approve && team.isArchived) throw new Conflict(`"${team.displayName}" is archived: nobody joins it.`);
    const now = this.now();
    const at = now.toISOString();
    const decidedBy = { id: caller.id, displayName: caller.name ?? caller.id };
    const decided: JoinRequestRow = {
      ...row,
      status: approve ? 'approved' : 'declined',
      decision: decision.decision,
      decided_by: decidedBy.id,
      decided_by_name: decidedBy.displayName,
      comment: decision.comment?.trim() || null,
      decided_at: at,
      job_id: approve ? randomUUID() : null,
      updated_at: at,
    };
    const events = await this.deps.db.transaction().execute(async (trx) => {
      const changed = await this.deps.requests.decide(
        id,
        {
          status: decided.status,
          decision: decided.decision,
          decided_by: decided.decided_by,
          decided_by_name: decided.decided_by_name,
          comment: decided.comment,
          decided_at: decided.decided_at,
          job_id: decided.job_id,
          updated_at: at,
        },
        trx,
      );
      if (!changed) throw decidedAlready(row);
      if (approve) await queueJoinJob(this.deps.jobs, trx, decided, decidedBy, now);
      await this.deps.audit.record(
        trx,
        callerRecord(caller, {
          trail: 'teams',
          action: 'join_decided',
          target: teamTarget(team),
          details: {
            joinRequestId: id,
            decision: decision.decision,
            userId: row.requester_id,
            ...(decided.job_id ? { jobId: decided.job_id } : {}),
          },
        }),
        now,
      );
      return [
        await this.deps.events.record(
          trx,
          'team_join_decided',
          {
            team: { id: team.id, displayName: team.displayName, webUrl: team.webUrl },
            requester: { id: row.requester_id, displayName: row.requester_name },
            decidedBy,
            joinRequest: { id, decision: decision.decision, comment: decided.comment, direct: false },
          },
          now,
        ),
      ];
    });
    this.deps.events.publish(events);
    if (approve) this.deps.onQueued();
    return toJoinRequest(decided);
  }

  /** Whether the caller owns the team, or governs every team. */
  private async isOwner(caller: Caller, teamId: string): Promise<boolean> {
    if (caller.privileged) return true;
    try {
      const members = await this.access.membersOf(teamId);
      return members.some((m) => m.userId === caller.id && m.roles.includes('owner'));
    } catch (error) {
      if (error instanceof NotFound) return false;
      throw error;
    }
  }
}
