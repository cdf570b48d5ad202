import type { JobType, StoredJob } from '../../domain/jobs';
import { stepStatuses, toWireJob } from '../../domain/jobs';
import type { Job, JobStep } from '../../contract';
import type { JobDependencies, JobHandler, JobTypeModule } from './jobType';
import { approvalTimerJob } from '../approvals/approvalTimerJob';
import { driftApplyJob } from '../drift/driftApplyJob';
import { lifecycleChangeJob } from '../lifecycle/lifecycleChangeJob';
import { lifecycleEvaluationJob } from '../lifecycle/evaluationJob';
import { provisioningJob } from '../provisioning/job';
import { teamArchiveJob } from '../teams/teamArchiveJob';
import { teamJoinJob } from '../joining/teamJoinJob';
import { webhookDeliveryJob } from '../webhooks/webhookDeliveryJob';

/**
 * Every job type the queue runs, one module each. To add a job type: write its module (data
 * schema, steps, handler, events; see `teamArchive.ts` for a small one), add its name to `JobType`
 * in `domain/jobs.ts`, and list it here.
 */
export const JOB_TYPES: { readonly [T in JobType]: JobTypeModule<unknown> } = {
  ProvisioningRequest: provisioningJob as JobTypeModule<unknown>,
  TeamArchiveRequest: teamArchiveJob as JobTypeModule<unknown>,
  WebhookDelivery: webhookDeliveryJob as JobTypeModule<unknown>,
  ApprovalTimer: approvalTimerJob as JobTypeModule<unknown>,
  LifecycleEvaluation: lifecycleEvaluationJob as JobTypeModule<unknown>,
  LifecycleChange: lifecycleChangeJob as JobTypeModule<unknown>,
  TeamJoinRequest: teamJoinJob as JobTypeModule<unknown>,
  TeamDriftApply: driftApplyJob as JobTypeModule<unknown>,
};

/** A job type's module with the handler the worker calls. */
export interface RunnableJobType {
  readonly module: JobTypeModule<unknown>;
  readonly handler: JobHandler<unknown>;
}

/** Builds every job type's handler once, for a worker. */
export function buildJobTypes(deps: JobDependencies): Record<JobType, RunnableJobType> {
  const built = {} as Record<JobType, RunnableJobType>;
  for (const type of Object.keys(JOB_TYPES) as JobType[]) {
    const module = JOB_TYPES[type];
    built[type] = { module, handler: module.handler(deps) };
  }
  return built;
}

/** Where each step of a job stands, as its type defines the steps. */
export function jobSteps(job: StoredJob): JobStep[] {
  const module = JOB_TYPES[job.type];
  return stepStatuses(module.steps(job.data), job, module.settled?.(job.data));
}

/** A job as the API shows it, steps included. */
export function wireJob(job: StoredJob, queuePaused: boolean): Job {
  return toWireJob(job, queuePaused, jobSteps(job));
}
