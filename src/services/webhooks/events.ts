import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { EventType } from '../../contract/events';
import type { Database } from '../../store/schema';
import type { OutboxRepository } from '../../store/webhooks/outbox';

export { EVENT_TYPES, type EventType } from '../../contract/events';

/** An event as emitted: its payload always carries `tenant {id}`. */
export interface StewardEvent {
  id: string;
  type: EventType;
  payload: Record<string, unknown>;
}

type Listener = (event: StewardEvent) => void;

/** Work done inside the transaction that records an event (e.g. queueing its webhook deliveries). */
export type RecordHook = (
  trx: Kysely<Database> | Transaction<Database>,
  event: StewardEvent,
  now: Date,
) => Promise<void>;

/**
 * The internal event bus. `record` writes the event to the outbox inside the transaction of the
 * change it describes; `publish` tells in-process listeners once that transaction has committed.
 */
export class EventBus {
  private readonly listeners = new Set<Listener>();
  private readonly recordHooks: RecordHook[] = [];

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly tenantId: string,
    private readonly log?: { warn(o: object, m: string): void },
  ) {}

  /** Writes an event in `trx` and returns it for publishing after commit. */
  async record(
    trx: Kysely<Database> | Transaction<Database>,
    type: EventType,
    payload: Record<string, unknown>,
    now: Date,
  ): Promise<StewardEvent> {
    const event = { id: randomUUID(), type, payload: { tenant: { id: this.tenantId }, ...payload } };
    await this.outbox.append(event, now, trx);
    for (const hook of this.recordHooks) await hook(trx, event, now);
    return event;
  }

  /**
   * Writes several events of one change in `trx` (one outbox statement) and returns them, in
   * order, for publishing after commit.
   */
  async recordAll(
    trx: Kysely<Database> | Transaction<Database>,
    events: readonly { type: EventType; payload: Record<string, unknown> }[],
    now: Date,
  ): Promise<StewardEvent[]> {
    const recorded = events.map(({ type, payload }) => ({
      id: randomUUID(),
      type,
      payload: { tenant: { id: this.tenantId }, ...payload },
    }));
    await this.outbox.append(recorded, now, trx);
    for (const event of recorded) for (const hook of this.recordHooks) await hook(trx, event, now);
    return recorded;
  }

  /**
   * Runs `hook` inside every event's recording transaction, so what it writes commits (or rolls
   * back) with the event and the change: webhook deliveries are queued this way, exactly once per
   * event and hook.
   */
  onRecord(hook: RecordHook): void {
    this.recordHooks.push(hook);
  }

  /** Tells listeners about committed events; a failing listener does not stop the others. */
  publish(events: readonly StewardEvent[]): void {
    for (const event of events) {
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch (error) {
          // Listeners are notifications; the event is durable in the outbox either way.
          this.log?.warn({ err: error, eventId: event.id, type: event.type }, 'an event listener failed');
        }
      }
    }
  }

  /** Registers a listener; returns how to remove it. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
