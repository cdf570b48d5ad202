import type { StepDefinition } from '../../../domain/jobs';
import type { StepStatus } from '../../../contract';

/**
 * The steps of a provisioning job, in order: `approval` (only when the template asks for one; decided
 * by approvers, not run by the worker), then the work `handler.ts` does under the same names;
 * `planner`, `tags` and `apps` only when the template has them. The steps that may wait long for
 * Microsoft's platform come as late as what they need allows: `files` after every step that does
 * not need the files. The weights make up the job's
 * progress percentage (each step's share of the job's own steps).
 */
export const PROVISIONING_STEPS = [
  { name: 'approval', title: 'Approval', weight: 0 },
  { name: 'team', title: 'Create the team', weight: 25 },
  { name: 'settings', title: 'Apply the team settings', weight: 10 },
  { name: 'channels', title: 'Create channels', weight: 15 },
  { name: 'tabs', title: 'Create tabs', weight: 10 },
  { name: 'members', title: 'Add owners and members', weight: 25 },
  // Only when the template has a plan, tags or apps (`teamToolsSteps.ts`).
  { name: 'planner', title: 'Make the Planner plan', weight: 6 },
  { name: 'tags', title: 'Make the team tags', weight: 2 },
  { name: 'apps', title: 'Install apps', weight: 2 },
  { name: 'welcome', title: 'Post the welcome message', weight: 10 },
  // Last of the team's work: a private or shared channel's files folder waits for its SharePoint
  // site (minutes), and nothing before it needs the files, so nothing waits behind it.
  { name: 'files', title: 'Create folders and starter files', weight: 5 },
  { name: 'metadata', title: "Store the request's metadata", weight: 3 },
  { name: 'finish', title: 'Finish', weight: 2 },
] as const satisfies readonly StepDefinition[];

export type ProvisioningStep = (typeof PROVISIONING_STEPS)[number]['name'];

const approvalOf = (data: Readonly<Record<string, unknown>>): { status?: unknown } | undefined => {
  const approval = data.approval;
  return approval && typeof approval === 'object' ? (approval as { status?: unknown }) : undefined;
};

/** The steps of one provisioning job: the approval, plan, tags and apps steps only when it has them. */
export function provisioningSteps(
  data: Readonly<Record<string, unknown>>,
): readonly StepDefinition<ProvisioningStep>[] {
  const has: Partial<Record<ProvisioningStep, boolean>> = {
    approval: approvalOf(data) !== undefined,
    ...teamToolsStepsOf(data),
  };
  return PROVISIONING_STEPS.filter((step) => has[step.name] ?? true);
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

/** Which of the planner, tags and apps steps a job's data calls for (the others are left out). */
export function teamToolsStepsOf(
  data: Readonly<Record<string, unknown>>,
): Record<'planner' | 'tags' | 'apps', boolean> {
  const plan = (data.plan ?? {}) as { planner?: unknown; tags?: unknown[]; apps?: unknown[] };
  return {
    planner: plan.planner !== undefined,
    tags: (plan.tags?.length ?? 0) > 0,
    apps: (plan.apps?.length ?? 0) > 0,
  };
}
