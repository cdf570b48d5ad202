import type { StoredJob } from '../../domain/jobs';
import type { ProvisioningData } from './provisioningData';

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
    ...(data.approval ? { approval: approvalPayload(data.approval) } : {}),
    ...(data.team ? { team: { id: data.team.id, displayName: data.team.displayName } } : {}),
    metadata: data.request.metadata ?? {},
  };
}

/** The approval's part of a payload: its request id, the last decision, and the stage it names. */
function approvalPayload(approval: NonNullable<ProvisioningData['approval']>): Record<string, unknown> {
  const stages = approval.stages ?? [];
  const index = stages.findIndex((s) => s.id === approval.id);
  const stage = stages[index];
  return {
    id: approval.id,
    ...(approval.approver ? { approver: approval.approver } : {}),
    ...(stage
      ? {
          stage: {
            id: stage.id,
            name: stage.name,
            number: index + 1,
            count: stages.length,
            decision: stage.decision,
            status: stage.status,
            approvers: stage.approvers,
            ...(stage.escalated ? { escalated: stage.escalated } : {}),
          },
        }
      : {}),
  };
}
