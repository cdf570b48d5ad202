import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema';

/** An event as recorded in the outbox. */
export interface OutboxEvent {
  seq: number;
  id: string;
  type: string;
  payload: Record<string, unknown>;
  createdAt: string;
}

/**
 * Events written in the same transaction as the change they describe, so a change is never
 * without its event and an event never outlives a rolled-back change. Deliveries read from here.
 */
export class OutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async append(
    event: { id: string; type: string; payload: Record<string, unknown> },
    now: Date,
    trx: Kysely<Database> | Transaction<Database>,
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

  /** Events after `afterSeq`, oldest first. */
  async after(afterSeq: number, limit: number): Promise<OutboxEvent[]> {
    const rows = await this.db
      .selectFrom('outbox_events')
      .selectAll()
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      seq: Number(r.seq),
      id: r.id,
      type: r.type,
      payload: JSON.parse(r.payload) as Record<string, unknown>,
      createdAt: r.created_at,
    }));
  }
}
