import type { Kysely } from 'kysely';
import { type AuditActor, actorOf } from '../../domain/audit';
import { applyVote, stageById, type StageState, undecided } from '../../domain/approvalStages';
import type { Caller } from '../../domain/caller';
import { Conflict } from '../../domain/errors';
import type { StoredJob } from '../../domain/jobs';
import type { ApprovalRepository } from '../../store/approvals/approvals';
import type { JobRepository } from '../../store/jobs/jobs';
import type { Database, Db } from '../../store/schema';
import type { AuditLog } from '../audit/audit';
import { openCurrentStage, stageRecord, stagesOf, withStages } from './approvalStages';
import type { EventBus, StewardEvent } from '../webhooks/events';
import type { ProvisioningData } from '../jobData/provisioningData';
import { eventPayload } from '../jobData/provisioningEvents';

export interface DecisionDependencies {
  db: Kysely<Database>;
  jobs: JobRepository;
  approvals: ApprovalRepository;
  events: EventBus;
  audit: AuditLog;
  /** The label's kept grants, deleted when the request will not be made (`SensitivityLabels.forget`). */
  labels?: { forget(jobId: string, trx: Db): Promise<void> };
}

/** One approver's decision on one stage, with the amendments (already checked) it carries. */
export interface Decision {
  approvalId: string;
  status: 'approved' | 'rejected';
  caller: Caller;
  message: string | null;
  /** The request and plan as amended by this approver (approvals only). */
  amended?: Pick<ProvisioningData, 'request' | 'plan'>;
  /** The amendments as sent, for the audit record. */
  updates: Record<string, string> | null;
  /**
   * Work done in the transaction that queues the job (the last stage approved): keeping the
   * approver's delegated grant for the label. Returns log lines for the job.
   */
  whenQueued?: (trx: Db, jobId: string) => Promise<string[]>;
}

/**
 * Records a decision in one transaction: the stage's row is locked first, so concurrent votes on
 * one stage count one after the other and a second decision of an `any` stage is 409. The vote may
 * leave an `all` stage open, settle it and open the next stage, approve the last stage (the job is
 * queued), or reject the request (the job fails with the approver's words).
 */
export async function recordDecision(
  deps: DecisionDependencies,
  decision: Decision,
  now: Date,
): Promise<void> {
  const events = await deps.db.transaction().execute(async (trx) => {
    if (!(await deps.approvals.lockPending(decision.approvalId, trx))) {
      throw new Conflict('This request was already decided.');
    }
    const job = await deps.jobs.get((await deps.approvals.get(decision.approvalId, trx))!.jobId, trx);
    if (!job) throw new Conflict('The request is no longer waiting for a decision.');
    const data = structuredClone(job.data) as ProvisioningData;
    const stages = stagesOf(data);
    const found = stageById(stages, decision.approvalId);
    if (!found) throw new Conflict('This stage is not part of the request any more.');
    const { caller } = decision;
    if (found.stage.votes?.some((v) => v.id === caller.id)) {
      throw new Conflict('You already decided on this stage; the other approvers decide now.');
    }
    const vote = {
      id: caller.id,
      ...(caller.name ? { name: caller.name } : {}),
      status: decision.status,
      comment: decision.message,
      time: now.toISOString(),
    };
    const { stage, outcome } = applyVote(found.stage, vote);
    stages[found.index] = stage;
    if (decision.amended) {
      data.request = decision.amended.request;
      data.plan = decision.amended.plan;
    }
    const next = outcome === 'approved' ? stages[found.index + 1] : undefined;
    if (next) next.status = 'pending';
    data.approval = {
      ...withStages(data.approval!, stages),
      ...(outcome === 'open' ? {} : { approver: { id: caller.id, message: decision.message } }),
    };
    const actor = { actor: actorOf(caller), requestId: caller.requestId ?? null };
    const context = { deps, trx, job, data, stage, actor, now, decision };
    if (outcome === 'open') return recordVote(context);
    if (!(await deps.approvals.decide(stage.id, decisionRow(decision), now, trx))) {
      throw new Conflict('This request was already decided.');
    }
    if (next) {
      await deps.approvals.open(next.id, now, trx);
      return openNextStage(context, next);
    }
    return outcome === 'approved' ? approveRequest(context) : rejectRequest(context);
  });
  deps.events.publish(events);
}

interface DecisionContext {
  deps: DecisionDependencies;
  trx: Db;
  job: StoredJob;
  data: ProvisioningData;
  stage: StageState;
  actor: { actor: AuditActor; requestId: string | null };
  now: Date;
  decision: Decision;
}

function decisionRow(decision: Decision) {
  return {
    status: decision.status,
    by: decision.caller.id,
    message: decision.message,
    updates: decision.updates,
  };
}

/** What the job's log says of a decision. */
function decisionLine({ decision, data, stage }: DecisionContext, verb: string): string {
  const who = decision.caller.name ?? decision.caller.id;
  const stages = data.approval?.stages ?? [];
  const where =
    stages.length > 1 ? ` (stage ${stages.indexOf(stage) + 1} of ${stages.length}: ${stage.name})` : '';
  return `${verb} by ${who}${where}${decision.message ? `: ${decision.message}` : '.'}`;
}

