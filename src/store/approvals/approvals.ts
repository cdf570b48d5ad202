import { type Kysely, sql } from 'kysely';
import type { ApprovalRow, Database, Db } from '../schema';

/** An approval request for a provisioning job. */
export interface StoredApproval {
  id: string;
  jobId: string;
  templateId: string;
  approverIds: string[];
  /**
   * `upcoming` until the stages before it are approved; `expired` when nobody decided in time;
   * `withdrawn` when the requester withdrew the request first.
   */
  status: 'upcoming' | 'pending' | 'approved' | 'rejected' | 'expired' | 'withdrawn';
  stageIndex: number;
  stageName: string | null;
  decision: 'any' | 'all';
  remindedAt: string | null;
  escalatedAt: string | null;
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
    approval: {
      id: string;
      jobId: string;
      templateId: string;
      approverIds: string[];
      stageIndex?: number;
      stageName?: string;
      decision?: 'any' | 'all';
      upcoming?: boolean;
    },
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
        status: approval.upcoming ? 'upcoming' : 'pending',
        stage_index: approval.stageIndex ?? 0,
        stage_name: approval.stageName ?? null,
        decision: approval.decision ?? 'any',
        votes: '{}',
        reminded_at: null,
        escalated_at: null,
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

  /** The approval requests of a job, one per stage, in stage order. */
  async forJob(jobId: string, trx: Db = this.db): Promise<StoredApproval[]> {
    const rows = await trx
      .selectFrom('approvals')
      .selectAll()
      .where('job_id', '=', jobId)
      .orderBy('stage_index')
      .execute();
    return rows.map(toApproval);
  }

  /**
   * Takes the approval's row lock for the rest of `trx` if it is still pending (false otherwise),
   * so that concurrent votes on one stage are counted one after the other.
   */
  async lockPending(id: string, trx: Db): Promise<boolean> {
    const result = await trx
      .updateTable('approvals')
      .set((eb) => ({ status: eb.ref('status') }))
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * The pending approval requests `approverId` is one of the approvers of, oldest first, at most
   * `limit`. The approvers are a JSON list of ids, so the row is found by the id's JSON text (with
   * LIKE's own characters escaped) and checked again once parsed.
   */
  async pendingFor(approverId: string, limit: number, trx: Db = this.db): Promise<StoredApproval[]> {
    const needle = JSON.stringify(approverId).replace(/[\\%_]/g, (c) => `\\${c}`);
    const rows = await trx
      .selectFrom('approvals')
      .selectAll()
      .where('status', '=', 'pending')
      .where(sql<boolean>`approvers like ${`%${needle}%`} escape ${'\\'}`)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toApproval).filter((approval) => approval.approverIds.includes(approverId));
  }

  /**
   * Withdraws every stage of a job still to be decided (pending or upcoming), in `trx`; resolves to
   * how many. The caller holds the pending stage's lock first (`lockPending`), as a decision does.
   * Nobody decided, so `decided_by` and `decided_at` stay empty (the reports' approval waits count
   * decisions only); who withdrew and when are in the job and the audit trail.
   */
  async withdraw(jobId: string, trx: Db): Promise<number> {
    const result = await trx
      .updateTable('approvals')
      .set({ status: 'withdrawn' })
      .where('job_id', '=', jobId)
      .where('status', 'in', ['pending', 'upcoming'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Opens the next stage's approval request once the one before it is approved. */
  async open(id: string, now: Date, trx: Db): Promise<boolean> {
    const result = await trx
      .updateTable('approvals')
      .set({ status: 'pending', created_at: now.toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'upcoming')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Marks a pending approval reminded; false when it was already, or is no longer pending. */
  async markReminded(id: string, now: Date, trx: Db): Promise<boolean> {
    const result = await trx
      .updateTable('approvals')
      .set({ reminded_at: now.toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('reminded_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Adds the escalation team to a pending approval's approvers, once. */
  async escalate(id: string, approverIds: string[], now: Date, trx: Db): Promise<boolean> {
    const result = await trx
      .updateTable('approvals')
      .set({ approvers: JSON.stringify(approverIds), escalated_at: now.toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('escalated_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records a decision if the approval is still pending; false when someone decided first. */
  async decide(
    id: string,
    decision: {
      status: 'approved' | 'rejected' | 'expired';
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
    stageIndex: Number(row.stage_index),
    stageName: row.stage_name,
    decision: row.decision === 'all' ? 'all' : 'any',
    remindedAt: row.reminded_at,
    escalatedAt: row.escalated_at,
  };
}
