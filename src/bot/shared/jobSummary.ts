import type { Job, JobStatus, JobStep } from '../../client';
import { type NameTranslations, nameTranslationsOf } from './templateTexts';

/** What a request does: make a team, or archive or unarchive one. */
export type JobKind = 'provisioning' | 'archive' | 'unarchive';

/** What the cards need from a job, read defensively from its free-form `data`. */
export interface JobSummary {
  jobId: string;
  kind: JobKind;
  status: JobStatus;
  progress: number;
  /** The job's steps and where each stands, as the job reports them. */
  steps: readonly JobStep[];
  /** The final team name (after the naming convention, and after an approver's rename). */
  teamName: string;
  /** The name the requester typed, before the template's convention; null when unknown. */
  requestedName: string | null;
  /** The template's own name, as the request recorded it ('' when unknown). */
  templateName: string;
  /** Its name in other languages, as the request recorded it: each card shows its reader's. */
  templateTranslations?: NameTranslations;
  requesterName: string;
  /** The created team's link, once known; null before. */
  webUrl: string | null;
  failedReason: string | null;
  approval: {
    id: string;
    status: 'pending' | 'approved' | 'rejected' | 'withdrawn';
    approverNames: string[];
    /** How the stage waiting is settled: by any one of its approvers, or by each of them. */
    mode: 'any' | 'all';
    /** Who decided (their display name), once someone has. */
    decidedBy: string | null;
    /** The approver's words, when they wrote any. */
    message: string | null;
    /** With a staged policy: the stage waiting for a decision (or the last one), and how many there are. */
    stage: { number: number; count: number; name: string } | null;
    /** Nobody decided on this stage in time, so the request expired (after `days`, when known). */
    expired: { stage: string; days: number | null } | null;
    /** With a staged policy: every stage in order, and who decides it (as the request resolved them). */
    stages?: readonly StageSummary[];
  } | null;
  createdDateTime: string;
  lastModifiedDateTime: string;
  log: readonly string[];
}

/** One stage of a request's approval: its name, how it is settled and its approvers' names. */
export interface StageSummary {
  name: string;
  mode: 'any' | 'all';
  approverNames: string[];
}

type Json = Record<string, unknown>;

const objectAt = (value: unknown, key: string): Json | undefined => {
  const inner = value && typeof value === 'object' ? (value as Json)[key] : undefined;
  return inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Json) : undefined;
};

const stringAt = (value: Json | undefined, key: string): string | undefined => {
  const inner = value?.[key];
  return typeof inner === 'string' && inner.trim() !== '' ? inner : undefined;
};

const namesAt = (value: Json | undefined, key: string): string[] => {
  const list = value?.[key];
  if (!Array.isArray(list)) return [];
  return list
    .map((item: unknown) => {
      const member = item && typeof item === 'object' ? (item as Json) : {};
      return stringAt(member, 'name') ?? stringAt(member, 'displayName') ?? stringAt(member, 'id');
    })
    .filter((name): name is string => name !== undefined);
};

/** The display name of the approver with `id`, from the approval's approvers. */
const nameOf = (approval: Json | undefined, id: string): string | undefined => {
  const list = approval?.approvers;
  const match = Array.isArray(list)
    ? list.find((item: unknown) => item && typeof item === 'object' && (item as Json).id === id)
    : undefined;
  return stringAt(match as Json | undefined, 'name') ?? stringAt(match as Json | undefined, 'displayName');
};

/** The stage nobody decided on in time, when the request expired. */
function expiredStage(approval: Json | undefined): { stage: string; days: number | null } | null {
  const stages = Array.isArray(approval?.stages) ? (approval.stages as unknown[]) : [];
  const stage = stages.find(
    (s): s is Json => !!s && typeof s === 'object' && (s as Json).status === 'expired',
  );
  if (!stage) return null;
  const days = objectAt(approval, 'timers')?.expireAfterDays;
  return { stage: stringAt(stage, 'name') ?? '', days: typeof days === 'number' ? days : null };
}

