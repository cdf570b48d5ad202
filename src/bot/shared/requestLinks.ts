import type { Job } from '../../client';

/**
 * What approvals and requests ask of each other, named here so neither imports the other's
 * insides: the requests' progress cards (`requests/progress.ts`'s `ProgressTracker` is one) and
 * the approvers' cards (`approvals/approvals.ts`'s `ApprovalConversation` is one).
 */

/** The requester's progress card of a request, as the approval cards move it on. */
export interface RequestProgress {
  /** Redraws the request's progress card soon (after a decision). */
  refreshSoon(jobId: string): void;
  /** Notes on the progress card the approvers who could not be reached (none: everyone was). */
  noteUnreachable(jobId: string, names: readonly string[]): Promise<void>;
  /** The request's job, read at once; undefined when it cannot be read. */
  job(jobId: string): Promise<Job | undefined>;
}

/** The approvers' cards of a request, as withdrawing it turns them into the decided card. */
export interface ApproverCards {
  /** Turns every approver's card of `approvalId` into its decided card (except `skip`'s). */
  showDecision(approvalId: string, skip?: string): Promise<void>;
}
