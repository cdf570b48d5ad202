import { z } from 'zod';

/*
 * What the lifecycle evaluation job type (`evaluationJob.ts`) and the service that carries
 * evaluations out (`evaluations.ts`) share, and what the job engine's dependencies name: a module
 * of its own, so that the engine does not import a job type.
 */

/** An evaluation: on a scheduled day (`asOf`), or now when someone asked for one. */
export const LifecycleEvaluationData = z.looseObject({
  /** The day decided on (`YYYY-MM-DD`); a requested evaluation takes the day it runs. */
  asOf: z.string().optional(),
  /** True for the daily run: it schedules the next one when it ends. */
  scheduled: z.boolean(),
  requester: z.looseObject({ id: z.string(), displayName: z.string() }),
});
export type LifecycleEvaluationData = z.output<typeof LifecycleEvaluationData>;

/** What an evaluation does, carried out by the lifecycle service (`services/lifecycle/evaluations.ts`). */
export interface LifecycleRunner {
  /** Reads the platform's activity report into the store; returns the job log's line. */
  importActivity(): Promise<string>;
  /** Decides and acts on every team on `asOf` (today when absent); returns the job log's lines. */
  evaluate(asOf: string | undefined, evaluationId: string): Promise<string[]>;
  /** Queues the next daily run (once, whichever worker asks); returns the log line. */
  scheduleNext(): Promise<string>;
}
