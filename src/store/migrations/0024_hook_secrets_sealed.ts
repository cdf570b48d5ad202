import type { Kysely } from 'kysely';

/**
 * Webhook secrets are kept sealed (`domain/seal.ts`, under the deployment's key, bound to the hook's
 * id): `secret_sealed` says which a row's `secret` holds. A migration cannot seal the existing ones,
 * as the key is the processes' configuration, not the database's: they stay plaintext (0) until a
 * process seals them, every row at its start and a row still plaintext when a delivery reads it
 * (written by a process of the previous version during a rolling upgrade).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('hooks')
    .addColumn('secret_sealed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('hooks').dropColumn('secret_sealed').execute();
}
