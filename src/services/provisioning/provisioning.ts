import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { actorOf, callerRecord } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import { canonicalJson } from '../../lib/canonicalJson';
import { requestClassKey } from '../../domain/graphBudget';
import { IdempotencyKeyReused, NotFound, ValidationFailed } from '../../domain/errors';
import { isWireJobType, REQUEST_JOB_TYPES, type StoredJob } from '../../domain/jobs';
import { notProvisionable } from '../../domain/workspaceTypes';
import type { CatalogTemplate, Job, TeamProvisioningRequest, TeamRequestPreview } from '../../contract';
import type { ApprovalRepository } from '../../store/approvals/approvals';
import { isUniqueViolation } from '../../store/dialect';
import type { JobRepository } from '../../store/jobs/jobs';
import type { Database, Db } from '../../store/schema';
import type { SignedInPerson } from '../../domain/delegation';
import type { CatalogService } from '../catalog/catalog';
import type { SensitivityLabels } from '../labels/sensitivityLabels';
import type { DirectoryService } from '../directory/directory';
import type { AuditLog } from '../audit/audit';
import type { EventBus, StewardEvent } from '../webhooks/events';
import { openCurrentStage } from '../approvals/approvalStages';
import type { ProvisioningData } from '../jobData/provisioningData';
import type { JobCatalog } from '../jobs/registry';
import { previewRequest } from './requestPreview';
import { withdrawRequest } from './requestWithdrawal';
import { planRequest } from './requestPlan';

export interface ProvisioningDependencies {
  db: Kysely<Database>;
  jobs: JobRepository;
  approvals: ApprovalRepository;
  events: EventBus;
  audit: AuditLog;
  catalog: CatalogService;
  directory: DirectoryService;
  /** Called after a job becomes runnable, so an in-process worker starts at once. */
  onQueued: () => void;
  /** A template's sensitivity label is put on with the requester's delegated grant. */
  labels: SensitivityLabels;
  /** The registered job types: a job's wire form. */
  jobTypes: JobCatalog;
  now?: () => Date;
}

/** Requests for teams: validation, jobs and approvals. */
export class ProvisioningService {
  private readonly now: () => Date;

  constructor(private readonly deps: ProvisioningDependencies) {
    this.now = deps.now ?? (() => new Date());
  }

  /** What a request would become (final name, description, problems), without making it. */
  preview(caller: Caller, body: TeamProvisioningRequest): Promise<TeamRequestPreview> {
    return previewRequest(this.deps, caller, body);
  }

  /**
   * Validates a request completely, then creates its job (and its approval request when the
   * template needs one) in one transaction. A repeated idempotency key returns the first job.
   */
  async request(
    caller: Caller,
    body: TeamProvisioningRequest,
    idempotencyKey?: string,
    /** The requester's own sign-in: the label of a template without approval goes on with it. */
    person?: SignedInPerson,
  ): Promise<Job> {
    const { jobs, events, catalog } = this.deps;
    if (idempotencyKey) {
      const earlier = await this.earlierJob(caller, body, idempotencyKey);
      if (earlier) return earlier;
    }
    const { template, version } = await catalog.getVersioned(body.template.id, caller);
    const config = template.templateConfiguration;
    await this.refuseUnprovisionable(caller, template);
    const jobId = randomUUID();
    const planned = await planRequest(this.deps.directory, caller, body, template, jobId);
    const log = planned.log;
    // The version the plan was made from: the team remembers it, and drift compares from it.
    const data: ProvisioningData = { ...planned.data, template: { ...planned.data.template, version } };
    const needsApproval = data.approval !== undefined;
    // The requester's grant, kept (sealed, renewable) until the job runs, after an approval too:
    // the plan makes them an owner, and Graph lets a group's owners change its label.
    const grant = data.plan.sensitivityLabelId
      ? await this.deps.labels.prepare(person, caller.name ?? 'the requester')
      : undefined;
    if (grant) log.push(grant.line);
    const now = this.now();
    let job: StoredJob;
    let published: StewardEvent[];
    try {
      ({ job, published } = await this.deps.db.transaction().execute(async (trx) => {
        if (config.singleton && (await jobs.templateInUse(data.template.id, trx))) {
          throw new ValidationFailed('The request is not valid.', [
            {
              code: 'singletonUsed',
              target: 'template.id',
              message: `Only one team may be created from "${config.name}", and it exists.`,
            },
          ]);
        }
        const stored = await jobs.insert(
          {
            id: jobId,
            type: 'ProvisioningRequest',
            queued: !needsApproval,
            data,
            log,
            requesterId: caller.id,
            templateId: data.template.id,
            idempotencyKey,
            // A clone's first call is throttled (`POST /clone`): no worker claims it before that
            // class has a turn. A new team's group comes first (not throttled), then a park for
            // Graph's replication that names `class:createTeam`: claimed at once, its group
            // replicates while earlier jobs take their turns (docs/graph-budget.md).
            budgetKey: data.plan.clone ? requestClassKey('cloneTeam') : undefined,
          },
          now,
          trx,
        );
        await this.deps.audit.record(
          trx,
          callerRecord(caller, {
            trail: 'team_provisioning',
            action: 'provisioning_requested',
            target: { type: 'job', id: jobId, displayName: data.plan.displayName },
            details: { templateId: data.template.id, approvalRequired: needsApproval },
          }),
          now,
        );
        const opened = needsApproval ? await this.openApproval(trx, stored, data, caller, now) : [];
        await grant?.keep?.(trx, jobId);
        return { job: stored, published: opened };
      }));
    } catch (error) {
      // Lost a race on the same Idempotency-Key: the winner's job is the answer.
      const winner =
        idempotencyKey && isUniqueViolation(error)
          ? await this.earlierJob(caller, body, idempotencyKey)
          : undefined;
      if (winner) return winner;
      throw error;
    }
    events.publish(published);
    if (!needsApproval) this.deps.onQueued();
    return this.deps.jobTypes.wire(job, await jobs.isPaused());
  }

