import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type AuditTarget, callerRecord } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import { Conflict, Forbidden, NotFound } from '../../domain/errors';
import { answersSearch, mostSimilar, type TeamLikeness } from '../../domain/similarTeams';
import type {
  DirectoryTeam,
  JoinRequest,
  JoinRequestDecision,
  JoinRequestPayload,
  SimilarTeam,
  Team,
  TeamMember,
  TeamProvisioningRequest,
} from '../../contract';
import type { TeamsPlatform } from '../../platform/port';
import type { TemplateRepository } from '../../store/catalog/templates';
import type { JobRepository } from '../../store/jobs/jobs';
import {
  type JoinRequestRepository,
  type MadeTeam,
  madeTeam,
  madeTeams,
  PendingJoinRequestExists,
} from '../../store/joining/joinRequests';
import type { Database, JoinRequestRow } from '../../store/schema';
import { TeamAccess, teamNotFound } from '../access/teamAccess';
import type { AuditLog } from '../audit/audit';
import type { EventBus } from '../webhooks/events';
import type { TeamJoinData } from './teamJoinJob';

/** The most teams a search returns. */
export const DIRECTORY_TOP_MAX = 25;
/** The most alike teams a request is warned about. */
export const SIMILAR_TEAMS_MAX = 5;
/**
 * The most candidate teams read from the platform for one search (two reads each: the team, its
 * members): the best-ranked, since those the caller may not see are left out after the reads.
 */
const PLATFORM_READS_MAX = 20;

