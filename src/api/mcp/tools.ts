import type { OperationId } from '../../domain/rbac';

/** What a tool's annotations say of it (MCP `ToolAnnotations`), stated for every tool. */
export interface Hints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Whether the tool reaches beyond Steward (Microsoft Teams, people's chats); false for reads of Steward's own data. */
  openWorldHint: boolean;
}

/** One tool: the API operation it calls, as the caller, and what a person must confirm first. */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  operationId: OperationId;
  annotations: Hints;
  /**
   * The question put to the person before the operation runs (elicitation, or else a refusal
   * telling the model to ask and call again with `confirmation`). Absent: no confirmation.
   */
  confirm?: (args: Record<string, unknown>) => string;
  /** A short sentence a model can quote, from the operation's answer (a success). */
  summary(body: unknown, args: Record<string, unknown>): string;
}

const READ: Hints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const WRITE = (hints: Partial<Hints>): Hints => ({
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
  ...hints,
});

type Json = Record<string, unknown>;
const items = (body: unknown): Json[] => ((body as { value?: Json[] })?.value ?? []) as Json[];
/** What names an item of an answer: a team's display name, a template's or a report's name, else its id. */
const nameOf = (item: Json): string => {
  const template = item.templateConfiguration as Json | undefined;
  const name = item.displayName ?? item.name ?? template?.name ?? item.id ?? template?.id;
  return typeof name === 'string' || typeof name === 'number' ? String(name) : 'unnamed';
};
const names = (list: Json[]): string =>
  list.slice(0, 10).map(nameOf).join(', ') + (list.length > 10 ? ', …' : '');
const counted = (list: Json[], one: string, many: string): string =>
  list.length === 0 ? `No ${many}.` : `${list.length} ${list.length === 1 ? one : many}: ${names(list)}.`;

/** What a request (a job) is at now, and whom it waits for. */
export function jobSentence(job: Json): string {
  const data = (job.data ?? {}) as Json;
  const approval = data.approval as { stages?: Json[] } | undefined;
  const open = approval?.stages?.find((stage) => stage.status === 'pending');
  const who = ((open?.approvers ?? []) as Json[]).map((person) => String(person.name ?? person.id));
  const team = (data.displayName ?? (data.team as Json | undefined)?.displayName ?? '') as string;
  const head = `Request ${String(job.id)}${team ? ` for “${team}”` : ''} is ${String(job.status)}`;
  if (open && who.length > 0)
    return `${head}, waiting for approval by ${who.join(', ')} (${String(open.name)}).`;
  return job.failedReason ? `${head}: ${String(job.failedReason)}.` : `${head}.`;
}

