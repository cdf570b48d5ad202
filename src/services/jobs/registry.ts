import type { z } from 'zod';
import type { JobType, StepDefinition, StoredJob } from '../../domain/jobs';
import { stepStatuses, toWireJob } from '../../domain/jobs';
import type { Job, JobStep, StepStatus } from '../../contract';
import type { JobHandler, JobTypeModule } from './jobType';

/**
 * A job type as the composition root registers it under its name `T`: its module, whose handler
 * takes what the root gives every handler (`W`). Only the parts the registry checks are typed here
 * (the module's data and handler agree with each other already, `jobType`).
 */
export interface RegisteredJobType<T extends JobType, W> {
  readonly type: T;
  readonly data: z.ZodType<unknown>;
  steps(data: Readonly<Record<string, unknown>>): readonly StepDefinition[];
  settled?(data: Readonly<Record<string, unknown>>): Record<string, StepStatus>;
  /** Checked strictly (a property): `W` must have everything the handler asks for. */
  readonly handler: (deps: W) => unknown;
}

/**
 * Every job type, by name, as `compose/jobTypes.ts` lists them (`satisfies JobRegistry<W>`): a
 * name of `JobType` without its module, a module under another name, a module not in `JobType`, or
 * a handler asking for something `W` lacks does not compile.
 */
export type JobRegistry<W> = { readonly [T in JobType]: RegisteredJobType<T, W> };

/** What features read of the registered job types: a stored job's steps, and its wire form. */
export interface JobCatalog {
  /** Where each step of a job stands, as its type defines the steps. */
  steps(job: StoredJob): JobStep[];
  /** A job as the API shows it, steps included. */
  wire(job: StoredJob, queuePaused: boolean): Job;
}

/** A job type's module with the handler the worker calls. */
export interface RunnableJobType {
  readonly module: JobTypeModule<unknown>;
  readonly handler: JobHandler<unknown>;
}

/** The registered job types: their steps for the API, and their handlers for a worker. */
export class JobTypes<W> implements JobCatalog {
  private readonly modules: Record<JobType, JobTypeModule<unknown, string, W>>;

  constructor(registry: JobRegistry<W>) {
    // Each module's data and handler agree (`jobType`); the engine runs them as any data.
    this.modules = registry as unknown as Record<JobType, JobTypeModule<unknown, string, W>>;
  }

  steps(job: StoredJob): JobStep[] {
    const module = this.modules[job.type];
    return stepStatuses(module.steps(job.data), job, module.settled?.(job.data));
  }

  wire(job: StoredJob, queuePaused: boolean): Job {
    return toWireJob(job, queuePaused, this.steps(job));
  }

  /** Builds every job type's handler once, for a worker. */
  handlers(deps: W): Record<JobType, RunnableJobType> {
    const built = {} as Record<JobType, RunnableJobType>;
    for (const type of Object.keys(this.modules) as JobType[]) {
      const module = this.modules[type];
      built[type] = { module: module as JobTypeModule<unknown>, handler: module.handler(deps) };
    }
    return built;
  }
}