/** A team as the caller may see it, with what the directory shows of it. */
interface SeenTeam {
  entry: DirectoryTeam;
  team: Team;
  members: TeamMember[];
}

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
  }

  /** Teams whose name answers `search`, that the caller may see, most alike first. */
  async search(caller: Caller, search: string, top: number): Promise<DirectoryTeam[]> {
    const candidates = (await madeTeams(this.deps.db)).filter(
      (t) => answersSearch(search, t.name) || answersSearch(search, t.displayName),
    );
    const ranked = mostSimilar({ name: search }, candidates, candidates.length);
    // Prefix matches that are not alike by the rule come after the alike ones.
    const ordered = [
      ...ranked.map((r) => r.candidate),
      ...candidates.filter((c) => !ranked.some((r) => r.candidate === c)),
    ];
    const seen = await this.seeAll(caller, ordered.slice(0, Math.max(top, PLATFORM_READS_MAX)));
    return seen.slice(0, top).map((s) => s.entry);
  }

  /**
   * Existing teams alike a team someone asks for, that they may see: a warning, never a refusal. A
   * failure to read them is the caller's to ignore.
   */
  async similarTo(caller: Caller, wanted: TeamLikeness): Promise<SimilarTeam[]> {
    const alike = mostSimilar(wanted, await madeTeams(this.deps.db), PLATFORM_READS_MAX);
    const seen = await this.seeAll(
      caller,
      alike.map((a) => a.candidate),
    );
    const reasons = new Map(alike.map((a) => [a.candidate.teamId, a.similarity.reason]));
    return seen
      .slice(0, SIMILAR_TEAMS_MAX)
      .map((s) => ({ ...s.entry, reason: reasons.get(s.team.id) ?? 'name' }));
  }

  /**
   * The warning of a provisioning request (or its preview): teams alike the one asked for, their
   * names compared as their requesters typed them (before any naming convention). Undefined when
   * they could not be read: the request is made (or previewed) all the same.
   */
  async similarToRequest(
    caller: Caller,
    request: TeamProvisioningRequest,
  ): Promise<SimilarTeam[] | undefined> {
    try {
      return await this.similarTo(caller, {
        name: request.team.name,
        description: request.team.description ?? '',
        templateId: request.template.id,
      });
    } catch {
      return undefined;
    }
  }

  /**
   * Asks to join a team the caller may see. The owners decide, unless the team is public and its
   * template lets people join directly: then the member is added at once (by a job).
   */
  async request(caller: Caller, teamId: string, payload: JoinRequestPayload): Promise<JoinRequest> {
    const made = await madeTeam(this.deps.db, teamId);
    const seen = await this.see(caller, teamId, made);
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
      if (direct) await this.queueJoin(trx, row, null, now);
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
      if (approve) await this.queueJoin(trx, decided, decidedBy, now);
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

  private async queueJoin(
    trx: Parameters<JobRepository['insert']>[2],
    row: JoinRequestRow,
    decidedBy: { id: string; displayName: string } | null,
    now: Date,
  ): Promise<void> {
    const data: TeamJoinData = {
      joinRequestId: row.id,
      team: { id: row.team_id, displayName: row.team_name },
      requester: { id: row.requester_id, displayName: row.requester_name },
      direct: row.direct === 1,
      decidedBy,
    };
    const line =
      row.direct === 1
        ? `${row.requester_name} joins "${row.team_name}" (a public team anyone may join).`
        : `${decidedBy?.displayName ?? 'An owner'} let ${row.requester_name} join "${row.team_name}".`;
    await this.deps.jobs.insert(
      {
        id: row.job_id ?? randomUUID(),
        type: 'TeamJoinRequest',
        queued: true,
        data,
        log: [line],
        requesterId: row.requester_id,
        teamId: row.team_id,
      },
      now,
      trx,
    );
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

  /** The candidates the caller may see, in order, read from the platform a few at a time. */
  private async seeAll(caller: Caller, candidates: readonly MadeTeam[]): Promise<SeenTeam[]> {
    const seen: SeenTeam[] = [];
    const batch = 4;
    for (let i = 0; i < candidates.length; i += batch) {
      const read = await Promise.all(
        candidates.slice(i, i + batch).map((c) => this.see(caller, c.teamId, c).catch(() => undefined)),
      );
      for (const one of read) if (one) seen.push(one);
    }
    return seen;
  }

  /** The team as the caller may see it, or undefined when they may not (or it is gone). */
  private async see(
    caller: Caller,
    teamId: string,
    made: MadeTeam | undefined,
  ): Promise<SeenTeam | undefined> {
    const team = await this.deps.teams.getTeam(teamId);
    if (!team) return undefined;
    let members: TeamMember[];
    try {
      members = await this.deps.teams.listMembers(teamId);
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      throw error;
    }
    const isMember = members.some((m) => m.userId === caller.id);
    const listed = team.discoverySettings.showInTeamsSearchAndSuggestions === true;
    if (!caller.privileged && !isMember && team.visibility !== 'public' && !listed) return undefined;
    const template = made?.templateId ? await this.deps.templates.get(made.templateId) : undefined;
    const directJoin =
      team.visibility === 'public' && template?.template.templateConfiguration.allowDirectJoin === true;
    const entry: DirectoryTeam = {
      id: team.id,
      displayName: team.displayName,
      description: team.description,
      visibility: team.visibility,
      template: made?.templateId
        ? {
            id: made.templateId,
            name: template?.template.templateConfiguration.name ?? made.templateName ?? '',
          }
        : null,
      owners: members
        .filter((m) => m.roles.includes('owner'))
        .map((m) => ({ id: m.userId, displayName: m.displayName })),
      memberCount: members.length,
      webUrl: team.webUrl,
      access: isMember ? 'member' : directJoin ? 'direct' : 'request',
    };
    return { entry, team, members };
  }
}

function teamTarget(team: Team): AuditTarget {
  return { type: 'team', id: team.id, displayName: team.displayName };
}

function notFound(id: string): NotFound {
  return new NotFound(`No request to join "${id}".`);
}

function decidedAlready(row: JoinRequestRow): Conflict {
  return new Conflict(`This request to join "${row.team_name}" was decided already (${row.status}).`);
}

/** A stored request as the API shows it. */
function toJoinRequest(row: JoinRequestRow): JoinRequest {
  return {
    id: row.id,
    team: { id: row.team_id, displayName: row.team_name },
    requester: { id: row.requester_id, displayName: row.requester_name },
    message: row.message,
    status: row.status as JoinRequest['status'],
    direct: row.direct === 1,
    decision:
      row.decision && row.decided_by && row.decided_at
        ? {
            decision: row.decision as 'approve' | 'decline',
            by: { id: row.decided_by, displayName: row.decided_by_name ?? row.decided_by },
            comment: row.comment,
            decidedDateTime: row.decided_at,
          }
        : null,
    jobId: row.job_id,
    failedReason: row.failed_reason,
    createdDateTime: row.created_at,
    lastModifiedDateTime: row.updated_at,
  };
}
