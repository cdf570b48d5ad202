import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * Events written in the same transaction as the change they describe, so a change is never
 * without its event and an event never outlives a rolled-back change. Webhook deliveries are to read from here.
 */
export class OutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async append(
    event: { id: string; type: string; payload: Record<string, unknown> },
    now: Date,
    trx: Kysely<Database> | Transaction<Database> = this.db,
  ): Promise<void> {
    await trx
      .insertInto('outbox_events')
      .values({
        id: event.id,
        type: event.type,
        payload: JSON.stringify(event.payload),
        created_at: now.toISOString(),
      })
      .execute();
  }
}
