import type { Kysely } from 'kysely';

/**
 * Whether a hook's maker (`created_by`) is a person or an application (`creator_kind`, `user` or
 * `app`): each delivery checks that a person who made a hook can still read its events
 * (`domain/hookAudience.ts`, `deliveryRefusal`), which an application's token alone decides. The
 * hooks already there take it from the audit record of their creation; `mine` hooks are a person's;
 * a hook whose record is gone keeps null.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('hooks').addColumn('creator_kind', 'varchar(8)').execute();
  const trx = db as Kysely<Tables>;
  await trx.updateTable('hooks').set({ creator_kind: 'user' }).where('scope', '=', 'mine').execute();
  const created = await trx
    .selectFrom('audit_records')
    .select(['actor', 'target'])
    .where('trail', '=', 'webhooks')
    .where('action', '=', 'webhook_created')
    .execute();
  for (const record of created) {
    const kind = parsed(record.actor)?.type;
    const hookId = parsed(record.target)?.id;
    if ((kind !== 'user' && kind !== 'app') || typeof hookId !== 'string') continue;
    await trx
      .updateTable('hooks')
      .set({ creator_kind: kind })
      .where('id', '=', hookId)
      .where('creator_kind', 'is', null)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('hooks').dropColumn('creator_kind').execute();
}

interface Tables {
  hooks: { id: string; scope: string; creator_kind: string | null };
  audit_records: { trail: string; action: string; actor: string; target: string };
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
