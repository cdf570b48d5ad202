import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/** Directory, catalog, rate-limit counters and store metadata. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('steward_meta')
    .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('directory_users')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('display_name', 'varchar(256)', (c) => c.notNull())
    .addColumn('given_name', 'varchar(128)')
    .addColumn('surname', 'varchar(128)')
    .addColumn('mail', 'varchar(320)')
    .addColumn('user_principal_name', 'varchar(320)', (c) => c.notNull())
    .addColumn('job_title', 'varchar(128)')
    .addColumn('department', 'varchar(128)')
    .addColumn('company_name', 'varchar(128)')
    .addColumn('country', 'varchar(64)')
    .addColumn('city', 'varchar(128)')
    .addColumn('usage_location', 'varchar(8)')
    .addColumn('preferred_language', 'varchar(35)')
    .addColumn('app_roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('display_name_lower', 'varchar(256)', (c) => c.notNull())
    .addColumn('given_name_lower', 'varchar(128)', (c) => c.notNull())
    .addColumn('surname_lower', 'varchar(128)', (c) => c.notNull())
    .addColumn('mail_lower', 'varchar(320)', (c) => c.notNull())
    .addColumn('upn_lower', 'varchar(320)', (c) => c.notNull().unique())
    .execute();
  // Prefix search (LIKE 'x%') uses these: PostgreSQL needs pattern ops outside the C collation.
  const postgres = isPostgres(db);
  for (const column of [
    'display_name_lower',
    'given_name_lower',
    'surname_lower',
    'mail_lower',
    'upn_lower',
  ]) {
    const index = db.schema.createIndex(`directory_users_${column}_prefix`).on('directory_users');
    await (
      postgres ? index.expression(sql`${sql.ref(column)} varchar_pattern_ops`) : index.column(column)
    ).execute();
  }

  await db.schema
    .createTable('directory_groups')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('display_name', 'varchar(256)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mail_nickname', 'varchar(64)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('directory_group_members')
    .addColumn('group_id', 'varchar(64)', (c) =>
      c.notNull().references('directory_groups.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('directory_users.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('directory_group_members_pk', ['user_id', 'group_id'])
    .execute();

  await db.schema
    .createTable('directory_labels')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('color', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('sensitivity', 'integer', (c) => c.notNull())
    .addColumn('tooltip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('parent_id', 'varchar(64)')
    .addColumn('scope_group_ids', 'text')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('directory_apps')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('display_name', 'varchar(256)', (c) => c.notNull())
    .addColumn('app_roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await db.schema
    .createTable('catalog_templates')
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(256)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  // The shape rate-limiter-flexible's PostgreSQL store expects (it is told the table exists).
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'rate_limits',
    'catalog_templates',
    'directory_apps',
    'directory_labels',
    'directory_group_members',
    'directory_groups',
    'directory_users',
    'steward_meta',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
