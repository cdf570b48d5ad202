import type { Kysely } from 'kysely';

/**
 * The embedded tenant's channel files (docs/guides/templates.md): the folders and starter files a template puts in a
 * channel's files folder, one row per item, found again by its path (compared without case, as
 * SharePoint compares names) so that a job run twice makes nothing twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('platform_channel_items')
    .addColumn('channel_id', 'varchar(128)', (c) =>
      c.notNull().references('platform_channels.id').onDelete('cascade'),
    )
    .addColumn('path_key', 'varchar(300)', (c) => c.notNull())
    .addColumn('team_id', 'varchar(64)', (c) =>
      c.notNull().references('platform_teams.id').onDelete('cascade'),
    )
    .addColumn('path', 'varchar(300)', (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('platform_channel_items_pk', ['channel_id', 'path_key'])
    .execute();
  await db.schema
    .createIndex('platform_channel_items_team')
    .on('platform_channel_items')
    .column('team_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('platform_channel_items').execute();
}
