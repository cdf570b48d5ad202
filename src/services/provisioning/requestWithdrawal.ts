import type { Kysely } from 'kysely';
import { callerRecord } from '../../domain/audit';
import { currentStage } from '../../domain/approvalStages';
import type { Caller } from '../../domain/caller';
import { Conflict, NotFound } from '../../domain/errors';
import type { StoredJob } from '../../domain/jobs';
import type { ApprovalRepository } from '../../store/approvals/approvals';
import type { JobRepository } from '../../store/jobs/jobs';
import type { Database } from '../../store/schema';
import { stagesOf, withStages } from '../approvals/approvalStages';
import type { AuditLog } from '../audit/audit';
import type { EventBus } from '../webhooks/events';
import type { ProvisioningData } from '../jobData/provisioningData';
import { eventPayload } from '../jobData/provisioningEvents';

/** What withdrawing a request writes to. */
export interface WithdrawalDependencies {
  db: Kysely<Database>;
  jobs: JobRepository;
  approvals: ApprovalRepository;
  events: EventBus;
  audit: AuditLog;
}

/** The job's failed reason once withdrawn, in the API's English (clients have their own words). */
export const WITHDRAWN_REASON = 'Withdrawn by the requester before it was decided.';

/**
 * The requester withdraws a team request that waits for approval (`POST /jobs/{id}/withdraw`), in
 * one transaction: the pending stage's row is locked first, as a decision locks it, and the job is
 * read again once it is held, so a withdrawal and a vote (or an approval timer) on the same stage
 * count one after the other, the second reading what the first wrote (or getting 409). Every stage still to decide becomes `withdrawn` (rows and the job's stages), the job
 * ends failed with the approval `withdrawn`, the `team_provisioning` trail records
 * `provisioning_withdrawn`, and `team_provisioning_failed` says so with `reason: withdrawn` (the
 * bot redraws the approvers' cards from it). Only the requester may: anyone else gets 404, as for
 * a job they may not see.
 */
export async function withdrawRequest(
  deps: WithdrawalDependencies,
  caller: Caller,
  jobId: string,
  now: Date,
): Promise<StoredJob> {
  const { job, events } = await deps.db.transaction().execute(async (trx) => {
    const seen = await deps.jobs.get(jobId, trx);
    if (!seen || seen.type !== 'ProvisioningRequest' || seen.requesterId !== caller.id) {
      throw new NotFound(`No request "${jobId}" of yours.`);
    }
    const stage = waitingStage(seen);
    if (!(await deps.approvals.lockPending(stage, trx))) {
      throw new Conflict('The request was decided first: it can no longer be withdrawn.');
    }
    // The job as it stands once its stage is locked: a vote that committed while the lock was
    // awaited (an `all` stage stays open after it) is in it, and is kept in what is written back.
    const job = (await deps.jobs.get(jobId, trx))!;
    const data = structuredClone(job.data) as ProvisioningData;
    const stages = stagesOf(data);
    const open = currentStage(stages);
    if (waitingStage(job) !== stage || !data.approval || !open) {
      throw new Conflict('The request was decided first: it can no longer be withdrawn.');
    }
    await deps.approvals.withdraw(job.id, trx);
    for (const stage of stages) {
      if (stage.status === 'pending' || stage.status === 'upcoming')
        Object.assign(stage, { status: 'withdrawn', time: now.toISOString() });
    }
    const who = { id: caller.id, ...(caller.name ? { name: caller.name } : {}) };
    data.approval = {
      ...withStages(data.approval, stages),
      id: open.stage.id,
      approvers: open.stage.approvers.map((a) => ({ id: a.id, ...(a.name ? { name: a.name } : {}) })),
      status: 'withdrawn',
      withdrawn: { by: who, time: now.toISOString() },
    };
    await deps.audit.record(
      trx,
      callerRecord(caller, {
        trail: 'team_provisioning',
        action: 'provisioning_withdrawn',
        target: { type: 'job', id: job.id, displayName: data.plan.displayName },
        details: { approvalId: open.stage.id, stage: open.stage.name },
      }),
      now,
    );
    const updated = await deps.jobs.updateUnclaimed(
      job.id,
      'waiting',
      {
        status: 'failed',
        data,
        appendLog: [`Withdrawn by ${caller.name ?? caller.id} before a decision.`],
        failedReason: WITHDRAWN_REASON,
      },
      now,
      trx,
    );
    if (!updated) throw new Conflict('The request is no longer waiting for approval.');
    const payload = { ...eventPayload(job, data), reason: 'withdrawn' };
    const event = await deps.events.record(trx, 'team_provisioning_failed', payload, now);
    return { job: (await deps.jobs.get(job.id, trx))!, events: [event] };
  });
  deps.events.publish(events);
  return job;
}

/** The id of the stage a request waits for; 409 unless it waits for approval. */
function waitingStage(job: StoredJob): string {
  const data = job.data as ProvisioningData;
  const open = currentStage(stagesOf(data));
  if (job.status !== 'waiting' || job.queued || !data.approval || !open) {
    throw new Conflict('Only a request that is waiting for approval can be withdrawn.');
  }
  return open.stage.id;
}
