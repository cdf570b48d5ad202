import type { Kysely, Transaction } from 'kysely';
import { callerRecord } from '../domain/audit';
import type { Caller } from '../domain/caller';
import {
  Conflict,
  type ErrorDetail,
  Forbidden,
  NotFound,
  SelfApprovalNotAllowed,
  ValidationFailed,
} from '../domain/errors';
import { applyConventions } from '../domain/requestPlanning';
import type { ApprovedApprovalResponsePayload, RejectedApprovalResponsePayload } from '../domain/wire';
import type { ApprovalRepository, StoredApproval } from '../store/approvals';
import type { JobRepository } from '../store/jobs';
import type { Database } from '../store/schema';
import type { TemplateRepository } from '../store/templates';
import type { DirectoryService } from './directory';
import type { AuditLog } from './audit';
import type { EventBus, StewardEvent } from './events';
import { eventPayload, type ProvisioningData } from './jobs/provisioning';
import { conventionScope } from './provisioning';

export interface ApprovalDependencies {
  db: Kysely<Database>;
  jobs: JobRepository;
  approvals: ApprovalRepository;
  templates: TemplateRepository;
  events: EventBus;
  audit: AuditLog;
  directory: DirectoryService;
  onQueued: () => void;
  now?: () => Date;
}

/** Decisions on approval requests, by members of the request's approval team, once. */
export class ApprovalService {
  private readonly now: () => Date;

  constructor(private readonly deps: ApprovalDependencies) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Approves a request (optionally amending its name, description or welcome message) and queues its job. */
  async approve(caller: Caller, approvalId: string, payload: ApprovedApprovalResponsePayload): Promise<void> {
    const { approval, data } = await this.load(caller, approvalId, payload.approver?.id);
    const message = payload.message?.trim() || null;
    const decided: ProvisioningData = structuredClone(data);
    if (payload.updates && Object.values(payload.updates).some((v) => v !== undefined)) {
      await this.amend(decided, payload.updates);
    }
    decided.approval = { ...decided.approval!, status: 'approved', approver: { id: caller.id, message } };
    const who = caller.name ?? caller.id;
    const renamed =
      decided.plan.displayName !== data.plan.displayName ? ` Renamed to "${decided.plan.displayName}".` : '';
    const decision = { status: 'approved' as const, caller, message, updates: payload.updates ?? null };
    await this.decide(approval, decision, async (trx, now) => {
      const updated = await this.deps.jobs.updateUnclaimed(
        approval.jobId,
        'waiting',
        {
          queued: true,
          data: decided,
          appendLog: [`Approved by ${who}${message ? `: ${message}` : '.'}${renamed}`],
        },
        now,
        trx,
      );
      if (!updated) throw new Conflict('The request is no longer waiting for a decision.');
      const job = (await this.deps.jobs.get(approval.jobId, trx))!;
      return [await this.deps.events.record(trx, 'team_creation_approved', eventPayload(job, decided), now)];
    });
    this.deps.onQueued();
  }

  /** Rejects a request: its job ends failed with the approver's message. */
  async reject(caller: Caller, approvalId: string, payload: RejectedApprovalResponsePayload): Promise<void> {
    const { approval, data } = await this.load(caller, approvalId, payload.approver?.id);
    const message = payload.message?.trim() || null;
    const who = caller.name ?? caller.id;
    const reason = message ? `Rejected by ${who}: ${message}` : `Rejected by ${who}.`;
    const decided: ProvisioningData = {
      ...data,
      approval: { ...data.approval!, status: 'rejected', approver: { id: caller.id, message } },
    };
    await this.decide(approval, { status: 'rejected', caller, message, updates: null }, async (trx, now) => {
      const updated = await this.deps.jobs.updateUnclaimed(
        approval.jobId,
        'waiting',
        { status: 'failed', data: decided, appendLog: [reason], failedReason: reason },
        now,
        trx,
      );
      if (!updated) throw new Conflict('The request is no longer waiting for a decision.');
      const job = (await this.deps.jobs.get(approval.jobId, trx))!;
      const payloadOf = eventPayload(job, decided);
      return [
        await this.deps.events.record(trx, 'team_creation_rejected', payloadOf, now),
        await this.deps.events.record(trx, 'team_provisioning_failed', { ...payloadOf, reason }, now),
      ];
    });
  }

  /** The approval and its job's data, once the caller is known to be one of its approvers. */
  private async load(caller: Caller, approvalId: string, approverKey: string | undefined) {
    const approval = await this.deps.approvals.get(approvalId);
    if (!approval) throw new NotFound(`No approval request "${approvalId}".`);
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
    if (approval.status !== 'pending') throw new Conflict(`This request was already ${approval.status}.`);
    const job = await this.deps.jobs.get(approval.jobId);
    if (!job) throw new NotFound(`No job for approval "${approvalId}".`);
    const data = job.data as ProvisioningData;
    if (data.requester.id === caller.id && !(await this.allowsSelfApproval(approval.templateId))) {
      throw new SelfApprovalNotAllowed(
        'You requested this team: the other members of the approval team decide on it.',
      );
    }
    return { approval, data };
  }

  /** The template's current `approval.allowSelfApproval` (false once the template is gone). */
  private async allowsSelfApproval(templateId: string): Promise<boolean> {
    const stored = await this.deps.templates.get(templateId);
    return stored?.template.templateConfiguration.approval.allowSelfApproval === true;
  }

  /** Records the decision and the job's change in one transaction; a concurrent second decision is 409. */
  private async decide(
    approval: StoredApproval,
    decision: {
      status: 'approved' | 'rejected';
      caller: Caller;
      message: string | null;
      updates: object | null;
    },
    change: (trx: Transaction<Database>, now: Date) => Promise<StewardEvent[]>,
  ): Promise<void> {
    const now = this.now();
    const updates = decision.updates
      ? Object.fromEntries(Object.entries(decision.updates).filter(([, v]) => typeof v === 'string'))
      : null;
    const events = await this.deps.db.transaction().execute(async (trx) => {
      const decided = await this.deps.approvals.decide(
        approval.id,
        { status: decision.status, by: decision.caller.id, message: decision.message, updates },
        now,
        trx,
      );
      if (!decided) throw new Conflict('This request was already decided.');
      await this.deps.audit.record(
        trx,
        callerRecord(decision.caller, {
          trail: 'approvals',
          action: decision.status === 'approved' ? 'approval_approved' : 'approval_rejected',
          target: { type: 'approval', id: approval.id },
          details: {
            jobId: approval.jobId,
            templateId: approval.templateId,
            message: decision.message,
            ...(updates && Object.keys(updates).length > 0 ? { updates } : {}),
          },
        }),
        now,
      );
      // The job's side of the decision, in the provisioning trail: queued to run, or ended.
      await this.deps.audit.record(
        trx,
        callerRecord(decision.caller, {
          trail: 'team_provisioning',
          action: decision.status === 'approved' ? 'job_queued' : 'job_failed',
          target: { type: 'job', id: approval.jobId },
          outcome: decision.status === 'approved' ? 'success' : 'failure',
          details: {
            approvalId: approval.id,
            ...(decision.status === 'rejected' ? { reason: 'rejected' } : {}),
          },
        }),
        now,
      );
      return change(trx, now);
    });
    this.deps.events.publish(events);
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
