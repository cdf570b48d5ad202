import { z } from 'zod';
import type { StewardEvent } from '../webhooks/events';
import { type JobDependencies, type JobHandler, type JobRun, jobType } from '../jobs/jobType';

/** A timer of an approval stage: remind its approvers, escalate it, or let it expire. */
export const ApprovalTimerData = z.looseObject({
  approvalId: z.string(),
  jobId: z.string(),
  kind: z.enum(['reminder', 'escalation', 'expiry']),
});
export type ApprovalTimerData = z.output<typeof ApprovalTimerData>;

/** What a timer does, carried out by the approvals service (`services/approvalTimers.ts`). */
export interface ApprovalTimerActions {
  /**
   * Fires the timer if its stage still waits for a decision, once however many workers run it
   * (each change is conditional on the stage's row); returns the line for the timer job's log.
   */
  fire(timer: ApprovalTimerData): Promise<string>;
}

const TIMER_STEPS = [{ name: 'fire', title: 'Fire', weight: 100 }] as const;

class ApprovalTimerHandler implements JobHandler<ApprovalTimerData> {
  constructor(private readonly deps: Pick<JobDependencies, 'approvalTimers'>) {}

  async run(run: JobRun<ApprovalTimerData>): Promise<void> {
    await run.step('fire', async () => ({ log: [await this.deps.approvalTimers.fire(run.data)] }));
  }

  async completed(): Promise<StewardEvent[]> {
    return [];
  }

  async failed(): Promise<StewardEvent[]> {
    return [];
  }
}

/**
 * `ApprovalTimer`: a job queued when a stage opens, due when the policy's reminder, escalation or
 * expiry comes (`run_at`), so timers survive restarts and fire once in a cluster like any job.
 */
export const approvalTimerJob = jobType({
  type: 'ApprovalTimer',
  data: ApprovalTimerData,
  steps: () => TIMER_STEPS,
  handler: (deps) => new ApprovalTimerHandler(deps),
});
