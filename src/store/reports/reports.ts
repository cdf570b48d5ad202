import { type Kysely, type RawBuilder, sql } from 'kysely';
import type {
  ApprovalOutcomeRow,
  ApprovalWaitRow,
  LeadTimeRow,
  TemplateMonthCount,
} from '../../domain/reports/model';
import { isPostgres } from '../dialect';
import type { Database } from '../schema';

/** Which rows a report counts: an ISO time window (`since` inclusive, `until` exclusive) and a template. */
export interface ReportFilter {
  since?: string;
  until?: string;
  templateId?: string;
}

/** One requester's provisioning requests by outcome (names are the directory's business). */
export interface RequesterCount {
  requesterId: string;
  requested: number;
  completed: number;
  failed: number;
  open: number;
}

const PROVISIONING = 'ProvisioningRequest';

/**
 * The aggregate queries behind the reports, the same SQL on SQLite and PostgreSQL. Timestamps are
 * ISO 8601 text in UTC on both, so `substr(…, 1, 7)` is the month and text comparison orders time;
 * durations are computed by the database (`julianday` on SQLite, `extract(epoch …)` on
 * PostgreSQL). Counts and sums come back as strings from pg (bigint) and are made numbers here.
 */
export class ReportRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Completed provisioning jobs per template and month of completion (when the team was created). */
  async teamsCreated(filter: ReportFilter): Promise<TemplateMonthCount[]> {
    const month = sql<string>`substr(j.completed_at, 1, 7)`;
    const rows = await this.completedProvisioning(filter)
      .select([
        'j.template_id',
        'c.name',
        month.as('month'),
        (eb) => eb.fn.countAll<number | string>().as('n'),
      ])
      .groupBy(['j.template_id', 'c.name', month])
      .orderBy(month)
      .orderBy('j.template_id')
      .execute();
    return rows.map((row) => ({
      templateId: row.template_id ?? '',
      templateName: row.name ?? row.template_id ?? '',
      month: row.month,
      count: Number(row.n),
    }));
  }

  /** Request → completed durations of completed provisioning jobs per template, in seconds. */
  async leadTimes(filter: ReportFilter): Promise<LeadTimeRow[]> {
    const seconds = this.secondsBetween('j.created_at', 'j.completed_at');
    const rows = await this.completedProvisioning(filter)
      .select([
        'j.template_id',
        'c.name',
        (eb) => eb.fn.countAll<number | string>().as('n'),
        sql<number | string>`avg(${seconds})`.as('avg_s'),
        sql<number | string>`min(${seconds})`.as('min_s'),
        sql<number | string>`max(${seconds})`.as('max_s'),
      ])
      .groupBy(['j.template_id', 'c.name'])
      .orderBy('j.template_id')
      .execute();
    return rows.map((row) => ({
      templateId: row.template_id ?? '',
      templateName: row.name ?? row.template_id ?? '',
      completed: Number(row.n),
      avgSeconds: Number(row.avg_s),
      minSeconds: Number(row.min_s),
      maxSeconds: Number(row.max_s),
    }));
  }

  /** How long decided approval requests waited, per template, in seconds (requests made in the window). */
  async approvalWaits(filter: ReportFilter): Promise<ApprovalWaitRow[]> {
    const seconds = this.secondsBetween('a.created_at', 'a.decided_at');
    const rows = await this.approvals(filter)
      .where('a.decided_at', 'is not', null)
      .select([
        'a.template_id',
        'c.name',
        (eb) => eb.fn.countAll<number | string>().as('n'),
        sql<number | string>`avg(${seconds})`.as('avg_s'),
        sql<number | string>`max(${seconds})`.as('max_s'),
      ])
      .groupBy(['a.template_id', 'c.name'])
      .orderBy('a.template_id')
      .execute();
    return rows.map((row) => ({
      templateId: row.template_id,
      templateName: row.name ?? row.template_id,
      decided: Number(row.n),
      avgSeconds: Number(row.avg_s),
      maxSeconds: Number(row.max_s),
    }));
  }

  /** Approval requests made in the window per template, by status. */
  async approvalOutcomes(filter: ReportFilter): Promise<ApprovalOutcomeRow[]> {
    const rows = await this.approvals(filter)
      .select(['a.template_id', 'c.name', 'a.status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy(['a.template_id', 'c.name', 'a.status'])
      .orderBy('a.template_id')
      .execute();
    const byTemplate = new Map<string, ApprovalOutcomeRow>();
    for (const row of rows) {
      let outcome = byTemplate.get(row.template_id);
      if (!outcome) {
        outcome = {
          templateId: row.template_id,
          templateName: row.name ?? row.template_id,
          approved: 0,
          rejected: 0,
          pending: 0,
        };
        byTemplate.set(row.template_id, outcome);
      }
      if (row.status === 'approved' || row.status === 'rejected' || row.status === 'pending') {
        outcome[row.status] += Number(row.n);
      }
    }
    return [...byTemplate.values()];
  }

  /** The `limit` people with the most provisioning requests made in the window, most first. */
  async topRequesters(filter: ReportFilter, limit: number): Promise<RequesterCount[]> {
    const count = sql<number | string>`count(*)`;
    const rows = await this.db
      .selectFrom('jobs as j')
      .where('j.type', '=', PROVISIONING)
      .$if(filter.since !== undefined, (q) => q.where('j.created_at', '>=', filter.since!))
      .$if(filter.until !== undefined, (q) => q.where('j.created_at', '<', filter.until!))
      .select([
        'j.requester_id',
        count.as('n'),
        sql<number | string>`sum(case when j.status = 'completed' then 1 else 0 end)`.as('completed'),
        sql<number | string>`sum(case when j.status = 'failed' then 1 else 0 end)`.as('failed'),
      ])
      .groupBy('j.requester_id')
      .orderBy(count, 'desc')
      .orderBy('j.requester_id')
      .limit(limit)
      .execute();
    return rows.map((row) => {
      const requested = Number(row.n);
      const completed = Number(row.completed);
      const failed = Number(row.failed);
      return {
        requesterId: row.requester_id,
        requested,
        completed,
        failed,
        open: requested - completed - failed,
      };
    });
  }

  /** Completed provisioning jobs, completed in the window, with their template's catalog row. */
  private completedProvisioning(filter: ReportFilter) {
    return this.db
      .selectFrom('jobs as j')
      .leftJoin('catalog_templates as c', 'c.id', 'j.template_id')
      .where('j.type', '=', PROVISIONING)
      .where('j.status', '=', 'completed')
      .where('j.completed_at', 'is not', null)
      .where('j.template_id', 'is not', null)
      .$if(filter.since !== undefined, (q) => q.where('j.completed_at', '>=', filter.since!))
      .$if(filter.until !== undefined, (q) => q.where('j.completed_at', '<', filter.until!))
      .$if(filter.templateId !== undefined, (q) => q.where('j.template_id', '=', filter.templateId!));
  }

  /** Approval requests made in the window, with their template's catalog row. */
  private approvals(filter: ReportFilter) {
    return this.db
      .selectFrom('approvals as a')
      .leftJoin('catalog_templates as c', 'c.id', 'a.template_id')
      .$if(filter.since !== undefined, (q) => q.where('a.created_at', '>=', filter.since!))
      .$if(filter.until !== undefined, (q) => q.where('a.created_at', '<', filter.until!))
      .$if(filter.templateId !== undefined, (q) => q.where('a.template_id', '=', filter.templateId!));
  }

  /** Seconds from one ISO timestamp column to another, as a double, on either database. */
  private secondsBetween(start: string, end: string): RawBuilder<number> {
    return isPostgres(this.db)
      ? sql<number>`extract(epoch from (cast(${sql.ref(end)} as timestamptz) - cast(${sql.ref(start)} as timestamptz)))::float8`
      : sql<number>`((julianday(${sql.ref(end)}) - julianday(${sql.ref(start)})) * 86400.0)`;
  }
}
