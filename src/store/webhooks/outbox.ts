import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema';

/**
 * Events written in the same transaction as the change they describe, so a change is never
 * without its event and an event never outlives a rolled-back change. Webhook deliveries are to read from here.
 */
export class OutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Appends events (several in one statement) in the transaction of their change. */
  async append(
    events:
      | { id: string; type: string; payload: Record<string, unknown> }
      | readonly { id: string; type: string; payload: Record<string, unknown> }[],
    now: Date,
    trx: Kysely<Database> | Transaction<Database> = this.db,
  ): Promise<void> {
    const list = Array.isArray(events) ? events : [events];
    if (list.length === 0) return;
    await trx
      .insertInto('outbox_events')
      .values(
        list.map((event: { id: string; type: string; payload: Record<string, unknown> }) => ({
          id: event.id,
          type: event.type,
          payload: JSON.stringify(event.payload),
          created_at: now.toISOString(),
        })),
      )
      .execute();
  }
}
