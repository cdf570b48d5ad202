import { type Kysely, sql } from 'kysely';

/**
 * Requests to join a team (docs/guides/joining-teams.md): who asked to join which team, with their words, and what
 * became of it: the owners' decision, the job that adds the member. At most one pending request per
 * person and team (a partial unique index, on SQLite and PostgreSQL alike).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('join_requests')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('team_id', 'varchar(300)', (c) => c.notNull())
    .addColumn('team_name', 'text', (c) => c.notNull())
    .addColumn('requester_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('requester_name', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('direct', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('decision', 'varchar(16)')
    .addColumn('decided_by', 'varchar(64)')
    .addColumn('decided_by_name', 'text')
    .addColumn('comment', 'text')
    .addColumn('decided_at', 'varchar(32)')
    .addColumn('job_id', 'varchar(64)')
    .addColumn('failed_reason', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('join_requests_team')
    .on('join_requests')
    .columns(['team_id', 'status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('join_requests_requester')
    .on('join_requests')
    .columns(['requester_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('join_requests_one_pending')
    .on('join_requests')
    .columns(['team_id', 'requester_id'])
    .unique()
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('join_requests').execute();
}
