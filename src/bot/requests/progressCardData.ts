import type { Job, JobStatus, JobWaitReason } from '../../client';
import { type JobKind, summarizeJob } from '../shared/jobSummary';
import { progressSteps, type ProgressStep } from './progressSteps';
import type { NameTranslations } from '../shared/templateTexts';

/** What the progress card shows for one request. */
export interface ProgressCardData {
  jobId: string;
  /** What the request does: a new team (the default), or an archive or unarchive of one. */
  kind?: JobKind;
  /** The final team name (after the naming convention). */
  teamName: string;
  templateName: string;
  /** The template's name in other languages, as the request recorded it. */
  templateTranslations?: NameTranslations;
  /** The template's picture; null for none. */
  pictureUrl: string | null;
  status: JobStatus;
  /** What the job waits for while Microsoft Teams works (`Job.waitingFor`); null when it does not wait. */
  waitingFor: JobWaitReason | null;
  /** 0–100. */
  progress: number;
  steps: readonly ProgressStep[];
  /** The job's log; the card shows the last `PROGRESS_LOG_LINES` (progressCard.ts). */
  log: readonly string[];
  /** The created team's link; the card offers "Open team" once it is known. */
  webUrl: string | null;
  /** Why the job failed (e.g. the approver's rejection); the card offers "Try again". */
  failedReason: string | null;
  /** ISO 8601 time of the job's last change. */
  updatedAt: string;
  approval: {
    status: 'pending' | 'approved' | 'rejected' | 'withdrawn';
    approverNames: readonly string[];
    /** Whether any one of the approvers settles the stage, or each of them must approve. */
    mode?: 'any' | 'all';
    /** The stage waiting, with a staged policy. */
    stage?: { number: number; count: number; name: string } | null;
    /** Nobody decided on `stage` in time (within `days`): the request expired. */
    expired?: { stage: string; days: number | null } | null;
  } | null;
  /** Who approved or rejected the request, and their words; null before a decision. */
  decision: { outcome: 'approved' | 'rejected'; by: string; message: string | null } | null;
  /** Approvers the bot could not reach in Teams (by name): the requester may want to tell them. */
  unreachableApprovers: readonly string[];
  /** Try again was pressed and its form posted: the card says so and offers it no more. */
  retried?: boolean;
  /** The requester pressed Withdraw: the card asks them to confirm. */
  confirmWithdraw?: boolean;
  /** Why the requester's action could not be taken, as a sentence. */
  problem?: string;
  /**
   * The team was made without its template's sensitivity label (Graph takes one only from a
   * person): its id, and whether the requester is one of its owners (who may apply it).
   */
  labelMissing?: { teamId: string; byOwner: boolean } | null;
  /** An owner applied the missing label since (the job's record still says it was missing). */
  labelApplied?: boolean;
}

/** The progress card's data for a job from `GET /jobs/{id}` (or a webhook's job), with the template's picture. */
export function progressCardData(
  job: Job,
  pictureUrl: string | null = null,
  unreachableApprovers: readonly string[] = [],
): ProgressCardData {
  const summary = summarizeJob(job);
  const approval = summary.approval;
  return {
    jobId: summary.jobId,
    kind: summary.kind,
    teamName: summary.teamName,
    templateName: summary.templateName,
    templateTranslations: summary.templateTranslations,
    pictureUrl,
    status: summary.status,
    waitingFor: job.waitingFor?.reason ?? null,
    progress: summary.progress,
    steps: progressSteps(summary),
    log: summary.log,
    webUrl: summary.webUrl,
    failedReason: summary.failedReason,
    updatedAt: summary.lastModifiedDateTime,
    approval,
    decision:
      approval && (approval.status === 'approved' || approval.status === 'rejected') && approval.decidedBy
        ? { outcome: approval.status, by: approval.decidedBy, message: approval.message }
        : null,
    unreachableApprovers: approval?.status === 'pending' ? unreachableApprovers : [],
    labelMissing: labelMissingOf(job),
  };
}

/** The team, when the job made it without its template's label; read loosely (the job's data is the API's). */
function labelMissingOf(job: Job): ProgressCardData['labelMissing'] {
  const data = job.data as {
    label?: { status?: unknown };
    team?: { id?: unknown };
    requester?: { id?: unknown };
    plan?: { members?: Array<{ id?: unknown; role?: unknown }> };
  };
  if (job.status !== 'completed' || data.label?.status !== 'missing' || typeof data.team?.id !== 'string')
    return null;
  const owners = (data.plan?.members ?? []).filter((m) => m.role === 'owner').map((m) => m.id);
  return { teamId: data.team.id, byOwner: owners.includes(data.requester?.id) };
}

/** Whether the request waits for approval, so its requester may withdraw it. */
export function isWithdrawable(data: Pick<ProgressCardData, 'status' | 'approval'>): boolean {
  return data.status === 'waiting' && data.approval?.status === 'pending';
}

/** Whether a card offers Try again: a failed team request whose form was not posted again yet. */
export function isRetryable(data: ProgressCardData): boolean {
  return data.status === 'failed' && (data.kind ?? 'provisioning') === 'provisioning' && !data.retried;
}
