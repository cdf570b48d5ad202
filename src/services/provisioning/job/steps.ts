import type { StepDefinition } from '../../../domain/jobs';
import type { StepStatus } from '../../../contract';

/**
 * The steps of a provisioning job, in order: `approval` (only when the template asks for one; decided
 * by approvers, not run by the worker), then the work `handler.ts` does under the same names. The
 * weights make up the job's progress percentage.
 */
export const PROVISIONING_STEPS = [
  { name: 'approval', title: 'Approval', weight: 0 },
  { name: 'team', title: 'Create the team', weight: 25 },
  { name: 'settings', title: 'Apply the team settings', weight: 10 },
  { name: 'channels', title: 'Create channels', weight: 12 },
  { name: 'tabs', title: 'Create tabs', weight: 8 },
  { name: 'members', title: 'Add owners and members', weight: 20 },
  { name: 'planner', title: 'Make the Planner plan', weight: 8 },
  { name: 'tags', title: 'Make the team tags', weight: 3 },
  { name: 'apps', title: 'Install apps', weight: 4 },
  { name: 'welcome', title: 'Post the welcome message', weight: 8 },
  { name: 'metadata', title: "Store the request's metadata", weight: 1 },
  { name: 'finish', title: 'Finish', weight: 1 },
] as const satisfies readonly StepDefinition[];

export type ProvisioningStep = (typeof PROVISIONING_STEPS)[number]['name'];

const WITHOUT_APPROVAL = PROVISIONING_STEPS.filter((step) => step.name !== 'approval');

const approvalOf = (data: Readonly<Record<string, unknown>>): { status?: unknown } | undefined => {
  const approval = data.approval;
  return approval && typeof approval === 'object' ? (approval as { status?: unknown }) : undefined;
};

/** The steps of one provisioning job: the approval step only when it has an approval. */
export function provisioningSteps(
  data: Readonly<Record<string, unknown>>,
): readonly StepDefinition<ProvisioningStep>[] {
  return approvalOf(data) ? PROVISIONING_STEPS : WITHOUT_APPROVAL;
}

/** The approval step's status, decided by approvers: running while they have not answered. */
export function approvalStatus(data: Readonly<Record<string, unknown>>): Record<string, StepStatus> {
  const approval = approvalOf(data);
  if (!approval) return {};
  const status = approval.status;
  // Withdrawn before a decision: no step runs, the approval's included.
  if (status === 'withdrawn')
    return Object.fromEntries(PROVISIONING_STEPS.map((step) => [step.name, 'skipped' as const]));
  return { approval: status === 'approved' ? 'done' : status === 'rejected' ? 'rejected' : 'running' };
}
