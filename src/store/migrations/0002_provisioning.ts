import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/** The embedded tenant's teams, the durable job queue, approvals, and the event outbox. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // --- the embedded platform's simulated tenant
  await db.schema
    .createTable('platform_teams')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('provisioning_key', 'varchar(128)', (c) => c.unique())
    .addColumn('display_name', 'varchar(264)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('visibility', 'varchar(16)', (c) => c.notNull())
    .addColumn('mail_nickname', 'varchar(64)', (c) => c.notNull())
    .addColumn('classification', 'varchar(128)')
    .addColumn('specialization', 'varchar(64)')
    .addColumn('internal_id', 'varchar(128)')
    .addColumn('sensitivity_label_id', 'varchar(128)')
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('is_archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('site_read_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('platform_channels')
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('team_id', 'varchar(64)', (c) =>
      c.notNull().references('platform_teams.id').onDelete('cascade'),
    )
    .addColumn('display_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('membership_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('platform_channels_team').on('platform_channels').column('team_id').execute();
  await db.schema
    .createTable('platform_tabs')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('team_id', 'varchar(64)', (c) =>
      c.notNull().references('platform_teams.id').onDelete('cascade'),
    )
    .addColumn('channel_id', 'varchar(128)', (c) =>
      c.notNull().references('platform_channels.id').onDelete('cascade'),
    )
    .addColumn('display_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('teams_app_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('platform_tabs_channel').on('platform_tabs').column('channel_id').execute();
  await db.schema
    .createTable('platform_members')
    .addColumn('id', 'varchar(160)', (c) => c.primaryKey())
    .addColumn('team_id', 'varchar(64)', (c) =>
      c.notNull().references('platform_teams.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('platform_members_team_user', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('platform_members_user').on('platform_members').column('user_id').execute();
  await db.schema
    .createTable('platform_messages')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('team_id', 'varchar(64)', (c) =>
      c.notNull().references('platform_teams.id').onDelete('cascade'),
    )
    .addColumn('channel_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  // --- the durable job queue
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    // 0 while the job waits for something other than a worker (an approval); 1 once workers may run it.
    .addColumn('queued', 'integer', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('log', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('checkpoint', 'text', (c) => c.notNull())
    .addColumn('failed_reason', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'varchar(128)')
    .addColumn('lease_until', 'bigint')
    .addColumn('requester_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('team_id', 'varchar(64)')
    .addColumn('template_id', 'varchar(128)')
    .addColumn('idempotency_key', 'varchar(128)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('completed_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['queued', 'status', 'run_at']).execute();
  await db.schema.createIndex('jobs_template').on('jobs').columns(['template_id', 'status']).execute();
  await db.schema.createIndex('jobs_requester').on('jobs').columns(['requester_id', 'created_at']).execute();
  await db.schema
    .createIndex('jobs_idempotency')
    .on('jobs')
    .columns(['requester_id', 'idempotency_key'])
    .unique()
    .execute();

  await db.schema
    .createTable('approvals')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('job_id', 'varchar(64)', (c) => c.notNull().references('jobs.id'))
    .addColumn('template_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('approvers', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('decided_by', 'varchar(64)')
    .addColumn('decided_at', 'varchar(32)')
    .addColumn('message', 'text')
    .addColumn('updates', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('approvals_job').on('approvals').column('job_id').execute();

  // --- events, written in the same transaction as the change they describe
  await db.schema
    .createTable('outbox_events')
    .addColumn('seq', isPostgres(db) ? 'bigserial' : 'integer', (c) =>
      isPostgres(db) ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'outbox_events',
    'approvals',
    'jobs',
    'platform_messages',
    'platform_members',
    'platform_tabs',
    'platform_channels',
    'platform_teams',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
