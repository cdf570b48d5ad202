import type { OperationId } from '../../domain/rbac';

/** How Copilot shows a function's results: a card per item of `dataPath`, with a title and a subtitle. */
export interface ResultCard {
  /** JSONPath of the items in the answer (`$.value` for a collection, `$` for one object). */
  dataPath: string;
  /** JSONPath of each item's title and subtitle, relative to the item. */
  title: string;
  subtitle: string;
  /** JSONPath of a link that opens the item, when it has one. */
  url?: string;
  /** The Adaptive Card's facts: a label and the item's field shown (an Adaptive Card template expression). */
  facts: { label: string; value: string }[];
}

/** An operation of Steward that the Copilot agent may call. */
export interface CopilotOperation {
  operationId: OperationId;
  /** Whether it changes something: Copilot then shows a confirmation card before it runs. */
  writes: boolean;
  /** When to call it, for the model (English: the model reads it, people never do). */
  description: string;
  card?: ResultCard;
}

const JOB_CARD: ResultCard = {
  dataPath: '$.value',
  title: '$.data.team.name',
  subtitle: '$.status',
  facts: [
    { label: 'Status', value: '${status}' },
    { label: 'Progress', value: '${progress} %' },
    { label: 'Requested', value: '${createdDateTime}' },
  ],
};

/**
 * The operations people use, in the order the plugin lists them: templates, the similar teams,
 * requesting a team, the requests and approvals, withdrawing, a team's lifecycle and joining. Each
 * runs as the signed-in person, with their roles, audience rules and rate limits, exactly as over
 * HTTP; nothing here grants more.
 */
export const COPILOT_OPERATIONS: readonly CopilotOperation[] = [
  {
    operationId: 'getMyCatalogTemplates',
    writes: false,
    description:
      'Lists the team templates the signed-in person may request a team from, with what each needs (approval, ' +
      'naming, minimum owners and members). Call it before requesting a team, to pick the template id.',
    card: {
      dataPath: '$.value',
      title: '$.templateConfiguration.name',
      subtitle: '$.templateConfiguration.description',
      facts: [
        { label: 'Needs approval', value: '${templateConfiguration.approval.requireApproval}' },
        { label: 'Privacy', value: '${newTeam.teamPrivacy}' },
      ],
    },
  },
  {
    operationId: 'previewTeamProvisioning',
    writes: false,
    description:
      'Shows, without making anything, the final name a request would get, what is wrong with it, and the existing ' +
      'teams alike it (`similarTeams`). Call it before requesting a team and tell the person about similar teams.',
  },
  {
    operationId: 'searchTeamDirectory',
    writes: false,
    description:
      'Finds existing teams the person may see by words of their name, with how they can get in (`access`). Use it ' +
      'to suggest joining a team instead of requesting a new one.',
    card: {
      dataPath: '$.value',
      title: '$.displayName',
      subtitle: '$.description',
      url: '$.webUrl',
      facts: [
        { label: 'Visibility', value: '${visibility}' },
        { label: 'Members', value: '${memberCount}' },
        { label: 'Access', value: '${access}' },
      ],
    },
  },
  {
    operationId: 'createTeamProvisioningJob',
    writes: true,
    description:
      'Requests a new team from a template for the signed-in person. When the template needs approval the request ' +
      'waits for its approvers; tell the person who must approve and never claim the team exists before the job ' +
      'completes.',
  },
  {
    operationId: 'getMyJobs',
    writes: false,
    description: 'Lists the signed-in person’s recent team requests, newest first, with where each stands.',
    card: JOB_CARD,
  },
  {
    operationId: 'getJob',
    writes: false,
    description:
      'Shows one request (job): its status, progress, steps, approval stages and the team once made.',
    card: { ...JOB_CARD, dataPath: '$' },
  },
  {
    operationId: 'withdrawTeamProvisioningJob',
    writes: true,
    description:
      'Withdraws one of the person’s own requests while it still waits for approval; nothing is made.',
  },
  {
    operationId: 'getMyApprovals',
    writes: false,
    description:
      'Lists the approval requests waiting for the signed-in person’s decision, oldest first, each with its request.',
    card: {
      dataPath: '$.value',
      title: '$.job.data.team.name',
      subtitle: '$.stageName',
      facts: [
        { label: 'Waiting since', value: '${sinceDateTime}' },
        { label: 'Approval id', value: '${id}' },
      ],
    },
  },
  {
    operationId: 'approveTeamCreation',
    writes: true,
    description:
      'Approves a team request waiting for the signed-in person, by the approval request id `getMyApprovals` gives.',
  },
  {
    operationId: 'rejectTeamCreation',
    writes: true,
    description:
      'Rejects a team request waiting for the signed-in person, with an optional message saying why.',
  },
  {
    operationId: 'getTeamLifecycle',
    writes: false,
    description:
      'Shows a team’s lifecycle: when it expires, whether it is inactive, and what the policy asks.',
  },
  {
    operationId: 'renewTeamLifecycle',
    writes: true,
    description: 'Renews a team the person owns: it then expires the policy’s number of days from today.',
  },
  {
    operationId: 'createTeamJoinRequest',
    writes: true,
    description:
      'Asks to join an existing team. The owners decide, unless the team lets people join directly; tell the ' +
      'person which happened.',
  },
  {
    operationId: 'getMyJoinRequests',
    writes: false,
    description: 'Lists the signed-in person’s requests to join teams, newest first, with their status.',
  },
];
