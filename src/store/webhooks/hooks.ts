import type { Kysely } from 'kysely';
import type { EventType } from '../../contract/events';
import type { HookDeliveryStatus } from '../../contract';
import type { Database, Db } from '../schema';
import { isPostgres } from '../dialect';
import { type StoredDelivery, type StoredHook, toDelivery, toHook } from './hookRows';

export type { StoredDelivery, StoredHook } from './hookRows';

/** What one delivery attempt came to; `status` changes the entry's status when given. */
export interface AttemptOutcome {
  attempts: number;
  status?: HookDeliveryStatus;
  statusCode: number | null;
  error: string | null;
  responseMs: number | null;
}

/** Webhooks and their delivery log. */
export class HookRepository {
  /**
   * The active hooks as read in a transaction, so that the events one transaction records (a
   * completed provisioning records two) read them once; a write to hooks in that transaction
   * drops its entry.
   */
  private readonly activeIn = new WeakMap<object, Promise<StoredHook[]>>();

  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts a hook (in `trx`, with its audit record). */
  async insert(hook: StoredHook, trx: Db = this.db): Promise<void> {
    this.activeIn.delete(trx);
    await trx
      .insertInto('hooks')
      .values({
        id: hook.id,
        name: hook.name,
        description: hook.description,
        active: hook.active ? 1 : 0,
        events: JSON.stringify(hook.events),
        url: hook.url,
        content_type: hook.contentType,
        secret: hook.secret,
        secret_sealed: hook.secretSealed ? 1 : 0,
        scope: hook.scope,
        template_id: hook.templateId,
        consecutive_failures: hook.consecutiveFailures,
        created_by: hook.createdBy,
        creator_kind: hook.creatorKind,
        created_at: hook.createdAt,
        updated_at: hook.updatedAt,
      })
      .execute();
  }

  async get(id: string, trx: Db = this.db): Promise<StoredHook | undefined> {
    const row = await trx.selectFrom('hooks').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toHook(row);
  }

  /**
   * A hook read in `trx` and held until it ends (FOR UPDATE on PostgreSQL; SQLite's write
   * transactions run one at a time), for a change that answers with what it read: a request that
   * waited for another's activation or deletion reads the hook as that one left it, or not at all.
   */
  async getForUpdate(id: string, trx: Db): Promise<StoredHook | undefined> {
    let query = trx.selectFrom('hooks').selectAll().where('id', '=', id);
    if (isPostgres(trx)) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row && toHook(row);
  }

  /** Every hook, or those `createdBy` made, oldest first (deployments have a handful). */
  async list(createdBy?: string): Promise<StoredHook[]> {
    let query = this.db.selectFrom('hooks').selectAll();
    if (createdBy !== undefined) query = query.where('created_by', '=', createdBy);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map(toHook);
  }

  /** The active hooks subscribed to `type`, read in the transaction recording the event. */
  async subscribedTo(type: EventType, trx: Db): Promise<StoredHook[]> {
    const read = async () =>
      (await trx.selectFrom('hooks').selectAll().where('active', '=', 1).orderBy('id').execute()).map(toHook);
    // Only inside a transaction: outside one, each statement sees the latest hooks anyway.
    let active = trx === this.db ? undefined : this.activeIn.get(trx);
    if (!active) {
      active = read();
      if (trx !== this.db) this.activeIn.set(trx, active);
    }
    return (await active).filter((hook) => hook.events.includes(type));
  }

