import type { Transaction } from 'kysely';
import type { StoredJob } from '../../domain/jobs';
import type { Database } from '../../store/schema';
import type { StewardEvent } from '../webhooks/events';
import { type JobHandler, type JobRun, jobType, type StepName } from '../jobs/jobType';
import { LifecycleEvaluationData, type LifecycleRunner } from './types';

const EVALUATION_STEPS = [
  { name: 'activity', title: "Read the teams' activity", weight: 20 },
  { name: 'evaluate', title: 'Evaluate every team', weight: 75 },
] as const;
const SCHEDULE_STEP = { name: 'schedule', title: 'Schedule the next evaluation', weight: 5 } as const;
type EvaluationStep = StepName<typeof EVALUATION_STEPS> | typeof SCHEDULE_STEP.name;

/** What an evaluation's handler needs: what lifecycle evaluations do (`evaluations.ts`). */
export interface LifecycleEvaluationJobDeps {
  lifecycle: LifecycleRunner;
}

class LifecycleEvaluationHandler implements JobHandler<LifecycleEvaluationData, EvaluationStep> {
  readonly trail = 'lifecycle';

  constructor(private readonly deps: LifecycleEvaluationJobDeps) {}

  async run(run: JobRun<LifecycleEvaluationData, EvaluationStep>): Promise<void> {
    const runner = this.deps.lifecycle;
    // The next day's run is queued first, so an evaluation that fails does not end the schedule.
    if (run.data.scheduled) await run.step('schedule', async () => ({ log: [await runner.scheduleNext()] }));
    await run.step('activity', async () => ({ log: [await runner.importActivity()] }));
    await run.step('evaluate', async () => ({ log: await runner.evaluate(run.data.asOf, run.job.id) }));
  }

  async completed(
    _job: StoredJob,
    _data: LifecycleEvaluationData,
    _trx: Transaction<Database>,
  ): Promise<StewardEvent[]> {
    return [];
  }

  async failed(): Promise<StewardEvent[]> {
    return [];
  }
}

/**
 * `LifecycleEvaluation`: one pass of the lifecycle evaluator over every team. The daily run's job
 * id names its day, so however many workers schedule it, one row exists and one worker runs it.
 */
export const lifecycleEvaluationJob = jobType({
  type: 'LifecycleEvaluation',
  data: LifecycleEvaluationData,
  steps: (data) => (data.scheduled === true ? [SCHEDULE_STEP, ...EVALUATION_STEPS] : EVALUATION_STEPS),
  handler: (deps: LifecycleEvaluationJobDeps) => new LifecycleEvaluationHandler(deps),
});
