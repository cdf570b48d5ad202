import { z } from 'zod';

/*
 * What the approval timer job type (`approvalTimerJob.ts`) and the service that carries timers out
 * (`approvalTimers.ts`) share, and what the job engine's dependencies name: a module of its own,
 * so that the engine does not import a job type.
 */

/** A timer of an approval stage: remind its approvers, escalate it, or let it expire. */
export const ApprovalTimerData = z.looseObject({
  approvalId: z.string(),
  jobId: z.string(),
  kind: z.enum(['reminder', 'escalation', 'expiry']),
});
export type ApprovalTimerData = z.output<typeof ApprovalTimerData>;

/** What a timer does, carried out by the approvals service (`approvalTimers.ts`). */
export interface ApprovalTimerActions {
  /**
   * Fires the timer if its stage still waits for a decision, once however many workers run it
   * (each change is conditional on the stage's row); returns the line for the timer job's log.
   */
  fire(timer: ApprovalTimerData): Promise<string>;
}
