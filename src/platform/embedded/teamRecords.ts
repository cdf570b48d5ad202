import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DelegatedGrant } from '../../domain/delegation';
import { Conflict, NotFound, PlatformError, ValidationFailed } from '../../domain/errors';
import type { TeamInventoryItem } from '../../domain/reports/model';
import type { Team, TeamChange, TeamMember } from '../../contract';
import { isPostgres } from '../../store/dialect';
import type { Database, PlatformTeamRow } from '../../store/schema';
import type { CloneTeamSpec, NewTeamSpec } from '../port';
import { insertClonedTeam, insertNewTeam, type Stamp, upsertMember } from './teamCreation';
import { memberFromRow, mergeSettings, requireTeam, settingsOf, teamFromRow } from './teamRows';

/** A team as the embedded viewer lists it. */
export interface TeamSummary {
  id: string;
  displayName: string;
  visibility: 'public' | 'private';
  isArchived: boolean;
}

/** A team with what the embedded tenant knows of it beyond Graph's team resource. */
export interface TeamState {
  team: Team;
  sensitivityLabelId: string | null;
  siteReadOnlyForMembers: boolean;
  /** The simulated last activity (ISO): when the team was last marked active, else its creation. */
  lastActivityAt: string;
}

/** The longest user id a membership row holds (`platform_members.user_id`). */
const MAX_USER_ID_LENGTH = 64;

/**
 * The embedded tenant's teams and memberships as rows, each operation atomic, without the latency
 * and fault knobs of EmbeddedTeams. Unknown teams throw NotFound.
 */
