import { z } from 'zod';
import {
  ApprovedApprovalResponsePayload,
  Job,
  Jobs,
  PendingApprovals,
  RejectedApprovalResponsePayload,
  TeamProvisioningRequest,
  TeamRequestPreview,
} from '../../contract';
import type { ApprovalService } from '../../services/approvals/approvals';
import type { JoiningService } from '../../services/joining/joining';
import type { ProvisioningService } from '../../services/provisioning/provisioning';
import { odataCollection } from '../odata';
import { API_BASE, defineRoute, type Route } from '../route';

const Id = (what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, `A ${what} id is 1–64 letters, digits or "-".`)
    .describe(`The ${what} id.`);

/** The most jobs `GET /jobs?ids=` reads at once. */
const MAX_JOBS_A_READ = 100;

/** Requesting teams, following their jobs, and deciding on approvals. */
const SELF_DECISION =
  'Not in the approval team (`forbidden`), or the requester deciding their own request while the ' +
  'template’s `approval.allowSelfApproval` is false (`selfApprovalNotAllowed`).';

export function provisioningRoutes(
  provisioning: ProvisioningService,
  approvals: ApprovalService,
  joining: JoiningService,
): Route[] {
  return [
    defineRoute({
      operationId: 'previewTeamProvisioning',
      method: 'post',
      path: '/teams/provisioning/preview',
      tag: 'Provisioning',
      summary: 'Preview a team request (an extension)',
      description:
        'The final name and description the template’s conventions make of a request, the longest name the ' +
        'requester may type, and what is wrong with the name, computed as a request would be; nothing is made.',
      body: TeamProvisioningRequest,
      responses: {
        200: { description: 'What the request would become.', schema: TeamRequestPreview },
        404: { description: 'No such template, or it is disabled or not targeted to the caller.' },
      },
      handle: async ({ caller, body }) => {
        const preview = await provisioning.preview(caller, body);
        const similarTeams = await joining.similarToRequest(caller, body);
        return { status: 200, body: similarTeams ? { ...preview, similarTeams } : preview };
      },
    }),
    defineRoute({
      operationId: 'createTeamProvisioningJob',
      method: 'post',
      path: '/teams/provisioning',
      tag: 'Provisioning',
      summary: 'Request a team from a template',
      description:
        'Validates everything first (template enabled and targeted to the caller, singleton, naming conventions, ' +
        'users, minimum owners and members); nothing is queued when it fails. A template with approval leaves the ' +
        'job waiting for its approval team. A repeated `Idempotency-Key` returns the job the first request created, also when the ' +
        'requests are concurrent; the same key with a different body is a 422.',
      body: TeamProvisioningRequest,
      headers: z.object({
        'idempotency-key': z
          .string()
          .regex(/^[\x21-\x7e]{1,128}$/)
          .optional()
          .describe('Makes a retried request return the first job instead of creating another.'),
      }),
      responses: {
        201: { description: 'The job.', schema: Job, headers: { Location: 'The job’s URL.' } },
        404: { description: 'No such template, or it is disabled or not targeted to the caller.' },
        422: {
          description:
            'The `Idempotency-Key` was used before for a different request (`idempotencyKeyReused`).',
        },
      },
      handle: async ({ caller, body, headers, baseUrl, person }) => {
        const job = await provisioning.request(caller, body, headers['idempotency-key'], person);
        const similarTeams = await joining.similarToRequest(caller, body);
        return {
          status: 201,
          body: similarTeams ? { ...job, similarTeams } : job,
          headers: { Location: `${baseUrl}${API_BASE}/jobs/${job.id}` },
        };
      },
    }),
    defineRoute({
      operationId: 'getJob',
      method: 'get',
      path: '/jobs/{jobId}',
      tag: 'Provisioning',
      summary: 'Follow a job',
      description: 'Visible to its requester, to the approvers of its approval, and to admins.',
      params: z.object({ jobId: Id('job') }),
      responses: { 200: { description: 'The job.', schema: Job } },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await provisioning.getJob(caller, params.jobId),
      }),
    }),
    defineRoute({
      operationId: 'getJobs',
      method: 'get',
      path: '/jobs',
      tag: 'Provisioning',
      summary: 'Follow several jobs in one call (an extension)',
      description:
        'The jobs named in `ids`, in that order, each as `GET /jobs/{jobId}` shows it. A job the caller may not ' +
        'see, or that does not exist, is left out (where `GET /jobs/{jobId}` answers 404).',
      query: z.strictObject({
        ids: z
          .string()
          .transform((text) => text.split(','))
          .pipe(z.array(Id('job')).min(1).max(MAX_JOBS_A_READ))
          .describe(`1–${MAX_JOBS_A_READ} job ids, separated by commas.`),
      }),
      responses: { 200: { description: 'The jobs the caller may see.', schema: Jobs } },
      handle: async ({ caller, query, baseUrl }) => {
        const jobs = await provisioning.getJobs(caller, query.ids);
        return { status: 200, body: odataCollection(baseUrl, 'jobs', jobs) };
      },
    }),
    defineRoute({
      operationId: 'getMyJobs',
      method: 'get',
      path: '/me/jobs',
      tag: 'Provisioning',
      summary: 'List the caller’s own recent requests, newest first',
      description: 'Provisioning and archive requests the caller made (the bot’s “my requests”).',
      query: z.strictObject({
        $top: z.coerce.number().int().min(1).max(50).default(10).describe('How many (1–50).'),
      }),
      responses: { 200: { description: 'The caller’s most recent jobs.', schema: Jobs } },
      handle: async ({ caller, query, baseUrl }) => {
        const { jobs, total } = await provisioning.myJobs(caller, query.$top);
        return { status: 200, body: odataCollection(baseUrl, 'jobs', jobs, { count: total }) };
      },
    }),
    defineRoute({
      operationId: 'withdrawTeamProvisioningJob',
      method: 'post',
      path: '/jobs/{jobId}/withdraw',
      tag: 'Provisioning',
      summary: 'Withdraw a team request while it waits for approval (an extension)',
      description:
        'By its requester only (anyone else gets 404, as for a job they may not see). The approval’s open and ' +
        'upcoming stages become `withdrawn`, the job ends `failed` with `data.approval.status: withdrawn`, and ' +
        '`team_provisioning_failed` is sent with `reason: withdrawn`; nothing is made.',
      params: z.object({ jobId: Id('job') }),
      responses: {
        200: { description: 'Withdrawn: the job, ended.', schema: Job },
        409: {
          description:
            'The request is not waiting for approval (no approval, decided, running or ended), or a decision came first.',
        },
      },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await provisioning.withdraw(caller, params.jobId),
      }),
    }),
    defineRoute({
      operationId: 'getMyApprovals',
      method: 'get',
      path: '/me/approvals',
      tag: 'Provisioning',
      summary: 'List the approval requests waiting for the caller’s decision, oldest first (an extension)',
      description:
        'The open stages that list the caller as an approver and on which they have not voted yet, each with its ' +
        'request’s job (the bot’s “my approvals”); the caller’s own requests only when their policy allows ' +
        'self-approval.',
      query: z.strictObject({
        $top: z.coerce.number().int().min(1).max(50).default(20).describe('How many (1–50).'),
      }),
      responses: {
        200: { description: 'The approval requests waiting for the caller.', schema: PendingApprovals },
      },
      handle: async ({ caller, query, baseUrl }) => {
        const pending = await approvals.pendingFor(caller, query.$top);
        return { status: 200, body: odataCollection(baseUrl, 'approvals', pending) };
      },
    }),
    defineRoute({
      operationId: 'approveTeamCreation',
      method: 'post',
      path: '/approvals/{approvalRequestId}/approve',
      tag: 'Provisioning',
      summary: 'Approve a team request (optionally amending its name, description or welcome message)',
      params: z.object({ approvalRequestId: Id('approval request') }),
      // The body is optional (no body, `{}` or a payload), as existing clients send it.
      body: ApprovedApprovalResponsePayload.default({}),
      responses: {
        200: { description: 'Approved; the job is queued.' },
        403: { description: SELF_DECISION },
        409: { description: 'Already decided.' },
      },
      handle: async ({ caller, params, body, person }) => {
        await approvals.approve(caller, params.approvalRequestId, body, person);
        return { status: 200 };
      },
    }),
    defineRoute({
      operationId: 'rejectTeamCreation',
      method: 'post',
      path: '/approvals/{approvalRequestId}/reject',
      tag: 'Provisioning',
      summary: 'Reject a team request',
      params: z.object({ approvalRequestId: Id('approval request') }),
      body: RejectedApprovalResponsePayload.default({}),
      responses: {
        200: { description: 'Rejected; the job ends failed.' },
        403: { description: SELF_DECISION },
        409: { description: 'Already decided.' },
      },
      handle: async ({ caller, params, body }) => {
        await approvals.reject(caller, params.approvalRequestId, body);
        return { status: 200 };
      },
    }),
  ];
}
