import type { StewardEvent } from '../webhooks/events';
import { type JobHandler, type JobRun, jobType, type StepName } from '../jobs/jobType';
import { type ApprovalTimerActions, ApprovalTimerData } from './types';

const TIMER_STEPS = [{ name: 'fire', title: 'Fire', weight: 100 }] as const;
type TimerStep = StepName<typeof TIMER_STEPS>;

/** What a timer's handler needs: what approval timers do (`approvalTimers.ts`). */
export interface ApprovalTimerJobDeps {
  approvalTimers: ApprovalTimerActions;
}

class ApprovalTimerHandler implements JobHandler<ApprovalTimerData, TimerStep> {
  constructor(private readonly deps: ApprovalTimerJobDeps) {}

  async run(run: JobRun<ApprovalTimerData, TimerStep>): Promise<void> {
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
  handler: (deps: ApprovalTimerJobDeps) => new ApprovalTimerHandler(deps),
});
