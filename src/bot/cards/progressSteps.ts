import type { JobSummary } from './jobSummary';

/** Where a step of a request stands. */
export type StepState = 'done' | 'active' | 'pending' | 'failed' | 'skipped';

/** One line of the progress card's checklist. */
export interface ProgressStep {
  title: string;
  state: StepState;
}

/**
 * The provisioning steps in the order the job worker runs them, with the job progress it reports
 * once each is finished (see the provisioning handler): a step is done when progress reaches it.
 */
const PROVISIONING_STEPS: ReadonlyArray<{ title: string; doneAt: number }> = [
  { title: 'Create the team', doneAt: 25 },
  { title: 'Apply the team settings', doneAt: 35 },
  { title: 'Create channels and tabs', doneAt: 60 },
  { title: 'Add owners and members', doneAt: 85 },
  { title: 'Post the welcome message', doneAt: 95 },
  { title: 'Finish', doneAt: 100 },
];

/** The checklist the progress card shows for a job: the approval (when there is one), then the work. */
export function progressSteps(job: JobSummary): ProgressStep[] {
  const steps: ProgressStep[] = [];
  const approval = job.approval;
  if (approval) {
    const state: StepState =
      approval.status === 'approved' ? 'done' : approval.status === 'rejected' ? 'failed' : 'active';
    steps.push({ title: 'Approval', state });
    if (approval.status === 'rejected') {
      return [
        ...steps,
        ...PROVISIONING_STEPS.map((step) => ({ title: step.title, state: 'skipped' as const })),
      ];
    }
  }
  const work =
    job.kind === 'provisioning'
      ? PROVISIONING_STEPS
      : [{ title: job.kind === 'archive' ? 'Archive the team' : 'Unarchive the team', doneAt: 90 }];
  let current = true;
  for (const step of work) {
    if (job.status === 'completed' || job.progress >= step.doneAt) {
      steps.push({ title: step.title, state: 'done' });
      continue;
    }
    const blockedByApproval = approval !== null && approval.status === 'pending';
    const state: StepState =
      !current || blockedByApproval
        ? 'pending'
        : job.status === 'failed'
          ? 'failed'
          : job.status === 'active'
            ? 'active'
            : 'pending';
    steps.push({ title: step.title, state });
    current = false;
  }
  return steps;
}
