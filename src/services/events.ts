import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../store/schema';
import type { OutboxRepository } from '../store/outbox';

/** Every event Steward emits (webhook event codes). */
export const EVENT_TYPES = [
  'team_created',
  'team_provisioning_completed',
  'team_provisioning_failed',
  'team_creation_approval_requested',
  'team_creation_approved',
  'team_creation_rejected',
  'team_archived',
  'team_unarchived',
  'team_deleted',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An event as emitted: its payload always carries `tenant {id}`. */
export interface StewardEvent {
  id: string;
  type: EventType;
  payload: Record<string, unknown>;
}

type Listener = (event: StewardEvent) => void;

/**
 * The internal event bus. `record` writes the event to the outbox inside the transaction of the
 * change it describes; `publish` tells in-process listeners once that transaction has committed.
 */
export class EventBus {
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly tenantId: string,
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
    return event;
  }

  /** Tells listeners about committed events; a failing listener does not stop the others. */
  publish(events: readonly StewardEvent[]): void {
    for (const event of events) {
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch {
          // Listeners are notifications; the event is durable in the outbox either way.
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