/** Where the approval `id` names stands among the approval's stages, when it has more than one. */
function stageAt(
  approval: Json | undefined,
  id: string,
): { number: number; count: number; name: string } | null {
  const stages = Array.isArray(approval?.stages) ? (approval.stages as unknown[]) : [];
  const index = stages.findIndex((s) => s && typeof s === 'object' && (s as Json).id === id);
  if (stages.length < 2 || index < 0) return null;
  return { number: index + 1, count: stages.length, name: stringAt(stages[index] as Json, 'name') ?? '' };
}

/** Every stage of the approval, when it has more than one (a single one is the approval itself). */
function stagesOf(approval: Json | undefined): StageSummary[] {
  const stages = Array.isArray(approval?.stages) ? (approval.stages as unknown[]) : [];
  if (stages.length < 2) return [];
  return stages.map((item) => {
    const stage = item && typeof item === 'object' ? (item as Json) : {};
    return {
      name: stringAt(stage, 'name') ?? '',
      mode: stage.decision === 'all' ? 'all' : 'any',
      approverNames: namesAt(stage, 'approvers'),
    };
  });
}

/** How the stage `id` names is settled: `all` when each approver must approve, else `any`. */
function modeAt(approval: Json | undefined, id: string): 'any' | 'all' {
  const stages = Array.isArray(approval?.stages) ? (approval.stages as unknown[]) : [];
  const stage = stages.find((s) => s && typeof s === 'object' && (s as Json).id === id) as Json | undefined;
  return stage?.decision === 'all' ? 'all' : 'any';
}

/** The card-relevant facts of a provisioning, archive or unarchive job (`GET /jobs/{id}`). */
export function summarizeJob(job: Job): JobSummary {
  const data = job.data;
  const plan = objectAt(data, 'plan');
  const team = objectAt(data, 'team');
  const template = objectAt(data, 'template');
  const requester = objectAt(data, 'requester');
  const requestedTeam = objectAt(objectAt(data, 'request'), 'team');
  const approval = objectAt(data, 'approval');
  const approvalId = stringAt(approval, 'id');
  const approvalStatus = stringAt(approval, 'status');
  const action = stringAt(data, 'action');
  const decider = objectAt(approval, 'approver');
  const deciderId = stringAt(decider, 'id');
  return {
    jobId: job.id,
    kind:
      job.type === 'TeamArchiveRequest' ? (action === 'unarchive' ? 'unarchive' : 'archive') : 'provisioning',
    status: job.status,
    progress: Math.min(100, Math.max(0, Math.round(job.progress))),
    steps: Array.isArray(job.steps) ? job.steps : [],
    teamName:
      stringAt(plan, 'displayName') ??
      stringAt(team, 'displayName') ??
      stringAt(requestedTeam, 'name') ??
      'Untitled team',
    requestedName: stringAt(requestedTeam, 'name') ?? null,
    templateName: stringAt(template, 'name') ?? '',
    templateTranslations: nameTranslationsOf(template),
    requesterName: stringAt(requester, 'displayName') ?? stringAt(requester, 'id') ?? '',
    webUrl: stringAt(team, 'webUrl') ?? null,
    failedReason: job.failedReason?.trim() ? job.failedReason : null,
    approval:
      approvalId !== undefined
        ? {
            id: approvalId,
            status:
              approvalStatus === 'approved' || approvalStatus === 'rejected' || approvalStatus === 'withdrawn'
                ? approvalStatus
                : 'pending',
            approverNames: namesAt(approval, 'approvers'),
            mode: modeAt(approval, approvalId),
            decidedBy: deciderId ? (nameOf(approval, deciderId) ?? 'an approver') : null,
            message: stringAt(decider, 'message')?.trim() ?? null,
            stage: stageAt(approval, approvalId),
            expired: expiredStage(approval),
            stages: stagesOf(approval),
          }
        : null,
    createdDateTime: job.createdDateTime,
    lastModifiedDateTime: job.lastModifiedDateTime,
    log: job.log,
  };
}
