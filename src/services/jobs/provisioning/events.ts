import type { StoredJob } from '../../../domain/jobs';
import type { ProvisioningData } from './data';

/**
 * The payload fields every provisioning event shares (`api-contract.md`, Webhook deliveries): the
 * request side records `team_creation_*` events with it, the job records `team_provisioning_*`.
 */
export function eventPayload(job: Pick<StoredJob, 'id'>, data: ProvisioningData): Record<string, unknown> {
  return {
    requester: data.requester,
    template: data.template,
    request: {
      team: {
        name: data.request.team.name,
        description: data.request.team.description ?? '',
        welcomeMessage: data.request.team.welcomeMessage ?? '',
      },
      membership: data.request.team.membership,
    },
    provisioning: { id: job.id },
    ...(data.approval
      ? {
          approval: {
            id: data.approval.id,
            ...(data.approval.approver ? { approver: data.approval.approver } : {}),
          },
        }
      : {}),
    ...(data.team ? { team: { id: data.team.id, displayName: data.team.displayName } } : {}),
    metadata: data.request.metadata ?? {},
  };
}