async function auditDecision(context: DecisionContext, action: string): Promise<void> {
  const { deps, trx, job, data, stage, actor, now, decision } = context;
  const updates =
    decision.updates && Object.keys(decision.updates).length > 0 ? { updates: decision.updates } : {};
  await deps.audit.record(
    trx,
    stageRecord(actor, action, job, data, stage, { message: decision.message, ...updates }),
    now,
  );
}

async function updateJob(
  context: DecisionContext,
  change: { status?: 'failed'; queued?: boolean; appendLog: string[]; failedReason?: string },
): Promise<void> {
  const { deps, trx, job, data, now } = context;
  const updated = await deps.jobs.updateUnclaimed(job.id, 'waiting', { ...change, data }, now, trx);
  if (!updated) throw new Conflict('The request is no longer waiting for a decision.');
}

/** An approval on an `all` stage that others have still to give. */
async function recordVote(context: DecisionContext): Promise<StewardEvent[]> {
  const waiting = undecided(context.stage).map((a) => a.name ?? a.id);
  await auditDecision(context, 'approval_vote');
  await updateJob(context, {
    appendLog: [`${decisionLine(context, 'Approved')} Still waiting for ${waiting.join(', ')}.`],
  });
  return [];
}

/** A stage approved with more to come: the next stage opens, with its own approval request. */
async function openNextStage(context: DecisionContext, next: StageState): Promise<StewardEvent[]> {
  const { deps, trx, job, data, actor, now } = context;
  await auditDecision(context, 'approval_approved');
  const who = next.approvers.map((a) => a.name ?? a.id).join(', ');
  const renamed = renamedLine(context);
  await updateJob(context, {
    appendLog: [
      `${decisionLine(context, 'Approved')}${renamed}`,
      `Waiting for approval ${next.id} (stage ${data.approval!.stages!.indexOf(next) + 1} of ${data.approval!.stages!.length}: ${next.name}) by ${who}.`,
    ],
  });
  return openCurrentStage(deps, trx, job, data, actor, now);
}

/** The last stage approved: the job is queued to run. */
async function approveRequest(context: DecisionContext): Promise<StewardEvent[]> {
  const { deps, trx, job, data, now, actor } = context;
  await auditDecision(context, 'approval_approved');
  await deps.audit.record(
    trx,
    {
      trail: 'team_provisioning',
      action: 'job_queued',
      actor: actor.actor,
      requestId: actor.requestId,
      outcome: 'success',
      target: { type: 'job', id: job.id },
      details: { approvalId: context.stage.id },
    },
    now,
  );
  const more = (await context.decision.whenQueued?.(trx, job.id)) ?? [];
  await updateJob(context, {
    queued: true,
    appendLog: [`${decisionLine(context, 'Approved')}${renamedLine(context)}`, ...more],
  });
  return [await deps.events.record(trx, 'team_creation_approved', eventPayload(job, data), now)];
}

/** A rejection at any stage: the job fails with the approver's words. */
async function rejectRequest(context: DecisionContext): Promise<StewardEvent[]> {
  await auditDecision(context, 'approval_rejected');
  return failRequest(context, decisionLine(context, 'Rejected'), 'rejected');
}

/** Ends a request that will not be approved (rejected, or expired): job failed, events recorded. */
export async function failRequest(
  context: Pick<DecisionContext, 'deps' | 'trx' | 'job' | 'data' | 'actor' | 'now' | 'stage'>,
  reason: string,
  why: 'rejected' | 'expired',
): Promise<StewardEvent[]> {
  const { deps, trx, job, data, actor, now } = context;
  await deps.audit.record(
    trx,
    {
      trail: 'team_provisioning',
      action: 'job_failed',
      actor: actor.actor,
      requestId: actor.requestId,
      outcome: 'failure',
      target: { type: 'job', id: job.id },
      details: { approvalId: context.stage.id, reason: why },
    },
    now,
  );
  const updated = await deps.jobs.updateUnclaimed(
    job.id,
    'waiting',
    { status: 'failed', data, appendLog: [reason], failedReason: reason },
    now,
    trx,
  );
  if (!updated) throw new Conflict('The request is no longer waiting for a decision.');
  // The requester's grant, kept for the label, has nothing left to do.
  await deps.labels?.forget(job.id, trx);
  const payload = eventPayload(job, data);
  return [
    await deps.events.record(
      trx,
      'team_creation_rejected',
      why === 'expired' ? { ...payload, reason: 'expired' } : payload,
      now,
    ),
    await deps.events.record(trx, 'team_provisioning_failed', { ...payload, reason }, now),
  ];
}

function renamedLine({ job, data }: DecisionContext): string {
  const before = (job.data as ProvisioningData).plan.displayName;
  return data.plan.displayName !== before ? ` Renamed to "${data.plan.displayName}".` : '';
}
