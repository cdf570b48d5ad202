import type { StepStatus } from '../../client';
import type { JobSummary } from '../shared/jobSummary';

/** Where a step of a request stands: the job's own step status (`GET /jobs/{id}`, `steps`). */
export type StepState = StepStatus;

/** One line of the progress card's checklist. */
export interface ProgressStep {
  title: string;
  state: StepState;
}

/** The checklist the progress card shows for a job: its steps as the job reports them, in order. */
export function progressSteps(job: JobSummary): ProgressStep[] {
  return job.steps.map((step) => ({ title: step.title, state: step.status }));
}
