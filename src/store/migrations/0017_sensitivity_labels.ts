import type { Kysely } from 'kysely';

/**
 * Sensitivity labels put on by a person (docs/explanation/security.md, "Sensitivity labels"): Graph applies a label only with a delegated
 * token, so a provisioning job carries, sealed, the grant of the person whose authority it uses
 * (`delegated_grants`, one per job, deleted once used or expired), and each team made from a
 * template with a label keeps what became of it (`team_labels`), which the governance report lists.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('delegated_grants')
    .addColumn('job_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('delegated_grants_expiry')
    .on('delegated_grants')
    .column('expires_at')
    .execute();
  await db.schema
    .createTable('team_labels')
    .addColumn('team_id', 'varchar(300)', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('template_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('label_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('applied_by', 'varchar(64)')
    .addColumn('job_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('team_labels_status').on('team_labels').column('status').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('team_labels').execute();
  await db.schema.dropTable('delegated_grants').execute();
}
