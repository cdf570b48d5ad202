import type { Kysely } from 'kysely';
import type { Caller } from '../../domain/caller';
import {
  Conflict,
  type ErrorDetail,
  Forbidden,
  NotFound,
  SelfApprovalNotAllowed,
  ValidationFailed,
} from '../../domain/errors';
import type { SignedInPerson } from '../../domain/delegation';
import { applyConventions } from '../../domain/requestPlanning';
import type {
  ApprovedApprovalResponsePayload,
  PendingApproval,
  RejectedApprovalResponsePayload,
} from '../../contract';
import type { SensitivityLabels } from '../labels/sensitivityLabels';
import type { ApprovalRepository } from '../../store/approvals/approvals';
import type { JobRepository } from '../../store/jobs/jobs';
import type { Database } from '../../store/schema';
import type { TemplateRepository } from '../../store/catalog/templates';
import type { DirectoryService } from '../directory/directory';
import type { AuditLog } from '../audit/audit';
import { recordDecision } from './approvalDecision';
import { stagesOf } from './approvalStages';
import type { JobCatalog } from '../jobs/registry';
import type { EventBus } from '../webhooks/events';
import { conventionScope, type ProvisioningData } from '../jobData/provisioningData';

export interface ApprovalDependencies {
  db: Kysely<Database>;
  jobs: JobRepository;
  approvals: ApprovalRepository;
  templates: TemplateRepository;
  events: EventBus;
  audit: AuditLog;
  directory: DirectoryService;
  onQueued: () => void;
  /** A template's sensitivity label: the last approver's grant is kept when no owner's is. */
  labels: SensitivityLabels;
  /** The registered job types: a job's wire form. */
  jobTypes: JobCatalog;
  now?: () => Date;
}

/** Decisions on approval requests, by members of the request's approval team, once. */
export class ApprovalService {
  private readonly now: () => Date;

  constructor(private readonly deps: ApprovalDependencies) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Approves the caller's stage of a request, optionally amending its name, description or welcome
   * message (checked against the naming rules again; later stages see the amended request). The
   * job is queued once its last stage is approved.
   */
  async approve(
    caller: Caller,
    approvalId: string,
    payload: ApprovedApprovalResponsePayload,
    /** The approver's own sign-in: kept for the label when theirs is the last approval and no owner's grant is. */
    person?: SignedInPerson,
  ): Promise<void> {
    const { approval, data } = await this.load(caller, approvalId, payload.approver?.id);
    const amended: ProvisioningData = structuredClone(data);
    const updates = payload.updates && Object.values(payload.updates).some((v) => v !== undefined);
    if (updates) await this.amend(amended, payload.updates!);
    // Only when the job holds no planned owner's grant (the requester's, usually): Graph takes an
    // approver's only from a groups administrator. Exchanged before the decision's transaction (a
    // network call); kept only if it queues the job.
    const owners = data.plan.members.filter((m) => m.role === 'owner').map((m) => m.id);
    const grant =
      data.plan.sensitivityLabelId && !(await this.deps.labels.holdsOwnerGrant(approval.jobId, owners))
        ? await this.deps.labels.prepare(person, caller.name ?? 'the approver', 'approver')
        : undefined;
    await recordDecision(
      this.deps,
      {
        approvalId,
        status: 'approved',
        caller,
        message: payload.message?.trim() || null,
        ...(updates ? { amended: { request: amended.request, plan: amended.plan } } : {}),
        updates: updates ? stringsOf(payload.updates!) : null,
        ...(grant
          ? {
              whenQueued: async (trx, jobId) => {
                await grant.keep?.(trx, jobId);
                return [grant.line];
              },
            }
          : {}),
      },
      this.now(),
    );
    this.deps.onQueued();
  }

  /** Rejects a request at the caller's stage: its job ends failed with the approver's message. */
  async reject(caller: Caller, approvalId: string, payload: RejectedApprovalResponsePayload): Promise<void> {
    await this.load(caller, approvalId, payload.approver?.id);
    const message = payload.message?.trim() || null;
    await recordDecision(
      this.deps,
      { approvalId, status: 'rejected', caller, message, updates: null },
      this.now(),
    );
  }

