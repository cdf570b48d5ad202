import { type AuditActor, type AuditEntry, SYSTEM_ACTOR } from '../../domain/audit';
import { currentStage, type StageState, timerDue, type TimerKind } from '../../domain/approvalStages';
import type { StoredJob } from '../../domain/jobs';
import type { ApprovalRepository } from '../../store/approvals/approvals';
import type { JobRepository } from '../../store/jobs/jobs';
import type { Db } from '../../store/schema';
import type { AuditLog } from '../audit/audit';
import type { EventBus, StewardEvent } from '../webhooks/events';
import type { ProvisioningData } from '../jobData/provisioningData';
import { eventPayload } from '../jobData/provisioningEvents';

/** What opening a stage writes to. */
export interface StageDependencies {
  jobs: JobRepository;
  approvals: ApprovalRepository;
  events: EventBus;
  audit: AuditLog;
}

type Approval = NonNullable<ProvisioningData['approval']>;

/** The stages a job's approval has; a job from before staged policies had one, its approval. */
export function stagesOf(data: ProvisioningData): StageState[] {
  const approval = data.approval;
  if (!approval) return [];
  if (approval.stages) return approval.stages.map((s) => ({ ...s }));
  return [
    {
      id: approval.id,
      name: 'Approval',
      decision: 'any',
      approvers: approval.approvers,
      status: 'pending',
      decider: null,
      comment: null,
      time: null,
    },
  ];
}

/**
 * The job's `data.approval` with its summary fields following the stages: `id`, `approvers` and
 * `status` are those of the stage waiting for a decision (of the last stage once all are decided),
 * so clients of the one-stage format keep reading one approval.
 */
export function withStages(approval: Approval, stages: StageState[]): Approval {
  const open = currentStage(stages);
  const rejected = stages.find((s) => s.status === 'rejected' || s.status === 'expired');
  const shown = open?.stage ?? rejected ?? stages[stages.length - 1]!;
  const status = open ? 'pending' : rejected ? 'rejected' : 'approved';
  return {
    ...approval,
    id: shown.id,
    status,
    approvers: shown.approvers.map((a) => ({ id: a.id, ...(a.name ? { name: a.name } : {}) })),
    stages,
  };
}

/** A record of a stage in the approvals trail, by `actor`. */
export function stageRecord(
  actor: { actor: AuditActor; requestId: string | null },
  action: string,
  job: Pick<StoredJob, 'id'>,
  data: ProvisioningData,
  stage: StageState,
  details: Record<string, unknown> = {},
): AuditEntry {
  const stages = data.approval?.stages ?? [];
  return {
    trail: 'approvals',
    action,
    actor: actor.actor,
    requestId: actor.requestId,
    outcome: 'success',
    target: { type: 'approval', id: stage.id, displayName: data.plan.displayName },
    details: {
      jobId: job.id,
      templateId: data.template.id,
      stage: { name: stage.name, number: stages.indexOf(stage) + 1, count: stages.length },
      ...details,
    },
  };
}

/**
 * Opens the stage now waiting in `data` (its approval row is already pending): queues its timers
 * as jobs due later, records `approval_requested` naming the stage, and the stage's
 * `team_creation_approval_requested` event. Runs inside the transaction that opened the stage.
 */
export async function openCurrentStage(
  deps: StageDependencies,
  trx: Db,
  job: Pick<StoredJob, 'id' | 'requesterId'>,
  data: ProvisioningData,
  actor: { actor: AuditActor; requestId: string | null },
  now: Date,
): Promise<StewardEvent[]> {
  const open = currentStage(data.approval?.stages ?? []);
  if (!open) return [];
  const { stage } = open;
  const due = timerDue(now, data.approval?.timers ?? {});
  for (const kind of Object.keys(due) as TimerKind[]) {
    await deps.jobs.insert(
      {
        id: `${stage.id}:${kind}`,
        type: 'ApprovalTimer',
        queued: true,
        data: { approvalId: stage.id, jobId: job.id, kind },
        log: [],
        requesterId: job.requesterId,
        runAt: due[kind],
      },
      now,
      trx,
    );
  }
  await deps.audit.record(
    trx,
    stageRecord(actor, 'approval_requested', job, data, stage, {
      approvers: stage.approvers.map((a) => a.id),
      ...(stage.escalated ? { escalated: stage.escalated } : {}),
    }),
    now,
  );
  return [await deps.events.record(trx, 'team_creation_approval_requested', eventPayload(job, data), now)];
}

/** Steward's own actor, for what timers do. */
export const TIMER_ACTOR = { actor: SYSTEM_ACTOR, requestId: null };
