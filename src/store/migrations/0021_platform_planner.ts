import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

/**
 * The embedded tenant's plans, tags and installed apps (docs/guides/templates.md): what a template builds inside a
 * team besides channels and tabs, kept like Microsoft Graph keeps them. A plan of the team's group
 * with its buckets (ordered by Planner's order hints) and tasks (a checklist each, JSON, versioned
 * by an etag as Planner's task details are); the team's tags and their members; the catalog ids of
 * the apps installed in the team. Every row names its team and goes with it (the foreign keys
 * cascade).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const team = (c: ColumnDefinitionBuilder) =>
    c.notNull().references('platform_teams.id').onDelete('cascade');
  await db.schema
    .createTable('platform_plans')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('team_id', 'varchar(64)', team)
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('platform_plans_team').on('platform_plans').column('team_id').execute();
  await db.schema
    .createTable('platform_plan_buckets')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('team_id', 'varchar(64)', team)
    .addColumn('plan_id', 'varchar(64)', (c) =>
      c.notNull().references('platform_plans.id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('order_hint', 'varchar(512)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('platform_plan_buckets_plan')
    .on('platform_plan_buckets')
    .column('plan_id')
    .execute();
  await db.schema
    .createTable('platform_plan_tasks')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('team_id', 'varchar(64)', team)
    .addColumn('plan_id', 'varchar(64)', (c) =>
      c.notNull().references('platform_plans.id').onDelete('cascade'),
    )
    .addColumn('bucket_id', 'varchar(64)', (c) =>
      c.references('platform_plan_buckets.id').onDelete('cascade'),
    )
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('due_date_time', 'varchar(32)')
    .addColumn('checklist', 'text', (c) => c.notNull())
    .addColumn('details_version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('platform_plan_tasks_plan')
    .on('platform_plan_tasks')
    .column('plan_id')
    .execute();
  await db.schema
    .createTable('platform_tags')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('team_id', 'varchar(64)', team)
    .addColumn('display_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('platform_tags_team').on('platform_tags').column('team_id').execute();
  await db.schema
    .createTable('platform_tag_members')
    .addColumn('tag_id', 'varchar(64)', (c) => c.notNull().references('platform_tags.id').onDelete('cascade'))
    .addColumn('team_id', 'varchar(64)', team)
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('platform_tag_members_pk', ['tag_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('platform_installed_apps')
    .addColumn('team_id', 'varchar(64)', team)
    .addColumn('teams_app_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('platform_installed_apps_pk', ['team_id', 'teams_app_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'platform_installed_apps',
    'platform_tag_members',
    'platform_tags',
    'platform_plan_tasks',
    'platform_plan_buckets',
    'platform_plans',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
