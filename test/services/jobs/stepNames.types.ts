/**
 * Type tests, checked by `npm run typecheck` (tsc covers test/) and never run: a job type's steps
 * are declared once, by its module's step definitions, and a handler that runs a step the type
 * does not declare (a misspelt name) does not compile. Each `@ts-expect-error` fails the
 * typecheck if the line below it compiles.
 */
import { z } from 'zod';
import { approvalTimerJob } from '../../../src/services/approvals/approvalTimerJob';
import {
  type JobHandler,
  type JobRun,
  jobType,
  type JobTypeModule,
} from '../../../src/services/jobs/jobType';
import { lifecycleEvaluationJob } from '../../../src/services/lifecycle/evaluationJob';
import { lifecycleChangeJob } from '../../../src/services/lifecycle/lifecycleChangeJob';
import { provisioningJob } from '../../../src/services/provisioning/job';
import { teamArchiveJob } from '../../../src/services/teams/teamArchiveJob';
import { webhookDeliveryJob } from '../../../src/services/webhooks/webhookDeliveryJob';

/** The run a module's handler is given: its data, and its own step names. */
type RunOf<M> = M extends JobTypeModule<infer D, infer S> ? JobRun<D, S> : never;

const nothing = async (): Promise<void> => {};

export async function eachJobTypeRunsItsOwnStepsOnly(
  provisioning: RunOf<typeof provisioningJob>,
  archive: RunOf<typeof teamArchiveJob>,
  delivery: RunOf<typeof webhookDeliveryJob>,
  timer: RunOf<typeof approvalTimerJob>,
  evaluation: RunOf<typeof lifecycleEvaluationJob>,
  change: RunOf<typeof lifecycleChangeJob>,
): Promise<void> {
  await provisioning.step('channels', nothing);
  // @ts-expect-error: a misspelt step of a provisioning job
  await provisioning.step('chanels', nothing);
  await archive.step('unarchive', nothing);
  // @ts-expect-error: a step of another job type
  await archive.step('channels', nothing);
  await delivery.step('deliver', nothing);
  // @ts-expect-error: a misspelt step of a webhook delivery
  await delivery.step('delivr', nothing);
  await timer.step('fire', nothing);
  // @ts-expect-error: a step the approval timer does not declare
  await timer.step('remind', nothing);
  await evaluation.step('schedule', nothing);
  // @ts-expect-error: a misspelt step of a lifecycle evaluation
  await evaluation.step('evaluation', nothing);
  await change.step('addOwner', nothing);
  // @ts-expect-error: an action (stepUp) is not a step name (addOwner)
  await change.step('stepUp', nothing);
}

const Data = z.object({ teamId: z.string() });
type Data = z.output<typeof Data>;
const STEPS = [
  { name: 'team', title: 'Create the team', weight: 50 },
  { name: 'channels', title: 'Create channels', weight: 50 },
] as const;

/** A handler of `STEPS`'s steps, whose run is written by `runs`. */
function handlerOf<S extends string>(runs: (run: JobRun<Data, S>) => Promise<void>): JobHandler<Data, S> {
  return { run: runs, completed: async () => [], failed: async () => [] };
}

export const typed = jobType({
  type: 'ProvisioningRequest',
  data: Data,
  steps: () => STEPS,
  handler: () =>
    handlerOf<'team' | 'channels'>(async (run) => {
      await run.step('team', nothing);
      await run.step('channels', nothing);
    }),
});

export const misspelt = jobType({
  type: 'ProvisioningRequest',
  data: Data,
  steps: () => STEPS,
  handler: () =>
    handlerOf<'team' | 'channels'>(async (run) => {
      // @ts-expect-error: a misspelt step inside a handler
      await run.step('chanels', nothing);
    }),
});

export const anyName = jobType({
  type: 'ProvisioningRequest',
  data: Data,
  steps: () => STEPS,
  // @ts-expect-error: a handler that may run any step name is refused for a type that declares its steps
  handler: () => handlerOf<string>(async (run) => run.step('chanels', nothing)),
});

export const undeclared = jobType({
  type: 'ProvisioningRequest',
  data: Data,
  steps: () => STEPS,
  // @ts-expect-error: a handler of steps the type does not declare (the names come from `steps` only)
  handler: () => handlerOf<'team' | 'chanels'>(async (run) => run.step('chanels', nothing)),
});
