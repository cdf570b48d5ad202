/**
 * Type tests, checked by `npm run typecheck` (tsc covers test/) and never run: the registry of job
 * types in `compose/jobTypes.ts` and the `JobType` union are checked against each other, and each
 * handler against what the composed program gives handlers. Each `@ts-expect-error` fails the
 * typecheck if the line below it compiles.
 */
import { JOB_TYPES, type JobWorld } from '../../../src/compose/jobTypes';
import type { JobRegistry } from '../../../src/services/jobs/registry';

type Registry = JobRegistry<JobWorld>;
const { TeamDriftApply: drift, TeamJoinRequest: join, ...rest } = JOB_TYPES;

export const complete: Registry = JOB_TYPES;
// @ts-expect-error: a JobType without its module
export const missing: Registry = { ...rest, TeamJoinRequest: join };
// @ts-expect-error: a module under another type's name
export const misnamed: Registry = { ...rest, TeamJoinRequest: join, TeamDriftApply: join };
// @ts-expect-error: a name that is not a JobType
export const unknown: Registry = { ...rest, TeamJoinRequest: join, TeamDriftApply: drift, Other: drift };
// @ts-expect-error: a handler asking for something the program does not give handlers
export const lacking: JobRegistry<Omit<JobWorld, 'labels'>> = JOB_TYPES;
