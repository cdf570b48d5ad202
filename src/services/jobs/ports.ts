import type { Transaction } from 'kysely';
import type { EventType } from '../../contract/events';
import type { AuditEntry } from '../../domain/audit';
import type { Database } from '../../store/schema';

/**
 * An event a job's handler recorded when the job completed or failed, as the engine passes it on
 * (the shape of `StewardEvent`, `services/webhooks/events.ts`, which the engine does not import).
 */
export interface JobEvent {
  id: string;
  type: EventType;
  payload: Record<string, unknown>;
}

/** Where the engine records each job's life (`services/audit/audit.ts` in the composed program). */
export interface JobAudit {
  /** Appends `entries` in `trx`, the transaction of the change. */
  record(trx: Transaction<Database>, entries: readonly AuditEntry[], now: Date): Promise<void>;
  /** Appends `entries` that go with no other change (a job's start), all or none. */
  recordAlone(entries: readonly AuditEntry[], now: Date): Promise<void>;
}

/** Where the engine tells listeners about events once their transaction committed (the event bus). */
export interface JobEvents {
  publish(events: readonly JobEvent[]): void;
}