  /**
   * The approval and its job's data, once the caller is known to be one of the stage's approvers
   * (the requester never is, unless the policy allows self-approval) and the stage is open.
   */
  private async load(caller: Caller, approvalId: string, approverKey: string | undefined) {
    const approval = await this.deps.approvals.get(approvalId);
    if (!approval) throw new NotFound(`No approval request "${approvalId}".`);
    const job = await this.deps.jobs.get(approval.jobId);
    if (!job) throw new NotFound(`No job for approval "${approvalId}".`);
    const data = job.data as ProvisioningData;
    if (data.requester.id === caller.id && !(await this.allowsSelfApproval(data, approval.templateId))) {
      throw new SelfApprovalNotAllowed(
        'You requested this team: the other members of the approval team decide on it.',
      );
    }
    if (!approval.approverIds.includes(caller.id)) {
      throw new Forbidden('Only the approval team of this request may decide on it.');
    }
    if (approverKey && approverKey !== caller.id && approverKey.toLowerCase() !== caller.upn?.toLowerCase()) {
      throw new ValidationFailed('The approver must be the caller.', [
        {
          code: 'approverMismatch',
          target: 'approver.id',
          message: 'Decide as yourself: approver.id must be you.',
        },
      ]);
    }
    if (approval.status === 'upcoming') {
      throw new Conflict('This stage is not open yet: the stages before it decide first.');
    }
    if (approval.status !== 'pending') throw new Conflict(`This request was already ${approval.status}.`);
    return { approval, data };
  }

  /**
   * The approval requests waiting for the caller's decision, oldest first (`GET /me/approvals`): the
   * open stages that list them and on which they have not voted yet, with each request's job, but
   * not their own requests unless the policy lets requesters decide on them.
   */
  async pendingFor(caller: Caller, top: number): Promise<PendingApproval[]> {
    const found: PendingApproval[] = [];
    const paused = await this.deps.jobs.isPaused();
    for (const approval of await this.deps.approvals.pendingFor(caller.id, top)) {
      const job = await this.deps.jobs.get(approval.jobId);
      if (!job || job.status !== 'waiting') continue;
      const data = job.data as ProvisioningData;
      const stage = stagesOf(data).find((s) => s.id === approval.id);
      if (stage?.votes?.some((vote) => vote.id === caller.id)) continue;
      if (job.requesterId === caller.id && !(await this.allowsSelfApproval(data, approval.templateId)))
        continue;
      found.push({
        id: approval.id,
        stageName: stage?.name ?? approval.stageName ?? 'Approval',
        sinceDateTime: approval.createdAt,
        job: this.deps.jobTypes.wire(job, paused),
      });
    }
    return found;
  }

  /** The request's own `allowSelfApproval` (the template's current one for requests made before staged policies). */
  private async allowsSelfApproval(data: ProvisioningData, templateId: string): Promise<boolean> {
    if (data.approval?.allowSelfApproval !== undefined) return data.approval.allowSelfApproval;
    const stored = await this.deps.templates.get(templateId);
    return stored?.template.templateConfiguration.approval.allowSelfApproval === true;
  }

  /** Applies an approver's amendments: the template's conventions run again on the new values. */
  private async amend(
    data: ProvisioningData,
    updates: NonNullable<ApprovedApprovalResponsePayload['updates']>,
  ) {
    const stored = await this.deps.templates.get(data.template.id);
    if (!stored) throw new NotFound(`The template "${data.template.id}" no longer exists.`);
    data.request = {
      ...data.request,
      team: {
        ...data.request.team,
        ...(updates.name !== undefined ? { name: updates.name } : {}),
        ...(updates.description !== undefined ? { description: updates.description } : {}),
        ...(updates.welcomeMessage !== undefined ? { welcomeMessage: updates.welcomeMessage } : {}),
      },
    };
    // Conventions see the requester's attributes, not the approver's.
    const subject = await this.deps.directory.ruleSubject({
      id: data.requester.id,
      name: data.requester.displayName,
    });
    const details: ErrorDetail[] = [];
    const names = applyConventions(
      stored.template,
      conventionScope(data.request, stored.template, data.requester, subject.user),
      data.plan.mailNickname.slice(-6),
      details,
    );
    if (details.length > 0) {
      throw new ValidationFailed(
        'The amendments are not valid.',
        details.map((d) => ({ ...d, target: d.target.replace(/^team\./, 'updates.') })),
      );
    }
    data.plan = {
      ...data.plan,
      displayName: names.name,
      description: names.description,
      welcomeMessage: names.welcomeMessage,
    };
  }
}

function stringsOf(updates: object): Record<string, string> {
  return Object.fromEntries(Object.entries(updates).filter(([, v]) => typeof v === 'string'));
}
