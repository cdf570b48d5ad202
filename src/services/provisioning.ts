import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { callerRecord } from '../domain/audit';
import type { Caller } from '../domain/caller';
import { documentProblems, type JsonObject } from '../domain/metadata';
import { canonicalJson } from '../domain/canonicalJson';
import { type ErrorDetail, IdempotencyKeyReused, NotFound, ValidationFailed } from '../domain/errors';
import { isWireJobType, type StoredJob, WIRE_JOB_TYPES } from '../domain/jobs';
import { applyConventions, membershipRoles } from '../domain/requestPlanning';
import type { CatalogTemplate, Job, TeamProvisioningRequest, TeamRequestPreview } from '../domain/wire';
import type { ApprovalRepository } from '../store/approvals';
import { isUniqueViolation } from '../store/dialect';
import type { JobRepository } from '../store/jobs';
import type { Database } from '../store/schema';
import type { CatalogService } from './catalog';
import type { DirectoryService } from './directory';
import type { AuditLog } from './audit';
import type { EventBus, StewardEvent } from './events';
import { eventPayload, type ProvisioningData } from './jobs/provisioning';
import { wireJob } from './jobs/registry';
import { previewRequest } from './requestPreview';

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
  async request(caller: Caller, body: TeamProvisioningRequest, idempotencyKey?: string): Promise<Job> {
    const { jobs, approvals, events, catalog } = this.deps;
    if (idempotencyKey) {
      const earlier = await this.earlierJob(caller, body, idempotencyKey);
      if (earlier) return earlier;
    }
    const template = await catalog.get(body.template.id, caller);
    const config = template.templateConfiguration;
    const jobId = randomUUID();
    const { data, log } = await this.plan(caller, body, template, jobId);
    const needsApproval = data.approval !== undefined;
    const approvalId = data.approval?.id;
    const now = this.now();
    const published: StewardEvent[] = [];
    let job: StoredJob;
    try {
      job = await this.deps.db.transaction().execute(async (trx) => {
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
        if (approvalId) {
          await this.deps.audit.record(
            trx,
            callerRecord(caller, {
              trail: 'approvals',
              action: 'approval_requested',
              target: { type: 'approval', id: approvalId, displayName: data.plan.displayName },
              details: {
                jobId,
                templateId: data.template.id,
                approvers: config.approval.approvalTeam.map((a) => a.id),
              },
            }),
            now,
          );
          await approvals.insert(
            {
              id: approvalId,
              jobId,
              templateId: data.template.id,
              approverIds: config.approval.approvalTeam.map((a) => a.id),
            },
            now,
            trx,
          );
          published.push(
            await events.record(trx, 'team_creation_approval_requested', eventPayload(stored, data), now),
          );
        }
        return stored;
      });
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
    return wireJob(job, await jobs.isPaused());
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
    return wireJob(earlier, await this.deps.jobs.isPaused());
  }

  /**
   * Everything about a request that can be refused (400): conventions applied, people resolved,
   * minimum owners and members; and, when it holds, the job's data and first log lines.
   */
  private async plan(
    caller: Caller,
    body: TeamProvisioningRequest,
    template: CatalogTemplate,
    jobId: string,
  ): Promise<{ data: ProvisioningData; log: string[] }> {
    const { directory } = this.deps;
    const config = template.templateConfiguration;
    const details: ErrorDetail[] = [];
    const subject = await directory.ruleSubject(caller);
    const requester = {
      id: caller.id,
      displayName: subject.user.displayName || caller.name || caller.id,
      mail: subject.user.mail ?? caller.upn ?? null,
    };
    const names = applyConventions(
      template,
      conventionScope(body, template, requester, subject.user),
      jobId.slice(0, 6),
      details,
    );
    const [owners, members] = await Promise.all([
      settle(directory.resolveMembers(body.team.membership.owners, 'team.membership.owners'), details),
      settle(directory.resolveMembers(body.team.membership.members, 'team.membership.members'), details),
    ]);
    const roles = membershipRoles({
      requesterId: caller.id,
      requesterAsOwner: template.newTeam.addRequesterAsTeamOwner,
      owners: owners.map((m) => m.id),
      members: members.map((m) => m.id),
      permanentOwners: config.permanentMembership.owners.map((m) => m.id),
      permanentMembers: config.permanentMembership.members.map((m) => m.id),
    });
    const peopleNames = new Map<string, string | undefined>(
      [
        ...owners,
        ...members,
        ...config.permanentMembership.owners,
        ...config.permanentMembership.members,
      ].map((person) => [person.id, person.name]),
    );
    peopleNames.set(caller.id, requester.displayName);
    const count = (role: string) => [...roles.values()].filter((r) => r === role).length;
    if (count('owner') < config.minimumOwners) {
      details.push({
        code: 'tooFewOwners',
        target: 'team.membership.owners',
        message: `This template needs at least ${config.minimumOwners} owners; the request has ${count('owner')}.`,
      });
    }
    if (count('member') < config.minimumMembers) {
      details.push({
        code: 'tooFewMembers',
        target: 'team.membership.members',
        message: `This template needs at least ${config.minimumMembers} members; the request has ${count('member')}.`,
      });
    }
    // A requester may not approve their own request: someone else in the approval team must be able to.
    const { requireApproval, allowSelfApproval, approvalTeam } = config.approval;
    if (requireApproval && !allowSelfApproval && approvalTeam.every((a) => a.id === caller.id)) {
      const message = 'You are the only approver of this template, and may not approve your own request.';
      details.push({ code: 'noOtherApprover', target: 'template.id', message });
    }
    // The metadata is stored as the team's document at the end of the job: refuse now what could not be stored then.
    if (body.metadata) details.push(...documentProblems(body.metadata as JsonObject, 'metadata'));
    if (details.length > 0) throw new ValidationFailed('The request is not valid.', details);

    const needsApproval = config.approval.requireApproval;
    const approvalId = needsApproval ? randomUUID() : undefined;
    const data: ProvisioningData = {
      request: body,
      template: {
        id: config.id ?? body.template.id,
        name: config.name,
        approvers: config.approval.approvalTeam,
        permanentMembership: config.permanentMembership,
      },
      requester,
      plan: {
        displayName: names.name,
        description: names.description,
        welcomeMessage: names.welcomeMessage,
        mailNickname: names.mailNickname,
        visibility: template.newTeam.teamPrivacy,
        sensitivityLabelId: config.sensitivityLabelId,
        // With their names, so cards and reports show people, not ids.
        members: [...roles].map(([id, role]) => ({ id, role, displayName: peopleNames.get(id) ?? null })),
        clone: template.clonedTeam,
        channels: template.newTeam.channels,
        tabs: template.newTeam.tabs,
      },
      ...(approvalId
        ? { approval: { id: approvalId, status: 'pending', approvers: config.approval.approvalTeam } }
        : {}),
    };
    const log = [`Requested "${names.name}" from template "${config.name}" by ${requester.displayName}.`];
    if (approvalId) {
      log.push(
        `Waiting for approval ${approvalId} by ${config.approval.approvalTeam.map((a) => a.name ?? a.id).join(', ')}.`,
      );
    }
    return { data, log };
  }

  /** A job, to its requester, to the approvers of its approval, and to admins. Others get 404. */
  async getJob(caller: Caller, id: string): Promise<Job> {
    const job = await this.deps.jobs.get(id);
    if (!job || !isWireJobType(job.type) || !(await this.maySee(caller, job))) {
      throw new NotFound(`No job "${id}".`);
    }
    return wireJob(job, await this.deps.jobs.isPaused());
  }

  /** The caller's own most recent requests (provisioning and archiving), newest first. */
  async myJobs(caller: Caller, top: number): Promise<{ jobs: Job[]; total: number }> {
    const { jobs, total } = await this.deps.jobs.listForRequester(caller.id, WIRE_JOB_TYPES, top);
    const paused = await this.deps.jobs.isPaused();
    return { jobs: jobs.map((job) => wireJob(job, paused)), total };
  }

  private async maySee(caller: Caller, job: StoredJob): Promise<boolean> {
    if (caller.privileged || job.requesterId === caller.id) return true;
    const approval = await this.deps.approvals.forJob(job.id);
    return approval?.approverIds.includes(caller.id) ?? false;
  }
}

/** The scope naming conventions are evaluated in. */
export function conventionScope(
  body: TeamProvisioningRequest,
  template: CatalogTemplate,
  requester: { displayName: string; mail: string | null },
  user: Record<string, unknown>,
) {
  return {
    request: {
      team: {
        name: body.team.name,
        description: body.team.description ?? template.newTeam.defaultDescription ?? '',
        welcomeMessage: body.team.welcomeMessage ?? template.newTeam.defaultWelcomeMessage ?? '',
      },
      template: { name: template.templateConfiguration.name },
      requester: { name: requester.displayName, email: requester.mail ?? '' },
    },
    user,
  };
}

async function settle<T>(promise: Promise<T[]>, details: ErrorDetail[]): Promise<T[]> {
  try {
    return await promise;
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    details.push(...error.details);
    return [];
  }
}
