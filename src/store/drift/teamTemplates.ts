import type { Db, TeamTemplateRow } from '../schema';

/** A team made from a template, as drift reads it. */
export interface TeamTemplate {
  teamId: string;
  displayName: string;
  templateId: string;
  /** Null: made before versions were kept (compared with the current version). */
  version: number | null;
  /** The last drift read: against which version, how many differences. */
  drift: { version: number; count: number; checkedAt: string } | null;
  /** The owners' answer about a version, when they were asked. */
  owners: { version: number; answer: string | null; by: string | null; at: string | null } | null;
}

/** Which template, and which version of it, each team was made from; and its last drift read. */
export class TeamTemplateRepository {
  constructor(private readonly db: Db) {}

  /** Records that `teamId` was made from `version` of `templateId` (again: the newest wins). */
  async record(
    entry: {
      teamId: string;
      displayName: string;
      templateId: string;
      version: number | null;
      jobId: string;
      now: string;
    },
    trx: Db = this.db,
  ): Promise<void> {
    const values = {
      display_name: entry.displayName,
      template_id: entry.templateId,
      template_version: entry.version,
      job_id: entry.jobId,
      created_at: entry.now,
      drift_version: null,
      drift_count: null,
      drift_checked_at: null,
      owners_asked_version: null,
      owners_answer: null,
      owners_answered_by: null,
      owners_answered_at: null,
    };
    await trx
      .insertInto('team_templates')
      .values({ team_id: entry.teamId, ...values })
      .onConflict((oc) => oc.column('team_id').doUpdateSet(values))
      .execute();
  }

  async find(teamId: string): Promise<TeamTemplate | undefined> {
    const row = await this.db
      .selectFrom('team_templates')
      .selectAll()
      .where('team_id', '=', teamId)
      .executeTakeFirst();
    return row && toTeamTemplate(row);
  }

  /** A page of the teams made from `templateId`, by id (`after`: the last id of the page before). */
  async ofTemplate(templateId: string, limit: number, after?: string): Promise<TeamTemplate[]> {
    let query = this.db.selectFrom('team_templates').selectAll().where('template_id', '=', templateId);
    if (after !== undefined) query = query.where('team_id', '>', after);
    const rows = await query.orderBy('team_id').limit(limit).execute();
    return rows.map(toTeamTemplate);
  }

  /** How many teams were made from `templateId`. */
  async countOf(templateId: string): Promise<number> {
    const row = await this.db
      .selectFrom('team_templates')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('template_id', '=', templateId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** What a drift read found; after an apply, the version the team now meets. */
  async noteDrift(
    teamId: string,
    drift: { version: number; count: number; checkedAt: string },
    trx: Db = this.db,
  ): Promise<void> {
    await trx
      .updateTable('team_templates')
      .set({ drift_version: drift.version, drift_count: drift.count, drift_checked_at: drift.checkedAt })
      .where('team_id', '=', teamId)
      .execute();
  }

  /** Records that a team now meets `version` of its template (after applying its differences). */
  async meets(teamId: string, version: number, now: string, trx: Db = this.db): Promise<void> {
    await trx
      .updateTable('team_templates')
      .set({ template_version: version, drift_version: version, drift_count: 0, drift_checked_at: now })
      .where('team_id', '=', teamId)
      .execute();
  }

  /** Records that the owners are being asked about `version` (their earlier answer is forgotten). */
  async asked(teamId: string, version: number, trx: Db = this.db): Promise<void> {
    await trx
      .updateTable('team_templates')
      .set({
        owners_asked_version: version,
        owners_answer: null,
        owners_answered_by: null,
        owners_answered_at: null,
      })
      .where('team_id', '=', teamId)
      .execute();
  }

  /** An owner's answer: `add` (a job applies) or `notNow`. */
  async answered(
    teamId: string,
    answer: 'add' | 'notNow',
    by: string,
    at: string,
    trx: Db = this.db,
  ): Promise<void> {
    await trx
      .updateTable('team_templates')
      .set({ owners_answer: answer, owners_answered_by: by, owners_answered_at: at })
      .where('team_id', '=', teamId)
      .execute();
  }

  /** The drift jobs of `teamIds` not yet ended, by team: a second request finds them instead of queueing more. */
  async openJobs(teamIds: readonly string[], trx: Db = this.db): Promise<Map<string, string>> {
    const open = new Map<string, string>();
    if (teamIds.length === 0) return open;
    const rows = await trx
      .selectFrom('jobs')
      .select(['id', 'team_id'])
      .where('type', '=', 'TeamDriftApply')
      .where('status', 'not in', ['completed', 'failed'])
      .where('team_id', 'in', [...teamIds])
      .execute();
    for (const row of rows) if (row.team_id) open.set(row.team_id, row.id);
    return open;
  }

  /**
   * The lifecycle evaluator's note of a page of teams, in one statement: each team made from a
   * template is `outdated` when made from (or last brought in line with) an older version than the
   * template's current one, or when its last drift read found differences. Returns how many are.
   */
  async notePass(teamIds: readonly string[], day: string, trx: Db = this.db): Promise<number> {
    if (teamIds.length === 0) return 0;
    const rows = await trx
      .updateTable('team_templates')
      .set((eb) => ({
        outdated: eb
          .case()
          .when(
            eb.or([
              eb('template_version', 'is', null),
              eb(
                'template_version',
                '<',
                eb
                  .selectFrom('catalog_templates')
                  .select('catalog_templates.version')
                  .whereRef('catalog_templates.id', '=', 'team_templates.template_id'),
              ),
              eb(eb.fn.coalesce('drift_count', eb.lit(0)), '>', 0),
            ]),
          )
          .then(1)
          .else(0)
          .end(),
        outdated_on: day,
      }))
      .where('team_id', 'in', [...teamIds])
      .returning('outdated')
      .execute();
    let outdated = 0;
    for (const row of rows) if (row.outdated === 1) outdated++;
    return outdated;
  }

  /**
   * Each team's template and drift standing, for the lifecycle evaluator's pass: one read per page
   * of teams, by id.
   */
  async standing(teamIds: readonly string[]): Promise<Map<string, TeamTemplate>> {
    const map = new Map<string, TeamTemplate>();
    if (teamIds.length === 0) return map;
    const rows = await this.db
      .selectFrom('team_templates')
      .selectAll()
      .where('team_id', 'in', teamIds)
      .execute();
    for (const row of rows) map.set(row.team_id, toTeamTemplate(row));
    return map;
  }
}

function toTeamTemplate(row: TeamTemplateRow): TeamTemplate {
  return {
    teamId: row.team_id,
    displayName: row.display_name,
    templateId: row.template_id,
    version: row.template_version === null ? null : Number(row.template_version),
    drift:
      row.drift_version === null || row.drift_count === null || row.drift_checked_at === null
        ? null
        : {
            version: Number(row.drift_version),
            count: Number(row.drift_count),
            checkedAt: row.drift_checked_at,
          },
    owners:
      row.owners_asked_version === null
        ? null
        : {
            version: Number(row.owners_asked_version),
            answer: row.owners_answer,
            by: row.owners_answered_by,
            at: row.owners_answered_at,
          },
  };
}
