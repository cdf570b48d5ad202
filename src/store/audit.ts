import type { Kysely } from 'kysely';
import type { AuditActor, AuditEntry, AuditTarget, StoredAuditRecord } from '../domain/audit';
import type { Database, Db } from './schema';

/** Where a page starts: after the record at (date, seq), newest first. */
export interface AuditCursor {
  date: string;
  seq: number;
}

/** Audit records: appended inside the transaction of the change they record, never updated or deleted. */
export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async append(
    entries: readonly (AuditEntry & { id: string; tenantId: string })[],
    now: Date,
    trx: Db = this.db,
  ): Promise<void> {
    if (entries.length === 0) return;
    await trx
      .insertInto('audit_records')
      .values(
        entries.map((entry) => ({
          id: entry.id,
          trail: entry.trail,
          created_at: now.toISOString(),
          tenant_id: entry.tenantId,
          actor: JSON.stringify(entry.actor),
          action: entry.action,
          target: JSON.stringify(entry.target),
          outcome: entry.outcome,
          request_id: entry.requestId,
          details: entry.details ? JSON.stringify(entry.details) : null,
        })),
      )
      .execute();
  }

  /**
   * One page of a trail, newest first: records dated in [from, to) strictly after `after` in that
   * order. Reads one record more than `top` to tell whether another page follows.
   */
  async page(
    trail: string,
    options: { top: number; after?: AuditCursor; from?: string; to?: string },
  ): Promise<{ records: StoredAuditRecord[]; more: boolean }> {
    let query = this.db.selectFrom('audit_records').selectAll().where('trail', '=', trail);
    if (options.from) query = query.where('created_at', '>=', options.from);
    if (options.to) query = query.where('created_at', '<', options.to);
    const after = options.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', after.date),
          eb.and([eb('created_at', '=', after.date), eb('seq', '<', after.seq)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(options.top + 1)
      .execute();
    return {
      records: rows.slice(0, options.top).map((row) => ({
        seq: Number(row.seq),
        id: row.id,
        trail: row.trail,
        date: row.created_at,
        tenantId: row.tenant_id,
        actor: JSON.parse(row.actor) as AuditActor,
        action: row.action,
        target: JSON.parse(row.target) as AuditTarget,
        outcome: row.outcome,
        requestId: row.request_id,
        details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
      })),
      more: rows.length > options.top,
    };
  }
}
