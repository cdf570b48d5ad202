import { sql } from 'kysely';
import { isPostgres, isUniqueViolation } from '../dialect';
import type { Db, JoinRequestRow } from '../schema';

/**
 * Raised by `insert` when the person already has an open request to join the team: waiting for
 * its owners, or approved (a direct join too) and its job not done (migrations 0018 and 0022).
 */
export class PendingJoinRequestExists extends Error {
  constructor() {
    super('A request to join this team is already open.');
    this.name = 'PendingJoinRequestExists';
  }
}

/** The most rows a listing returns. */
export const JOIN_REQUESTS_A_PAGE = 100;

/** Requests to join teams (`join_requests`). */
export class JoinRequestRepository {
  async insert(row: JoinRequestRow, db: Db): Promise<void> {
    try {
      await db.insertInto('join_requests').values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new PendingJoinRequestExists();
      throw error;
    }
  }

  get(id: string, db: Db): Promise<JoinRequestRow | undefined> {
    return db.selectFrom('join_requests').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The person's pending request to join the team, if any. */
  pending(teamId: string, requesterId: string, db: Db): Promise<JoinRequestRow | undefined> {
    return db
      .selectFrom('join_requests')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('requester_id', '=', requesterId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
  }

  /** A team's requests, newest first, optionally of one status. */
  forTeam(teamId: string, status: string | undefined, db: Db): Promise<JoinRequestRow[]> {
    let query = db.selectFrom('join_requests').selectAll().where('team_id', '=', teamId);
    if (status) query = query.where('status', '=', status);
    return query.orderBy('created_at', 'desc').orderBy('id').limit(JOIN_REQUESTS_A_PAGE).execute();
  }

  /** A person's own requests, newest first. */
  forRequester(requesterId: string, db: Db): Promise<JoinRequestRow[]> {
    return db
      .selectFrom('join_requests')
      .selectAll()
      .where('requester_id', '=', requesterId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(JOIN_REQUESTS_A_PAGE)
      .execute();
  }

  /**
   * Records a decision on a pending request, in one statement checked against its status: of two
   * decisions at once, exactly one changes the row. False when it was no longer pending.
   */
  async decide(
    id: string,
    change: Pick<
      JoinRequestRow,
      | 'status'
      | 'decision'
      | 'decided_by'
      | 'decided_by_name'
      | 'comment'
      | 'decided_at'
      | 'job_id'
      | 'updated_at'
    >,
    db: Db,
  ): Promise<boolean> {
    const result = await db
      .updateTable('join_requests')
      .set(change)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** What the job that adds the member made of an approved request: `joined` or `failed`. */
  async finish(
    id: string,
    status: 'joined' | 'failed',
    failedReason: string | null,
    now: string,
    db: Db,
  ): Promise<void> {
    await db
      .updateTable('join_requests')
      .set({ status, failed_reason: failedReason, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'approved')
      .execute();
  }
}

/** A team Steward made, as the team directory compares it. */
export interface MadeTeam {
  teamId: string;
  /**
   * The name as its requester typed it, before the template's naming convention (compared with
   * what another requester types: a convention's prefix, the same on every team of a template, is
   * no sign of a duplicate).
   */
  name: string;
  /** The name the team was made with, after the convention (a later rename is not seen here). */
  displayName: string;
  description: string;
  templateId: string | null;
  templateName: string | null;
}

/** The most teams a directory search compares: the newest Steward made. */
export const DIRECTORY_CANDIDATES = 5000;

/**
 * The teams Steward made (completed provisioning jobs), newest first, at most
 * `DIRECTORY_CANDIDATES`: their name, description and template as the job planned them. Only those
 * few fields are read out of each job's data, by the database.
 */
export async function madeTeams(db: Db): Promise<MadeTeam[]> {
  const rows = await madeTeamRows(db, undefined);
  const seen = new Set<string>();
  const teams: MadeTeam[] = [];
  for (const row of rows) {
    if (!row.team_id || seen.has(row.team_id)) continue;
    seen.add(row.team_id);
    teams.push(toMadeTeam(row));
  }
  return teams;
}

/** The team `teamId` as Steward made it, or undefined when Steward did not make it. */
export async function madeTeam(db: Db, teamId: string): Promise<MadeTeam | undefined> {
  const [row] = await madeTeamRows(db, teamId);
  return row ? toMadeTeam(row) : undefined;
}

interface MadeTeamRow {
  team_id: string | null;
  template_id: string | null;
  display_name: string | null;
  requested_name: string | null;
  description: string | null;
  template_name: string | null;
}

/**
 * The completed provisioning jobs' teams, newest first (of `teamId` only when given), with the few
 * fields of their data the directory compares. PostgreSQL parses each job's data once (a `jsonb`
 * in a subquery its LIMIT keeps from being merged into the outer query) rather than once per field.
 */
async function madeTeamRows(db: Db, teamId: string | undefined): Promise<MadeTeamRow[]> {
  const limit = teamId === undefined ? DIRECTORY_CANDIDATES : 1;
  const oneTeam = teamId === undefined ? sql`` : sql`and team_id = ${teamId}`;
  if (isPostgres(db)) {
    const result = await sql<MadeTeamRow>`
      select team_id, template_id,
        d #>> '{plan,displayName}' as display_name,
        d #>> '{request,team,name}' as requested_name,
        d #>> '{plan,description}' as description,
        d #>> '{template,name}' as template_name
      from (
        select team_id, template_id, completed_at, data::jsonb as d
        from jobs
        where type = 'ProvisioningRequest' and status = 'completed' and team_id is not null ${oneTeam}
        order by completed_at desc
        limit ${limit}
      ) as made
      order by completed_at desc`.execute(db);
    return result.rows;
  }
  const result = await sql<MadeTeamRow>`
    select team_id, template_id,
      json_extract(data, '$.plan.displayName') as display_name,
      json_extract(data, '$.request.team.name') as requested_name,
      json_extract(data, '$.plan.description') as description,
      json_extract(data, '$.template.name') as template_name
    from jobs
    where type = 'ProvisioningRequest' and status = 'completed' and team_id is not null ${oneTeam}
    order by completed_at desc
    limit ${limit}`.execute(db);
  return result.rows;
}

function toMadeTeam(row: MadeTeamRow): MadeTeam {
  return {
    teamId: row.team_id ?? '',
    name: row.requested_name ?? row.display_name ?? '',
    displayName: row.display_name ?? row.requested_name ?? '',
    description: row.description ?? '',
    templateId: row.template_id,
    templateName: row.template_name,
  };
}
