import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** Per-team metadata documents, one JSON object per team and namespace. */
export class MetadataRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Replaces the document of `teamId` in `namespace` (creating it if needed). */
  async put(teamId: string, namespace: string, document: Record<string, unknown>, now: Date): Promise<void> {
    const values = { document: JSON.stringify(document), updated_at: now.toISOString() };
    await this.db
      .insertInto('team_metadata')
      .values({ team_id: teamId, namespace, ...values })
      .onConflict((oc) => oc.columns(['team_id', 'namespace']).doUpdateSet(values))
      .execute();
  }

  /** The document of `teamId` in `namespace`, if any. */
  async get(teamId: string, namespace: string): Promise<Record<string, unknown> | undefined> {
    const row = await this.db
      .selectFrom('team_metadata')
      .select('document')
      .where('team_id', '=', teamId)
      .where('namespace', '=', namespace)
      .executeTakeFirst();
    return row && (JSON.parse(row.document) as Record<string, unknown>);
  }
}
