import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { AUDIT_TRAILS, type AuditEntry, isAuditTrailCode } from '../../domain/audit';
import { NotFound, ValidationFailed } from '../../domain/errors';
import type { StoredAuditRecord } from '../../domain/audit';
import type { AuditCursor, AuditRepository } from '../../store/audit/audit';
import type { Database } from '../../store/schema';

/** A page of records, the cursor of the next page (if any), and how many records match in all. */
export interface AuditPage {
  records: StoredAuditRecord[];
  next?: string;
  total: number;
}

/**
 * The audit log. `record` appends inside the caller's transaction — the one that makes the change —
 * so a change and its record commit or roll back together.
 */
export class AuditLog {
  constructor(
    private readonly store: AuditRepository,
    private readonly tenantId: string,
  ) {}

  /** Appends `entries` in `trx` (the transaction of the change); `undefined` for records of no change (refused calls). */
  async record(
    trx: Kysely<Database> | Transaction<Database> | undefined,
    entries: AuditEntry | readonly AuditEntry[],
    now: Date,
  ): Promise<void> {
    const list = Array.isArray(entries) ? (entries as readonly AuditEntry[]) : [entries as AuditEntry];
    await this.store.append(
      list.map((entry) => this.identified(entry)),
      now,
      trx,
    );
  }

  /**
   * Appends `entries` that go with no other change (a job's start), all or none, in as few
   * statements as the database allows.
   */
  async recordAlone(entries: readonly AuditEntry[], now: Date): Promise<void> {
    if (entries.length === 0) return;
    await this.store.appendAtomically(
      entries.map((entry) => this.identified(entry)),
      now,
    );
  }

  /**
   * The entry with its id and tenant, put first: an object made as `{ ...entry, id, tenantId }`
   * (spread, then new properties) outlives V8's young-generation collections, and an evaluation
   * appends tens of thousands of records, which then filled the old generation with garbage.
   */
  private identified(entry: AuditEntry) {
    return { id: randomUUID(), tenantId: this.tenantId, ...entry };
  }

  trails() {
    return AUDIT_TRAILS;
  }

  /** One page of trail `code`, newest first; `skiptoken` is the `next` of the previous page. */
  async records(
    code: string,
    options: { top: number; skiptoken?: string; from?: Date; to?: Date },
  ): Promise<AuditPage> {
    if (!isAuditTrailCode(code)) throw new NotFound(`There is no audit trail ${code}.`);
    const after = options.skiptoken === undefined ? undefined : decodeCursor(options.skiptoken);
    const range = { from: options.from?.toISOString(), to: options.to?.toISOString() };
    const [{ records, more }, total] = await Promise.all([
      this.store.page(code, { top: options.top, after, ...range }),
      this.store.count(code, range),
    ]);
    const last = records.at(-1);
    const next = more && last ? encodeCursor({ date: last.date, seq: last.seq }) : undefined;
    return { records, next, total };
  }
}

/** Cursors are opaque to clients: base64url of `<ISO date>|<seq>`. */
function encodeCursor(cursor: AuditCursor): string {
  return Buffer.from(`${cursor.date}|${cursor.seq}`).toString('base64url');
}

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|(\d{1,15})$/;

function decodeCursor(token: string): AuditCursor {
  const match = /^[A-Za-z0-9_-]{1,200}$/.test(token)
    ? CURSOR.exec(Buffer.from(token, 'base64url').toString('utf8'))
    : null;
  if (!match) {
    throw new ValidationFailed('The $skiptoken is not one this API returned.', [
      {
        code: 'invalidSkipToken',
        target: '$skiptoken',
        message: 'Use the @odata.nextLink of the previous page.',
      },
    ]);
  }
  return { date: match[1]!, seq: Number(match[2]) };
}