/** The tools, each calling one API operation as the caller (docs/guides/agents.md lists them). */
export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'list_my_templates',
    title: 'My team templates',
    description:
      'The team templates the caller may use, with what each needs: approval (requireApproval, stages, approvers), ' +
      'naming conventions, sensitivity labels, owners and members required.',
    operationId: 'getMyCatalogTemplates',
    annotations: READ,
    summary: (body) => counted(items(body), 'template', 'templates'),
  },
  {
    name: 'preview_team_request',
    title: 'Preview a team request and find similar teams',
    description:
      'What a request would become (final name and description by the template’s conventions, what is wrong ' +
      'with the name) and the existing teams alike it that the caller may see. Makes nothing.',
    operationId: 'previewTeamProvisioning',
    annotations: READ,
    summary: (body) => {
      const preview = body as Json;
      const similar = (preview.similarTeams ?? []) as Json[];
      return `The team would be named “${String(preview.displayName ?? preview.name ?? '')}”. ${
        similar.length > 0 ? `Similar teams: ${names(similar)}.` : 'No similar team found.'
      }`;
    },
  },
  {
    name: 'search_teams',
    title: 'Search teams',
    description:
      'Teams the caller may see whose name is alike the search (their own, public and discoverable ones).',
    operationId: 'searchTeamDirectory',
    annotations: READ,
    summary: (body) => counted(items(body), 'team', 'teams'),
  },
  {
    name: 'request_team',
    title: 'Request a team',
    description:
      'Asks for a team from a template, as the caller. Validated first (template targeted to the caller, naming, ' +
      'people); a template with approval leaves the request waiting for its approvers, whom the answer names. ' +
      'Never makes a team around approval.',
    operationId: 'createTeamProvisioningJob',
    annotations: WRITE({}),
    summary: (body) => jobSentence(body as Json),
  },
  {
    name: 'list_my_requests',
    title: 'My requests',
    description: 'The caller’s own recent team and archive requests, newest first, with their state.',
    operationId: 'getMyJobs',
    annotations: READ,
    summary: (body) => {
      const jobs = items(body);
      return jobs.length === 0 ? 'No requests.' : jobs.slice(0, 5).map(jobSentence).join(' ');
    },
  },
  {
    name: 'get_request',
    title: 'A request’s state',
    description: 'One request (job) the caller may see: its state, approval stages and approvers.',
    operationId: 'getJob',
    annotations: READ,
    summary: (body) => jobSentence(body as Json),
  },
  {
    name: 'withdraw_request',
    title: 'Withdraw my request',
    description:
      'Withdraws the caller’s own request while it waits for approval; nothing is made. Needs the person’s confirmation.',
    operationId: 'withdrawTeamProvisioningJob',
    annotations: WRITE({ destructiveHint: true, openWorldHint: false }),
    confirm: (args) => `Withdraw request ${String(args.jobId)}? It cannot be undone.`,
    summary: (body) => jobSentence(body as Json),
  },
  {
    name: 'list_my_approvals',
    title: 'Approvals waiting for me',
    description:
      'The approval requests waiting for the caller’s decision, oldest first, each with its request.',
    operationId: 'getMyApprovals',
    annotations: READ,
    summary: (body) => {
      const pending = items(body);
      if (pending.length === 0) return 'No approval waits for you.';
      return `${pending.length} waiting: ${pending
        .slice(0, 10)
        .map((item) => `${String(item.id)} (${jobSentence(item.job as Json)})`)
        .join(' ')}`;
    },
  },
  {
    name: 'approve_request',
    title: 'Approve a team request',
    description:
      'Approves an approval request (its id from list_my_approvals) as the caller, who must be one of its ' +
      'approvers. Needs the person’s confirmation.',
    operationId: 'approveTeamCreation',
    annotations: WRITE({ destructiveHint: true }),
    confirm: (args) => `Approve the team request ${String(args.approvalRequestId)}?`,
    summary: (_body, args) => `Approved ${String(args.approvalRequestId)}.`,
  },
  {
    name: 'reject_request',
    title: 'Reject a team request',
    description:
      'Rejects an approval request as the caller, who must be one of its approvers. Needs the person’s confirmation.',
    operationId: 'rejectTeamCreation',
    annotations: WRITE({ destructiveHint: true }),
    confirm: (args) => `Reject the team request ${String(args.approvalRequestId)}? It cannot be undone.`,
    summary: (_body, args) => `Rejected ${String(args.approvalRequestId)}.`,
  },
  {
    name: 'get_team_lifecycle',
    title: 'A team’s lifecycle',
    description:
      'When a team the caller owns expires, whether it is inactive, and what renewing it would do.',
    operationId: 'getTeamLifecycle',
    annotations: READ,
    summary: (body) => `Lifecycle: ${JSON.stringify(body).slice(0, 300)}`,
  },
  {
    name: 'renew_team',
    title: 'Renew a team',
    description: 'Renews a team the caller owns for another lifecycle period.',
    operationId: 'renewTeamLifecycle',
    annotations: WRITE({ idempotentHint: true, openWorldHint: false }),
    summary: (_body, args) => `Renewed team ${String(args.teamId)}.`,
  },
  {
    name: 'preview_lifecycle',
    title: 'Teams expiring or inactive',
    description: 'For governance managers: the teams the lifecycle policy would find expiring or inactive.',
    operationId: 'previewLifecycle',
    annotations: READ,
    summary: (body) => `Lifecycle preview: ${JSON.stringify(body).slice(0, 300)}`,
  },
  {
    name: 'join_team',
    title: 'Ask to join a team',
    description:
      'Asks to join a team the caller may see: its owners decide, unless the team is public and its template ' +
      'allows joining directly.',
    operationId: 'createTeamJoinRequest',
    annotations: WRITE({}),
    summary: (body) => `Join request ${String((body as Json).id)} is ${String((body as Json).status)}.`,
  },
  {
    name: 'get_team_drift',
    title: 'A team’s drift from its template',
    description: 'How a team the caller owns differs from its template’s current version.',
    operationId: 'getTeamDrift',
    annotations: READ,
    summary: (body) => {
      const differences = ((body as Json).differences ?? []) as Json[];
      return differences.length === 0
        ? 'No drift.'
        : `${differences.length} difference(s) from the template.`;
    },
  },
  {
    name: 'apply_team_drift',
    title: 'Apply a team’s drift',
    description:
      'Brings a team the caller owns back to its template for the differences named. Needs the person’s confirmation.',
    operationId: 'applyTeamDrift',
    annotations: WRITE({ destructiveHint: true }),
    confirm: (args) =>
      `Change team ${String(args.teamId)} to match its template? Its current settings are overwritten.`,
    summary: (body) => jobSentence(body as Json),
  },
  {
    name: 'archive_team',
    title: 'Archive a team',
    description:
      'Archives a team the caller owns: kept read-only for reference, until unarchived. Needs the person’s confirmation.',
    operationId: 'archiveTeam',
    annotations: WRITE({ destructiveHint: true, idempotentHint: true }),
    confirm: (args) => `Archive team ${String(args.teamId)}?`,
    summary: (body) => jobSentence(body as Json),
  },
  {
    name: 'delete_team',
    title: 'Delete a team',
    description: 'Deletes a team the caller owns (with its group). Needs the person’s confirmation.',
    operationId: 'deleteTeam',
    annotations: WRITE({ destructiveHint: true, idempotentHint: true }),
    confirm: (args) => `Delete team ${String(args.teamId)} and its group?`,
    summary: (_body, args) => `Deleted team ${String(args.teamId)}.`,
  },
  {
    name: 'list_reports',
    title: 'Reports',
    description: 'For governance managers and admins: the reports Steward offers.',
    operationId: 'getReports',
    annotations: READ,
    summary: (body) => counted(Array.isArray(body) ? (body as Json[]) : [], 'report', 'reports'),
  },
  {
    name: 'get_report_url',
    title: 'Open a report',
    description: 'A short-lived URL (10 minutes) to view one report.',
    operationId: 'getReportUrl',
    annotations: { ...READ, idempotentHint: false },
    summary: (body) => `Report: ${String((body as Json).url ?? '')}`,
  },
  {
    name: 'search_audit',
    title: 'Search an audit trail',
    description:
      'For auditors and admins: a page of an audit trail’s records, newest first, between two dates.',
    operationId: 'getAuditTrailRecords',
    annotations: READ,
    summary: (body) => `${items(body).length} audit record(s).`,
  },
];
