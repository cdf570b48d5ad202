import type { Kysely } from 'kysely';
import type { TeamsPlatform } from '../platform/port';
import { approvalTimerJob } from '../services/approvals/approvalTimerJob';
import type { ApprovalTimerActions } from '../services/approvals/types';
import type { AuditLog } from '../services/audit/audit';
import type { DirectoryService } from '../services/directory/directory';
import { driftApplyJob } from '../services/drift/driftApplyJob';
import type { JobRegistry } from '../services/jobs/registry';
import { teamJoinJob } from '../services/joining/teamJoinJob';
import type { SensitivityLabels } from '../services/labels/sensitivityLabels';
import { lifecycleEvaluationJob } from '../services/lifecycle/evaluationJob';
import { lifecycleChangeJob } from '../services/lifecycle/lifecycleChangeJob';
import type { LifecycleRunner } from '../services/lifecycle/types';
import { provisioningJob } from '../services/provisioning/job';
import type { MetadataService } from '../services/teams/metadata';
import { teamArchiveJob } from '../services/teams/teamArchiveJob';
import type { EventBus } from '../services/webhooks/events';
import type { HookSecrets } from '../services/webhooks/hookSecrets';
import { type WebhookDeliveryPolicy, webhookDeliveryJob } from '../services/webhooks/webhookDeliveryJob';
import type { WebhookSender } from '../services/webhooks/webhookSender';
import type { HookRepository } from '../store/webhooks/hooks';
import type { Database } from '../store/schema';

/**
 * What the composed program gives job handlers (`buildWorker`); each job type's handler takes the
 * part it declares (`ProvisioningJobDeps`, …), and the registry below does not compile when one
 * asks for something missing here.
 */
export interface JobWorld {
  db: Kysely<Database>;
  teams: TeamsPlatform;
  events: EventBus;
  audit: AuditLog;
  metadata: MetadataService;
  metadataNamespace: string;
  hooks: HookRepository;
  hookSecrets: HookSecrets;
  sender: WebhookSender;
  webhooks: WebhookDeliveryPolicy;
  log: { warn(o: object, m: string): void };
  approvalTimers: ApprovalTimerActions;
  lifecycle: LifecycleRunner;
  labels: SensitivityLabels;
  directory: DirectoryService;
}

/**
 * Every job type the queue runs, one module each, in its feature's folder
 * (docs/contributing/add-a-job-type.md). A `JobType` (`domain/jobs.ts`) missing here, an entry
 * whose name is not a `JobType` or not its module's `type`, and a handler needing what `JobWorld`
 * lacks all fail to compile.
 */
export const JOB_TYPES = {
  ProvisioningRequest: provisioningJob,
  TeamArchiveRequest: teamArchiveJob,
  WebhookDelivery: webhookDeliveryJob,
  ApprovalTimer: approvalTimerJob,
  LifecycleEvaluation: lifecycleEvaluationJob,
  LifecycleChange: lifecycleChangeJob,
  TeamJoinRequest: teamJoinJob,
  TeamDriftApply: driftApplyJob,
} satisfies JobRegistry<JobWorld>;