  /** Deletes a hook and its delivery log; false when there was no such hook. */
  async delete(id: string, trx: Db): Promise<boolean> {
    this.activeIn.delete(trx);
    await trx.deleteFrom('hook_deliveries').where('hook_id', '=', id).execute();
    const result = await trx.deleteFrom('hooks').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /**
   * Turns an inactive hook active again with its failure streak reset; false when it was not
   * inactive (or is gone).
   */
  async activate(id: string, now: Date, trx: Db): Promise<boolean> {
    this.activeIn.delete(trx);
    const result = await trx
      .updateTable('hooks')
      .set({ active: 1, consecutive_failures: 0, updated_at: now.toISOString() })
      .where('id', '=', id)
      .where('active', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A delivery succeeded: the hook's failure streak ends. */
  async resetFailures(id: string, now: Date, trx: Db): Promise<void> {
    this.activeIn.delete(trx);
    await trx
      .updateTable('hooks')
      .set({ consecutive_failures: 0, updated_at: now.toISOString() })
      .where('id', '=', id)
      .where('consecutive_failures', '>', 0)
      .execute();
  }

  /**
   * A delivery failed: counts it (atomically, however many workers fail at once) and turns the hook
   * inactive when the streak reaches `threshold`. Returns the streak, whether this call is the one
   * that turned the hook inactive (so exactly one audit record says so), and the time to record that
   * at: never before a failure counted earlier. Two workers failing at once each took `now` before
   * waiting for the hook's row, so the one that counts second may hold the earlier time; the
   * deactivation it records must still come after both failures in the audit trail.
   */
  async noteFailure(
    id: string,
    threshold: number,
    now: Date,
    trx: Db,
  ): Promise<{ consecutiveFailures: number; deactivated: boolean; at: Date } | undefined> {
    const iso = now.toISOString();
    this.activeIn.delete(trx);
    await trx
      .updateTable('hooks')
      .set((eb) => ({
        consecutive_failures: eb('consecutive_failures', '+', 1),
        updated_at: eb.case().when('updated_at', '>', iso).then(eb.ref('updated_at')).else(iso).end(),
      }))
      .where('id', '=', id)
      .execute();
    const row = await trx
      .selectFrom('hooks')
      .select(['consecutive_failures', 'updated_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const consecutiveFailures = Number(row.consecutive_failures);
    const at = new Date(row.updated_at);
    if (consecutiveFailures < threshold) return { consecutiveFailures, deactivated: false, at };
    const result = await trx
      .updateTable('hooks')
      .set({ active: 0 })
      .where('id', '=', id)
      .where('active', '=', 1)
      .executeTakeFirst();
    return { consecutiveFailures, deactivated: Number(result.numUpdatedRows) === 1, at };
  }

  /** Starts the log entry of a delivery (in the transaction that queues its job). */
  async insertDelivery(
    delivery: { id: string; hookId: string; eventId: string; eventType: EventType },
    now: Date,
    trx: Db,
  ): Promise<void> {
    const iso = now.toISOString();
    await trx
      .insertInto('hook_deliveries')
      .values({
        id: delivery.id,
        hook_id: delivery.hookId,
        event_id: delivery.eventId,
        event_type: delivery.eventType,
        status: 'pending',
        attempts: 0,
        last_status_code: null,
        last_error: null,
        response_ms: null,
        created_at: iso,
        updated_at: iso,
        completed_at: null,
      })
      .execute();
  }

  /** Records an attempt's outcome (the final status is set by `closeDelivery`, with the job's end). */
  async recordAttempt(id: string, outcome: AttemptOutcome, now: Date, trx: Db = this.db): Promise<void> {
    await trx
      .updateTable('hook_deliveries')
      .set({
        ...(outcome.status ? { status: outcome.status } : {}),
        attempts: outcome.attempts,
        last_status_code: outcome.statusCode,
        last_error: outcome.error,
        response_ms: outcome.responseMs,
        updated_at: now.toISOString(),
      })
      .where('id', '=', id)
      .execute();
  }

  /** Removes a delivery's log entry: its hook is gone, and the log went with it. */
  async dropDelivery(id: string, trx: Db): Promise<void> {
    await trx.deleteFrom('hook_deliveries').where('id', '=', id).execute();
  }

  /** Marks a delivery's final status, keeping the last attempt's details (or setting `lastError`). */
  async closeDelivery(
    id: string,
    status: 'delivered' | 'failed' | 'skipped',
    now: Date,
    trx: Db,
    lastError?: string,
  ): Promise<void> {
    const iso = now.toISOString();
    await trx
      .updateTable('hook_deliveries')
      .set({
        status,
        updated_at: iso,
        completed_at: iso,
        ...(lastError === undefined ? {} : { last_error: lastError }),
      })
      .where('id', '=', id)
      .execute();
  }

  /** A page of a hook's deliveries, newest first; `more` when another page follows. */
  async deliveries(
    hookId: string,
    page: { top: number; skip: number },
  ): Promise<{ deliveries: StoredDelivery[]; more: boolean; total: number }> {
    const [rows, counted] = await Promise.all([
      this.db
        .selectFrom('hook_deliveries')
        .selectAll()
        .where('hook_id', '=', hookId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.top + 1)
        .offset(page.skip)
        .execute(),
      this.db
        .selectFrom('hook_deliveries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('hook_id', '=', hookId)
        .executeTakeFirstOrThrow(),
    ]);
    const deliveries = rows.slice(0, page.top).map(toDelivery);
    return { deliveries, more: rows.length > page.top, total: Number(counted.n) };
  }
}