export class TeamRecords {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { publicUrl: () => string; stamp: Stamp },
  ) {}

  /**
   * Creates a team with its General channel and first owner, or returns the team already created
   * with the same provisioning key. `fixed.id` chooses the id, for seeded teams; the port has no such option.
   */
  async createTeam(spec: NewTeamSpec, fixed: { id?: string } = {}): Promise<Team & { found?: boolean }> {
    const existing = await this.findTeamByProvisioningKey(spec.provisioningKey);
    if (existing) return { ...existing, found: true };
    const id = fixed.id ?? randomUUID();
    const created = await this.db
      .transaction()
      .execute((trx) => insertNewTeam(trx, spec, id, this.options.stamp));
    return this.teamAfterInsert(id, spec.provisioningKey, created);
  }

  /** Clones a team (idempotent by provisioning key); NotFound when the source does not exist. */
  async cloneTeam(spec: CloneTeamSpec): Promise<Team> {
    const existing = await this.findTeamByProvisioningKey(spec.provisioningKey);
    if (existing) return existing;
    const id = randomUUID();
    const created = await this.db
      .transaction()
      .execute((trx) => insertClonedTeam(trx, spec, id, this.options.stamp));
    return this.teamAfterInsert(id, spec.provisioningKey, created);
  }

  /** The team created with `key`, if any. */
  async findTeamByProvisioningKey(key: string): Promise<Team | undefined> {
    const row = await this.db
      .selectFrom('platform_teams')
      .selectAll()
      .where('provisioning_key', '=', key)
      .executeTakeFirst();
    return row && teamFromRow(row, this.options.publicUrl());
  }

  /** The team, or undefined. */
  async getTeam(teamId: string): Promise<Team | undefined> {
    return (await this.getTeamState(teamId))?.team;
  }

  /** The team with its label and site state, or undefined. */
  async getTeamState(teamId: string): Promise<TeamState | undefined> {
    const row = await this.db
      .selectFrom('platform_teams')
      .selectAll()
      .where('id', '=', teamId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      team: teamFromRow(row, this.options.publicUrl()),
      sensitivityLabelId: row.sensitivity_label_id,
      siteReadOnlyForMembers: Number(row.site_read_only) === 1,
      lastActivityAt: row.last_activity_at ?? row.created_at,
    };
  }

  /** Every team with its archive flag and owner count, by name: one query, counted by the database. */
  async listTeamInventory(): Promise<TeamInventoryItem[]> {
    const rows = await this.db
      .selectFrom('platform_teams as t')
      .select((eb) => [
        't.id',
        't.display_name',
        't.is_archived',
        't.created_at',
        eb
          .selectFrom('platform_members as m')
          .select((inner) => inner.fn.countAll<number | string>().as('n'))
          .whereRef('m.team_id', '=', 't.id')
          .where('m.role', '=', 'owner')
          .as('owners'),
      ])
      .orderBy('t.display_name')
      .orderBy('t.id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      displayName: row.display_name,
      isArchived: Number(row.is_archived) === 1,
      // COUNT is a bigint on PostgreSQL, which pg hands over as a string.
      ownerCount: Number(row.owners ?? 0),
      createdDateTime: row.created_at,
    }));
  }

  /** Every team of the tenant, by name. */
  async listTeamSummaries(): Promise<TeamSummary[]> {
    const rows = await this.db
      .selectFrom('platform_teams')
      .select(['id', 'display_name', 'visibility', 'is_archived'])
      .orderBy('display_name')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      displayName: row.display_name,
      visibility: row.visibility === 'public' ? 'public' : 'private',
      isArchived: Number(row.is_archived) === 1,
    }));
  }

  /** Changes the given fields; settings objects merge key by key. */
  async updateTeam(teamId: string, update: TeamChange): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await lockTeam(trx, teamId);
      await trx
        .updateTable('platform_teams')
        .set({
          display_name: update.displayName ?? row.display_name,
          description: update.description ?? row.description,
          visibility: update.visibility ?? row.visibility,
          classification: update.classification === undefined ? row.classification : update.classification,
          settings: JSON.stringify(mergeSettings(settingsOf(row), update)),
        })
        .where('id', '=', teamId)
        .execute();
    });
  }

  /**
   * Puts a sensitivity label on the team as the person of `grant`: like Graph, the tenant lets a
   * team's owners change its label, and nobody without a person's grant (401 once it expired).
   */
  async applyLabel(teamId: string, labelId: string, grant: DelegatedGrant, now: Date): Promise<void> {
    if (grant.expiresAt.getTime() <= now.getTime())
      throw new PlatformError('The delegated grant has expired.', 401, false);
    await this.db.transaction().execute(async (trx) => {
      await lockTeam(trx, teamId);
      const owner = await trx
        .selectFrom('platform_members')
        .select('id')
        .where('team_id', '=', teamId)
        .where('user_id', '=', grant.userId)
        .where('role', '=', 'owner')
        .executeTakeFirst();
      if (!owner)
        throw new PlatformError('Only an owner of the team may change its sensitivity label.', 403, false);
      await trx
        .updateTable('platform_teams')
        .set({ sensitivity_label_id: labelId })
        .where('id', '=', teamId)
        .execute();
    });
  }

  /** Deletes the team with its channels, tabs, members and messages. */
  async deleteTeam(teamId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockTeam(trx, teamId);
      // The foreign keys cascade too; deleting the children first keeps this true without them.
      for (const table of [
        'platform_messages',
        'platform_tabs',
        'platform_members',
        'platform_channels',
      ] as const)
        await trx.deleteFrom(table).where('team_id', '=', teamId).execute();
      await trx.deleteFrom('platform_teams').where('id', '=', teamId).execute();
    });
  }

  /** Marks the team archived, and its site read-only for members when asked. */
  async archiveTeam(teamId: string, setSiteReadOnlyForMembers: boolean): Promise<void> {
    await this.setArchived(teamId, 1, setSiteReadOnlyForMembers ? 1 : 0);
  }

  /** Clears the archived and read-only marks. */
  async unarchiveTeam(teamId: string): Promise<void> {
    await this.setArchived(teamId, 0, 0);
  }

  /** The team's members in the order they joined, named from the directory. */
  async listMembers(teamId: string): Promise<TeamMember[]> {
    await requireTeam(this.db, teamId);
    return this.selectMembers(this.db, teamId);
  }

  /** Adds a member or gives an existing member `role`. */
  async addMember(teamId: string, userId: string, role: 'owner' | 'member'): Promise<TeamMember> {
    if (userId.length === 0 || userId.length > MAX_USER_ID_LENGTH)
      throw new ValidationFailed(`A user id has 1 to ${MAX_USER_ID_LENGTH} characters.`);
    return this.db.transaction().execute(async (trx) => {
      await lockTeam(trx, teamId);
      await upsertMember(trx, teamId, userId, role, this.options.stamp());
      const [member] = await this.selectMembers(trx, teamId, userId);
      if (!member) throw new Error(`The membership of ${userId} in team ${teamId} was not written.`);
      return member;
    });
  }

  /** Removes someone's membership, whatever their role; false when they had none. */
  async removeMember(teamId: string, userId: string): Promise<boolean> {
    await requireTeam(this.db, teamId);
    const result = await this.db
      .deleteFrom('platform_members')
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  private async teamAfterInsert(id: string, key: string, created: boolean): Promise<Team> {
    const team = created ? await this.getTeam(id) : await this.findTeamByProvisioningKey(key);
    // Not created and no team with the key: the id itself was taken (a fixed id, or a GUID collision).
    if (!team) throw new Conflict(`A team with id ${id} already exists.`);
    return team;
  }

  private async setArchived(teamId: string, archived: 0 | 1, readOnly: 0 | 1): Promise<void> {
    const result = await this.db
      .updateTable('platform_teams')
      .set({ is_archived: archived, site_read_only: readOnly })
      .where('id', '=', teamId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new NotFound(`There is no team ${teamId}.`);
  }

  private async selectMembers(db: Kysely<Database>, teamId: string, userId?: string): Promise<TeamMember[]> {
    let query = db
      .selectFrom('platform_members as m')
      .leftJoin('directory_users as u', 'u.id', 'm.user_id')
      .select(['m.id', 'm.user_id', 'm.role', 'u.display_name', 'u.mail'])
      .where('m.team_id', '=', teamId);
    if (userId !== undefined) query = query.where('m.user_id', '=', userId);
    const rows = await query.orderBy('m.created_at').orderBy('m.user_id').execute();
    return rows.map(memberFromRow);
  }
}

/** Reads the team row, holding it until the transaction ends on PostgreSQL (SQLite's are exclusive). */
export async function lockTeam(trx: Transaction<Database>, teamId: string): Promise<PlatformTeamRow> {
  let query = trx.selectFrom('platform_teams').selectAll().where('id', '=', teamId);
  if (isPostgres(trx)) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new NotFound(`There is no team ${teamId}.`);
  return row;
}
