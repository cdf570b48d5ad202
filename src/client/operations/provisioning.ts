import { randomUUID } from 'node:crypto';
import type {
  ApprovedApprovalResponsePayload,
  Job,
  Jobs,
  PendingApprovals,
  RejectedApprovalResponsePayload,
  TeamProvisioningRequest,
  TeamRequestPreview,
} from '../models';
import type { CallOptions, ProvisioningCallOptions } from '../options';
import { apiPath } from '../url';
import type { Send } from './send';

/** The most jobs one `getJobs` call reads (the API's limit). */
export const JOBS_A_READ = 100;

/** Requesting teams, following their jobs, and deciding on approvals. */
export function provisioningOperations(send: Send) {
  return {
    /**
     * Requests a team from a template (`POST /teams/provisioning`, 201 Job). The request carries
     * an `Idempotency-Key` (generated unless given), so it is retried like a read: a retry returns
     * the job the first attempt created instead of making a second request.
     */
    async createTeamProvisioningJob(
      request: TeamProvisioningRequest,
      options: ProvisioningCallOptions = {},
    ): Promise<Job> {
      const { idempotencyKey = randomUUID(), ...call } = options;
      const answer = await send<Job>(
        {
          operationId: 'createTeamProvisioningJob',
          method: 'POST',
          path: '/teams/provisioning',
          body: request,
          headers: { 'idempotency-key': idempotencyKey },
          idempotent: true,
        },
        call,
      );
      return answer.body;
    },

    /** What a request would become, without making it (`POST /teams/provisioning/preview`, an extension). */
    async previewTeamProvisioning(
      request: TeamProvisioningRequest,
      options?: CallOptions,
    ): Promise<TeamRequestPreview> {
      const answer = await send<TeamRequestPreview>(
        {
          operationId: 'previewTeamProvisioning',
          method: 'POST',
          path: '/teams/provisioning/preview',
          body: request,
          idempotent: true,
        },
        options,
      );
      return answer.body;
    },

    /** Reads a job: a provisioning or archive request (`GET /jobs/{jobId}`). */
    async getJob(jobId: string, options?: CallOptions): Promise<Job> {
      const path = apiPath('/jobs/{jobId}', { jobId });
      return (await send<Job>({ operationId: 'getJob', method: 'GET', path }, options)).body;
    },

    /**
     * Reads up to `JOBS_A_READ` jobs in one call (`GET /jobs?ids=`, an extension), in the order
     * asked. A job the caller may not see, or that does not exist, is left out of the answer.
     */
    async getJobs(jobIds: readonly string[], options?: CallOptions): Promise<Job[]> {
      if (jobIds.length === 0) return [];
      if (jobIds.length > JOBS_A_READ)
        throw new RangeError(`getJobs reads at most ${JOBS_A_READ} jobs a call, not ${jobIds.length}.`);
      const path = apiPath('/jobs', {}, { ids: jobIds.join(',') });
      return (await send<Jobs>({ operationId: 'getJobs', method: 'GET', path }, options)).body.value;
    },

    /** The caller's own most recent requests, newest first (`GET /me/jobs`, an extension). */
    async getMyJobs(query: { top?: number } = {}, options?: CallOptions): Promise<Jobs> {
      const path = apiPath('/me/jobs', {}, { $top: query.top });
      return (await send<Jobs>({ operationId: 'getMyJobs', method: 'GET', path }, options)).body;
    },

    /**
     * Withdraws the caller's own request while it waits for approval (`POST /jobs/{jobId}/withdraw`,
     * an extension): the job, ended. Never retried.
     */
    async withdrawTeamProvisioningJob(jobId: string, options?: CallOptions): Promise<Job> {
      const path = apiPath('/jobs/{jobId}/withdraw', { jobId });
      return (await send<Job>({ operationId: 'withdrawTeamProvisioningJob', method: 'POST', path }, options))
        .body;
    },

    /** The approval requests waiting for the caller's decision, oldest first (`GET /me/approvals`, an extension). */
    async getMyApprovals(query: { top?: number } = {}, options?: CallOptions): Promise<PendingApprovals> {
      const path = apiPath('/me/approvals', {}, { $top: query.top });
      return (await send<PendingApprovals>({ operationId: 'getMyApprovals', method: 'GET', path }, options))
        .body;
    },

    /** Approves a team request, optionally amending it (`POST /approvals/{id}/approve`). Never retried. */
    async approveTeamCreation(
      approvalRequestId: string,
      decision: ApprovedApprovalResponsePayload = {},
      options?: CallOptions,
    ): Promise<void> {
      const path = apiPath('/approvals/{approvalRequestId}/approve', { approvalRequestId });
      await send({ operationId: 'approveTeamCreation', method: 'POST', path, body: decision }, options);
    },

    /** Rejects a team request (`POST /approvals/{id}/reject`); its job ends failed. Never retried. */
    async rejectTeamCreation(
      approvalRequestId: string,
      decision: RejectedApprovalResponsePayload = {},
      options?: CallOptions,
    ): Promise<void> {
      const path = apiPath('/approvals/{approvalRequestId}/reject', { approvalRequestId });
      await send({ operationId: 'rejectTeamCreation', method: 'POST', path, body: decision }, options);
    },
  };
}

/** The provisioning operations of the client. */
export type ProvisioningOperations = ReturnType<typeof provisioningOperations>;
