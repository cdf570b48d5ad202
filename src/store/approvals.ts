import type { Kysely } from 'kysely';
import type { ApprovalRow, Database, Db } from './schema';

/** An approval request for a provisioning job. */
export interface StoredApproval {
  id: string;
  jobId: string;
  templateId: string;
  approverIds: string[];
  status: 'pending' | 'approved' | 'rejected';
  decidedBy: string | null;
  decidedAt: string | null;
  message: string | null;
  updates: Record<string, string> | null;
  createdAt: string;
}

/** Approval requests and their decisions. A decision is taken once: the first one wins. */
export class ApprovalRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(
    approval: { id: string; jobId: string; templateId: string; approverIds: string[] },
    now: Date,
    trx: Db = this.db,
  ): Promise<void> {
    await trx
      .insertInto('approvals')
      .values({
        id: approval.id,
        job_id: approval.jobId,
        template_id: approval.templateId,
        approvers: JSON.stringify(approval.approverIds),
        status: 'pending',
        decided_by: null,
        decided_at: null,
        message: null,
        updates: null,
        created_at: now.toISOString(),
      })
      .execute();
  }

  async get(id: string, trx: Db = this.db): Promise<StoredApproval | undefined> {
    const row = await trx.selectFrom('approvals').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toApproval(row);
  }

  async forJob(jobId: string): Promise<StoredApproval | undefined> {
    const row = await this.db
      .selectFrom('approvals')
      .selectAll()
      .where('job_id', '=', jobId)
      .executeTakeFirst();
    return row && toApproval(row);
  }

  /** Records a decision if the approval is still pending; false when someone decided first. */
  async decide(
    id: string,
    decision: {
      status: 'approved' | 'rejected';
      by: string;
      message: string | null;
      updates: Record<string, string> | null;
    },
    now: Date,
    trx: Db,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('approvals')
      .set({
        status: decision.status,
        decided_by: decision.by,
        decided_at: now.toISOString(),
        message: decision.message,
        updates: decision.updates ? JSON.stringify(decision.updates) : null,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

function toApproval(row: ApprovalRow): StoredApproval {
  return {
    id: row.id,
    jobId: row.job_id,
    templateId: row.template_id,
    approverIds: JSON.parse(row.approvers) as string[],
    status: row.status as StoredApproval['status'],
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
    message: row.message,
    updates: row.updates ? (JSON.parse(row.updates) as Record<string, string>) : null,
    createdAt: row.created_at,
  };
}
