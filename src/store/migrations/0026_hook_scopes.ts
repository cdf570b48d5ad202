import type { Kysely } from 'kysely';

/**
 * Whose events a hook receives (`contract/hooks.ts`, `HookScope`): `tenant` (every hook made before,
 * and those of `POST /hooks`), `template` (one template's, `template_id`) or `mine` (the events that
 * name the hook's creator, `created_by`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('hooks')
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo('tenant'))
    .execute();
  await db.schema.alterTable('hooks').addColumn('template_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('hooks').dropColumn('template_id').execute();
  await db.schema.alterTable('hooks').dropColumn('scope').execute();
}
