import { stepStatuses } from '../../../src/domain/jobs';
import { CatalogTemplate, type Job } from '../../../src/contract';
import { approvalStatus, provisioningSteps } from '../../../src/services/provisioning/job/steps';
import { seedTemplates } from '../../../src/store/seed/templates';

/** The demo catalog as `GET /me/catalog/templates` returns it (defaults applied). */
export const catalog: CatalogTemplate[] = seedTemplates.map((template) => CatalogTemplate.parse(template));

/** A template by id from the demo catalog. */
export function template(id: string): CatalogTemplate {
  const found = catalog.find((t) => t.templateConfiguration.id === id);
  if (!found) throw new Error(`no demo template ${id}`);
  return found;
}

/** A template needing approval by Adele Vance and Siobhán O'Connor, with an https picture. */
const clientEngagement = template('client-engagement');
export const clientTemplate: CatalogTemplate = {
  ...clientEngagement,
  templateConfiguration: {
    ...clientEngagement.templateConfiguration,
    pictureUrl: 'https://contoso.example/pictures/client-engagement.png',
  },
};

export const REQUESTER = { id: 'alex-wilber-id', displayName: 'Alex Wilber', mail: 'AlexW@contoso.example' };
export const APPROVERS = [
  { id: 'adele-vance-id', name: 'Adele Vance', teamsUserId: '29:adele-vance-mri' },
  { id: 'siobhan-id', name: "Siobhán O'Connor", teamsUserId: '29:siobhan-mri' },
];

/**
 * A provisioning job as `GET /jobs/{id}` returns it, shaped like the provisioning service's data;
 * `done` is how many of its work steps the worker finished, its `steps` as the API computes them.
 */
export function provisioningJob(
  overrides: Partial<Job> & { approval?: string | null; webUrl?: string; done?: number } = {},
): Job {
  const { approval = 'pending', webUrl, done = 0, ...fields } = overrides;
  const job: Job = {
    id: 'job-7f3c',
    type: 'ProvisioningRequest',
    status: 'waiting',
    progress: 0,
    log: [
      'Requested "CLI-BE-Fabrikam" from template "Client engagement" by Alex Wilber.',
      "Waiting for approval approval-42 by Adele Vance, Siobhán O'Connor.",
    ],
    data: {
      request: { template: { id: 'client-engagement' }, team: { name: 'Fabrikam' } },
      template: { id: 'client-engagement', name: 'Client engagement', approvers: APPROVERS },
      requester: REQUESTER,
      plan: {
        displayName: 'CLI-BE-Fabrikam',
        description: 'Engagement with Fabrikam',
        visibility: 'private',
      },
      ...(approval ? { approval: { id: 'approval-42', status: approval, approvers: APPROVERS } } : {}),
      ...(webUrl ? { team: { id: 'team-1', displayName: 'CLI-BE-Fabrikam', webUrl } } : {}),
    },
    createdDateTime: '2026-05-04T09:30:12.345Z',
    lastModifiedDateTime: '2026-05-04T09:31:00.000Z',
    failedReason: null,
    steps: [],
    ...fields,
  };
  if (fields.steps) return job;
  const work = provisioningSteps(job.data).filter((step) => step.name !== 'approval');
  const checkpoint = { done: work.slice(0, done).map((step) => step.name) };
  return {
    ...job,
    steps: stepStatuses(provisioningSteps(job.data), { ...job, checkpoint }, approvalStatus(job.data)),
  };
}
