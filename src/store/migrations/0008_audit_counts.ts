import { type Kysely, sql } from 'kysely';

/**
 * How many audit records each trail holds per UTC day, kept in the transaction of each append, so
 * a page's `@odata.count` adds up a few hundred day rows instead of counting a million records.
 * Each append adds to one of a few `shard` rows at random, so concurrent transactions writing the
 * same trail rarely wait on one row lock. Existing records are counted once, here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_counts')
    .addColumn('trail', 'varchar(32)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_counts_pk', ['trail', 'day', 'shard'])
    .execute();
  await sql`INSERT INTO audit_counts (trail, day, shard, count)
    SELECT trail, substr(created_at, 1, 10), 0, count(*) FROM audit_records
    GROUP BY trail, substr(created_at, 1, 10)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_counts').ifExists().execute();
}
