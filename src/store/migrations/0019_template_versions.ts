import { type Kysely, sql } from 'kysely';

/**
 * Template versions and drift (docs/guides/drift.md). Every save of a template makes a version
 * (`template_versions`: who, when, the document, what changed); `catalog_templates.version` is the
 * current one, and the templates there are version 1 of their history. Each team made from a
 * template remembers which version (`team_templates`); teams made before this are found in their
 * completed provisioning jobs, with an unknown version, and are compared with the current one.
 * `drift_*` keep what the last drift read found; `outdated` is what the lifecycle evaluator's pass
 * noted of it (made from an older version, or drifting at the last read); `owners_*`
 * the owners' answer when the template asks them before applying a new version.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('catalog_templates')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('template_versions')
    .addColumn('template_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('actor_id', 'varchar(200)')
    .addColumn('actor_name', 'text')
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('template_versions_pk', ['template_id', 'version'])
    .execute();
  await sql`INSERT INTO template_versions (template_id, version, created_at, actor_id, actor_name, document, changes, summary)
    SELECT id, 1, updated_at, NULL, NULL, document, '[]', 'The template as it was when versions began.'
    FROM catalog_templates`.execute(db);
  await db.schema
    .createTable('team_templates')
    .addColumn('team_id', 'varchar(300)', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('template_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('template_version', 'integer')
    .addColumn('job_id', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('drift_version', 'integer')
    .addColumn('drift_count', 'integer')
    .addColumn('drift_checked_at', 'varchar(32)')
    .addColumn('outdated', 'integer')
    .addColumn('outdated_on', 'varchar(10)')
    .addColumn('owners_asked_version', 'integer')
    .addColumn('owners_answer', 'varchar(16)')
    .addColumn('owners_answered_by', 'varchar(200)')
    .addColumn('owners_answered_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('team_templates_template')
    .on('team_templates')
    .columns(['template_id', 'team_id'])
    .execute();
  // Teams made before versions were kept: their template from their job, the version unknown.
  const made = await sql<{
    id: string;
    team_id: string;
    template_id: string;
    data: string;
    completed_at: string | null;
    created_at: string;
  }>`
    SELECT id, team_id, template_id, data, completed_at, created_at FROM jobs
    WHERE type = 'ProvisioningRequest' AND status = 'completed' AND team_id IS NOT NULL AND template_id IS NOT NULL
    ORDER BY created_at`.execute(db);
  const seen = new Set<string>();
  for (const row of made.rows) {
    if (seen.has(row.team_id)) continue;
    seen.add(row.team_id);
    let name = row.team_id;
    try {
      const team = (JSON.parse(row.data) as { team?: { displayName?: unknown } }).team;
      if (typeof team?.displayName === 'string') name = team.displayName;
    } catch {
      // A job whose data does not parse still names its team by id.
    }
    await sql`INSERT INTO team_templates (team_id, display_name, template_id, template_version, job_id, created_at)
      VALUES (${row.team_id}, ${name}, ${row.template_id}, NULL, ${row.id}, ${row.completed_at ?? row.created_at})`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('team_templates').execute();
  await db.schema.dropTable('template_versions').execute();
  await db.schema.alterTable('catalog_templates').dropColumn('version').execute();
}
