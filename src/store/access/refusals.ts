import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AuditActor, AuditTarget } from '../../domain/audit';
import { addToDayCount } from '../audit/audit';
import type { Database } from '../schema';

/** One refused call, as the security trail counts it. */
export interface CountedRefusal {
  tenantId: string;
  source: string;
  status: number;
  reason: string;
  actor: AuditActor;
  action: string;
  target: AuditTarget;
  requestId: string;
  details: Record<string, unknown>;
}

/**
 * The counters of refused calls (migration 0009): one row per tenant, source, status, actor,
 * reason and minute. Each refusal is one upsert that adds one to its row, atomic on both databases,
 * so the count is exact whatever the number of API processes; the row's other columns keep what
 * the first refusal of its minute said (its request id, operation, method and path).
 */
export class RefusalRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Counts `refusal` at `at`; answers how many refusals its source has had in that minute, all reasons. */
  async add(refusal: CountedRefusal, at: Date): Promise<number> {
    // Cut to the columns' sizes: a forwarded address is whatever a trusted proxy passed on.
    const source = refusal.source.slice(0, 64);
    const minute = minuteOf(at);
    const date = at.toISOString();
    const row = await this.db
      .insertInto('refusal_counts')
      .values({
        id: randomUUID(),
        tenant_id: refusal.tenantId,
        minute,
        source,
        status: refusal.status,
        actor_id: refusal.actor.id,
        reason: refusal.reason.slice(0, 512),
        created_at: date,
        last_at: date,
        count: 1,
        actor: JSON.stringify(refusal.actor),
        action: refusal.action,
        target: JSON.stringify(refusal.target),
        request_id: refusal.requestId,
        details: JSON.stringify(refusal.details),
      })
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'minute', 'source', 'status', 'actor_id', 'reason']).doUpdateSet((eb) => ({
          count: eb('refusal_counts.count', '+', 1),
          // Two processes may write out of order: the latest refusal stays the latest.
          last_at: eb
            .case()
            .when('refusal_counts.last_at', '<', eb.ref('excluded.last_at'))
            .then(eb.ref('excluded.last_at'))
            .else(eb.ref('refusal_counts.last_at'))
            .end(),
        })),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    // A new row is a new record of the security trail: the day's count of records gains one.
    if (Number(row.count) === 1) await addToDayCount(this.db, 'security', date.slice(0, 10), 1);
    const total = await this.db
      .selectFrom('refusal_counts')
      .select((eb) => eb.fn.sum<number | string | null>('count').as('n'))
      .where('tenant_id', '=', refusal.tenantId)
      .where('minute', '=', minute)
      .where('source', '=', source)
      .executeTakeFirstOrThrow();
    return Number(total.n ?? 0);
  }
}

/** The UTC minute of `at`, as the ISO timestamp of its start. */
export function minuteOf(at: Date): string {
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000).toISOString();
}
