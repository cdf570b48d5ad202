import type { Job } from '../../client';
import type { ApprovalCardData, Approver } from './approvalCard';
import type { ApprovalDecidedCardData } from './approvalDecidedCard';
import { summarizeJob } from '../shared/jobSummary';
import type { ApprovalRecord } from './approvalState';
import { stageDecision, stageNotes, stageOf } from './approvalStages';
import type { TeamPeople } from '../shared/peopleNames';

type Json = Record<string, unknown>;

const object = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const people = (value: unknown): Array<{ id: string; name: string }> =>
  (Array.isArray(value) ? value : [])
    .map((item) => object(item))
    .map((item) => ({ id: text(item.id), name: text(item.name) || text(item.displayName) || text(item.id) }))
    .filter((person) => person.id !== '');

/** The approvers of a job's approval request (of its stage `approvalId`), by object id and display name. */
export function approversOf(job: Job, approvalId?: string): Array<{ id: string; name: string }> {
  const stage = stageOf(job, approvalId);
  if (stage) return stage.approvers;
  const data = object(job.data);
  const fromApproval = people(object(data.approval).approvers);
  return fromApproval.length > 0 ? fromApproval : people(object(data.template).approvers);
}

/** The decision a job records for its approval (for its stage `approvalId`), once there is one. */
export function decisionOf(job: Job, approvalId?: string): ApprovalRecord['decision'] {
  const stage = stageOf(job, approvalId);
  if (stage?.status === 'withdrawn') {
    // Nobody decided: the requester took the request back (their name, for the approvers' cards).
    const withdrawn = object(object(object(job.data).approval).withdrawn);
    const by = text(object(withdrawn.by).name) || summarizeJob(job).requesterName;
    return {
      outcome: 'rejected',
      by,
      at: text(withdrawn.time) || (stage.time ?? ''),
      message: null,
      withdrawn: true,
    };
  }
  if (stage) return stageDecision(stage);
  const approval = object(object(job.data).approval);
  const status = text(approval.status);
  if (status !== 'approved' && status !== 'rejected') return null;
  const approver = object(approval.approver);
  const id = text(approver.id);
  // No name: the cards say "an approver" in their reader's language.
  const name = approversOf(job).find((person) => person.id === id)?.name ?? '';
  return {
    outcome: status,
    by: name,
    at: job.lastModifiedDateTime,
    message: text(approver.message) || null,
  };
}

/** The team's final name and the name as requested (or amended by an approver), as the job has them now. */
export function teamNames(job: Job): { teamName: string; requestedName: string } {
  const teamName = summarizeJob(job).teamName;
  return { teamName, requestedName: text(object(object(object(job.data).request).team).name) || teamName };
}

/**
 * What an approver's card shows, read from the job (`GET /jobs/{id}`): the final name and the name
 * typed, the template, the requester, the owners and members by name (the requester and the
 * template's permanent people included); `teamsUserIds` are the approvers' Teams ids the bot
 * knows, for the card's automatic refresh.
 */
export function approvalCardData(
  job: Job,
  teamsUserIds: ReadonlyMap<string, string>,
  people: TeamPeople,
  approvalId?: string,
): ApprovalCardData {
  const data = object(job.data);
  const summary = summarizeJob(job);
  const requester = object(data.requester);
  const team = object(object(data.request).team);
  const plan = object(data.plan);
  const approvers: Approver[] = approversOf(job, approvalId).map((person) => ({
    name: person.name,
    teamsUserId: teamsUserIds.get(person.id) || null,
  }));
  return {
    approvalId: approvalId ?? text(object(data.approval).id),
    teamName: summary.teamName,
    requestedName: text(team.name) || summary.teamName,
    // Missing names stay empty: each card says "Team request" or "Someone" in its reader's language.
    template: {
      name: summary.templateName,
      ...(summary.templateTranslations ? { translations: summary.templateTranslations } : {}),
      pictureUrl: null,
    },
    requester: { name: summary.requesterName, mail: text(requester.mail) || null },
    approvers,
    mode: stageOf(job, approvalId ?? text(object(data.approval).id))?.decision ?? 'any',
    description: text(plan.description) || text(team.description),
    requestedAt: job.createdDateTime,
    privacy: plan.visibility === 'public' ? 'public' : 'private',
    owners: people.owners,
    members: people.members,
    stageNotes: approvalId ? stageNotes(job, approvalId) : [],
  };
}

/** The decided card's data: the request and its decision. */
export function decidedCardData(
  request: ApprovalCardData,
  decision: NonNullable<ApprovalRecord['decision']>,
): ApprovalDecidedCardData {
  return {
    ...request,
    outcome: decision.outcome,
    decidedBy: decision.by,
    decidedAt: decision.at,
    message: decision.message,
    ...(decision.expired ? { expired: true } : {}),
    ...(decision.withdrawn ? { withdrawn: true } : {}),
  };
}
