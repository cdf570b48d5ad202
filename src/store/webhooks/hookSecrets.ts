import type { Kysely } from 'kysely';
import type { Database } from '../schema';

/** The hooks' secrets as stored: which are still plaintext, and sealing one (`HookSecrets`). */
export class HookSecretRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The hooks whose secret is still plaintext (written by an earlier version), oldest first. */
  async plaintext(): Promise<{ id: string; secret: string }[]> {
    const rows = await this.db
      .selectFrom('hooks')
      .select(['id', 'secret'])
      .where('secret_sealed', '=', 0)
      .where('secret', 'is not', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ id: row.id, secret: row.secret! }));
  }

  /**
   * Replaces hook `id`'s plaintext secret `plain` by its sealed text, unless another process has
   * sealed it (or the hook has gone) meanwhile. The hook's `updated_at` stays: nothing of it changed.
   */
  async seal(id: string, plain: string, sealed: string): Promise<void> {
    await this.db
      .updateTable('hooks')
      .set({ secret: sealed, secret_sealed: 1 })
      .where('id', '=', id)
      .where('secret_sealed', '=', 0)
      .where('secret', '=', plain)
      .execute();
  }
}
