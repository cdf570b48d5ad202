import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema';

/** Events written in one statement (a row binds 4 values; SQLite allows 32 766). */
const APPEND_BATCH = 500;

/**
 * Events written in the same transaction as the change they describe, so a change is never
 * without its event and an event never outlives a rolled-back change. Webhook deliveries are to read from here.
 */
export class OutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Appends `events` in order, a few hundred a statement. */
  async append(
    events: ReadonlyArray<{ id: string; type: string; payload: Record<string, unknown> }>,
    now: Date,
    trx: Kysely<Database> | Transaction<Database> = this.db,
  ): Promise<void> {
    const createdAt = now.toISOString();
    for (let start = 0; start < events.length; start += APPEND_BATCH) {
      await trx
        .insertInto('outbox_events')
        .values(
          events.slice(start, start + APPEND_BATCH).map((event) => ({
            id: event.id,
            type: event.type,
            payload: JSON.stringify(event.payload),
            created_at: createdAt,
          })),
        )
        .execute();
    }
  }
}