  /**
   * Refuses, before anything is made, a request from a template whose workspace type Steward cannot
   * provision yet (400 `workspaceTypeNotProvisionable`), and records the refusal in the
   * provisioning trail (`provisioning_refused`, outcome `denied`).
   */
  private async refuseUnprovisionable(caller: Caller, template: CatalogTemplate): Promise<void> {
    const refusal = notProvisionable(template);
    if (!refusal) return;
    const config = template.templateConfiguration;
    await this.deps.audit.record(
      undefined,
      callerRecord(caller, {
        trail: 'team_provisioning',
        action: 'provisioning_refused',
        outcome: 'denied',
        target: { type: 'template', id: config.id ?? '', displayName: config.name },
        details: { templateId: config.id, workspaceType: config.workspaceType, reason: refusal.code },
      }),
      this.now(),
    );
    throw new ValidationFailed('The request is not valid.', [refusal]);
  }

  /**
   * Inserts one approval request per stage (the first open, the others upcoming) and opens the
   * first: its timers, its audit record and its `team_creation_approval_requested` event.
   */
  private async openApproval(
    trx: Db,
    job: StoredJob,
    data: ProvisioningData,
    caller: Caller,
    now: Date,
  ): Promise<StewardEvent[]> {
    for (const [index, stage] of (data.approval?.stages ?? []).entries()) {
      await this.deps.approvals.insert(
        {
          id: stage.id,
          jobId: job.id,
          templateId: data.template.id,
          approverIds: stage.approvers.map((a) => a.id),
          stageIndex: index,
          stageName: stage.name,
          decision: stage.decision,
          upcoming: stage.status === 'upcoming',
        },
        now,
        trx,
      );
    }
    return openCurrentStage(
      this.deps,
      trx,
      job,
      data,
      { actor: actorOf(caller), requestId: caller.requestId ?? null },
      now,
    );
  }

  /**
   * The job an earlier request with `key` created, or undefined. The key is unique per requester in
   * the store, so of concurrent requests with one key a single insert wins; the others fail on the
   * unique index and come here again to return the winner's job.
   */
  private async earlierJob(
    caller: Caller,
    body: TeamProvisioningRequest,
    key: string,
  ): Promise<Job | undefined> {
    const earlier = await this.deps.jobs.findByIdempotencyKey(caller.id, key);
    if (!earlier) return undefined;
    const first = (earlier.data as Partial<ProvisioningData>).request;
    if (canonicalJson(first) !== canonicalJson(body)) {
      throw new IdempotencyKeyReused(
        'This Idempotency-Key was used for a different request; send a new key for a new request.',
      );
    }
    return this.deps.jobTypes.wire(earlier, await this.deps.jobs.isPaused());
  }

  /** A job, to its requester, to the approvers of its approval, and to admins. Others get 404. */
  async getJob(caller: Caller, id: string): Promise<Job> {
    const job = await this.deps.jobs.get(id);
    if (!job || !isWireJobType(job.type) || !(await this.maySee(caller, job))) {
      throw new NotFound(`No job "${id}".`);
    }
    return this.deps.jobTypes.wire(job, await this.deps.jobs.isPaused());
  }

  /** The requester withdraws their request while it waits for approval: see `requestWithdrawal.ts`. */
  async withdraw(caller: Caller, id: string): Promise<Job> {
    const job = await withdrawRequest(this.deps, caller, id, this.now());
    return this.deps.jobTypes.wire(job, await this.deps.jobs.isPaused());
  }

  /**
   * The jobs of `ids` the caller may see (as `getJob` decides), in the order asked; an id that names
   * no job, or one the caller may not see, is left out, as `getJob` would answer 404 for it.
   */
  async getJobs(caller: Caller, ids: readonly string[]): Promise<Job[]> {
    const unique = [...new Set(ids)];
    const found = new Map((await this.deps.jobs.getMany(unique)).map((job) => [job.id, job]));
    const paused = await this.deps.jobs.isPaused();
    const visible: Job[] = [];
    for (const id of unique) {
      const job = found.get(id);
      if (job && isWireJobType(job.type) && (await this.maySee(caller, job)))
        visible.push(this.deps.jobTypes.wire(job, paused));
    }
    return visible;
  }

  /** The caller's own most recent requests (provisioning and archiving), newest first. */
  async myJobs(caller: Caller, top: number): Promise<{ jobs: Job[]; total: number }> {
    const { jobs, total } = await this.deps.jobs.listForRequester(caller.id, REQUEST_JOB_TYPES, top);
    const paused = await this.deps.jobs.isPaused();
    return { jobs: jobs.map((job) => this.deps.jobTypes.wire(job, paused)), total };
  }

  private async maySee(caller: Caller, job: StoredJob): Promise<boolean> {
    if (caller.privileged || job.requesterId === caller.id) return true;
    const stages = await this.deps.approvals.forJob(job.id);
    return stages.some((approval) => approval.approverIds.includes(caller.id));
  }
}
