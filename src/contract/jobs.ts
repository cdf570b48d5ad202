import { z } from 'zod';
import { JobApproval } from './approvalPolicy';
import { model, multiLine, odataCollection } from './registry';
import { TEAM_NAME_MAX_LENGTH } from './limits';
import { SimilarTeam } from './joining';

const UserIdentifier = (name: string) =>
  model(name, z.strictObject({ id: z.string().trim().min(1).max(320).describe('Object id, UPN or mail.') }));

export const OwnerUserIdentifier = UserIdentifier('OwnerUserIdentifier');
export const MemberUserIdentifier = UserIdentifier('MemberUserIdentifier');

export const TeamProvisioningRequest = model(
  'TeamProvisioningRequest',
  z.strictObject({
    template: z.strictObject({ id: z.string().trim().min(1).max(128) }),
    team: z.strictObject({
      name: z.string().trim().min(1).max(TEAM_NAME_MAX_LENGTH),
      description: multiLine(z.string().max(1024)).optional(),
      welcomeMessage: multiLine(z.string().max(4000)).optional(),
      membership: z
        .strictObject({
          owners: z.array(OwnerUserIdentifier).max(100).default([]),
          members: z.array(MemberUserIdentifier).max(500).default([]),
        })
        .default({ owners: [], members: [] }),
    }),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  'What a requester asks for: a team from a template.',
);
export type TeamProvisioningRequest = z.output<typeof TeamProvisioningRequest>;

export const JobStatus = z.enum(['waiting', 'active', 'completed', 'failed', 'delayed', 'paused']);
export type JobStatus = z.output<typeof JobStatus>;

export const TeamRequestPreview = model(
  'TeamRequestPreview',
  z.object({
    displayName: z.string().describe('The final team name, after the template’s naming convention.'),
    description: z.string().describe('The final description, after the template’s convention.'),
    nameMaxLength: z
      .number()
      .int()
      .describe(
        `The longest name the requester may type: the convention’s additions leave the rest of ${TEAM_NAME_MAX_LENGTH}.`,
      ),
    problems: z.array(z.string()).describe('What is wrong with the final name; empty when nothing is.'),
    similarTeams: z
      .array(SimilarTeam)
      .optional()
      .describe('Existing teams alike the request that the requester may see (a warning, never a refusal).'),
    approval: z
      .object({
        stages: z.array(
          z.object({
            name: z.string(),
            decision: z.enum(['any', 'all']),
            approvers: z.array(z.object({ id: z.string(), name: z.string().optional() })),
          }),
        ),
      })
      .optional()
      .describe(
        'Who would decide the request, stage by stage, as its approval policy picks them now (the ' +
          "requester's manager, named people, a rule's pick); absent when the template needs no approval " +
          'or they cannot be told now. Stages with nobody to decide them are left out.',
      ),
  }),
  'What a request would become, before it is made (an extension for request forms).',
);
export type TeamRequestPreview = z.output<typeof TeamRequestPreview>;

export const StepStatus = z
  .enum(['pending', 'running', 'done', 'skipped', 'failed', 'rejected'])
  .describe(
    '`skipped`: the step had nothing to do, or will not run because an earlier step was rejected or failed.',
  );
export type StepStatus = z.output<typeof StepStatus>;

export const JobStep = model(
  'JobStep',
  z.object({
    name: z.string().describe("The step's stable name (e.g. `team`, `channels`)."),
    title: z.string().describe('What the step does, for people.'),
    status: StepStatus,
  }),
  'One step of a job, in the order the job runs them.',
);
export type JobStep = z.output<typeof JobStep>;

export const JobWaitReason = z
  .enum([
    'teamCreation',
    'teamClone',
    'teamArchive',
    'teamUnarchive',
    'replication',
    'graphBudget',
    'channelCreation',
    'channelFiles',
  ])
  .describe(
    "What the job waits for: Microsoft Teams creating, cloning, archiving or unarchiving the team, making a new team visible everywhere (replication), a turn in the tenant's Microsoft Graph request budget (graphBudget), Microsoft Teams creating a shared channel (channelCreation, an extension), or SharePoint making a channel's files folder (channelFiles, an extension).",
  );
export type JobWaitReason = z.output<typeof JobWaitReason>;

export const JobWait = model(
  'JobWait',
  z.object({
    step: z.string().describe('The step that waits (one of `steps`).'),
    reason: JobWaitReason,
    description: z.string().describe('The wait in English, for people.'),
    sinceDateTime: z.string().describe('When the job started waiting for this.'),
    nextCheckDateTime: z.string().describe('When Steward looks again.'),
  }),
  'What a job in progress waits for while Microsoft Teams works on it; no worker is held meanwhile (an extension).',
);
export type JobWait = z.output<typeof JobWait>;

export const Job = model(
  'Job',
  z.object({
    id: z.string(),
    type: z.enum(['ProvisioningRequest', 'TeamArchiveRequest', 'LifecycleEvaluation', 'TeamDriftApply']),
    status: JobStatus,
    progress: z.number().int().min(0).max(100),
    steps: z.array(JobStep),
    log: z.array(z.string()),
    data: z
      .looseObject({ approval: JobApproval.optional() })
      .describe('The request, plus `approval` (with its stages) and the created `team` when known.'),
    createdDateTime: z.string(),
    lastModifiedDateTime: z.string(),
    failedReason: z.string().nullable(),
    waitingFor: JobWait.optional().describe(
      'Present while the job (`active`) waits for Microsoft Teams: what for, and when Steward looks again.',
    ),
    similarTeams: z
      .array(SimilarTeam)
      .optional()
      .describe(
        'In the answer to a new provisioning request only (an extension): existing teams alike the one asked ' +
          'for that the requester may see. A warning, never a refusal: the request is made all the same.',
      ),
  }),
  'An asynchronous job: a provisioning request, an archive / unarchive request, or a lifecycle evaluation (an extension).',
);
export type Job = z.output<typeof Job>;
export const Jobs = model('Jobs', odataCollection(Job), 'A page of jobs, newest first.');
export type Jobs = z.output<typeof Jobs>;

export const ApprovedApprovalResponsePayload = model(
  'ApprovedApprovalResponsePayload',
  z.strictObject({
    message: multiLine(z.string().max(2000)).optional(),
    approver: z.strictObject({ id: z.string().trim().min(1).max(320) }).optional(),
    updates: z
      .strictObject({
        name: z.string().trim().min(1).max(TEAM_NAME_MAX_LENGTH).optional(),
        description: multiLine(z.string().max(1024)).optional(),
        welcomeMessage: multiLine(z.string().max(4000)).optional(),
      })
      .optional(),
  }),
);
export type ApprovedApprovalResponsePayload = z.output<typeof ApprovedApprovalResponsePayload>;

export const RejectedApprovalResponsePayload = model(
  'RejectedApprovalResponsePayload',
  z.strictObject({
    message: multiLine(z.string().max(2000)).optional(),
    approver: z.strictObject({ id: z.string().trim().min(1).max(320) }).optional(),
  }),
);
export type RejectedApprovalResponsePayload = z.output<typeof RejectedApprovalResponsePayload>;

export const PendingApproval = model(
  'PendingApproval',
  z.object({
    id: z
      .string()
      .describe(
        'The approval request id of the stage waiting for the caller (`approveTeamCreation` takes it).',
      ),
    stageName: z.string().describe('The name of that stage ("Approval" for a single-stage policy).'),
    sinceDateTime: z.string().describe('When the stage opened: since when it waits for the caller.'),
    job: Job.describe('The request, as `GET /jobs/{jobId}` shows it to its approvers.'),
  }),
  'An approval request waiting for the caller’s decision, with its request (an extension).',
);
export type PendingApproval = z.output<typeof PendingApproval>;
export const PendingApprovals = model(
  'PendingApprovals',
  odataCollection(PendingApproval),
  'The approval requests waiting for the caller’s decision, oldest first (an extension).',
);
export type PendingApprovals = z.output<typeof PendingApprovals>;
