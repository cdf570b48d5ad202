import { jobType } from '../../jobs/jobType';
import { ProvisioningData } from '../../jobData/provisioningData';
import { ProvisioningHandler, type ProvisioningJobDeps } from './handler';
import { approvalStatus, provisioningSteps } from './steps';

/** `ProvisioningRequest`: creates (or clones) a team from a template's plan, step by step. */
export const provisioningJob = jobType({
  type: 'ProvisioningRequest',
  data: ProvisioningData,
  steps: provisioningSteps,
  settled: approvalStatus,
  handler: (deps: ProvisioningJobDeps) => new ProvisioningHandler(deps),
});
