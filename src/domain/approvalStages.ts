import type { ApprovalPolicy, ApprovalStage, ApprovalStageProgress } from '../contract/approvalPolicy';

/**
 * Staged approvals as a request carries them: the stages of its template's policy, resolved to
 * people when the request is made, then decided in order. Pure rules; the services store them.
 */

/** The stages a policy runs: its `stages`, or its `approvalTeam` as a single stage (the older format). */
export function policyStages(policy: ApprovalPolicy): ApprovalStage[] {
  if (policy.stages && policy.stages.length > 0) return policy.stages;
  return [{ name: 'Approval', approvers: { kind: 'people', people: policy.approvalTeam }, decision: 'any' }];
}

export type StagePerson = ApprovalStageProgress['approvers'][number];

/** One approver's vote on an `all` stage. */
export type StageVote = NonNullable<ApprovalStageProgress['votes']>[number];

export type StageStatus = ApprovalStageProgress['status'];

/** A stage of one request (the Job's `data.approval.stages[]`); `id` is its approvalRequestId. */
export type StageState = ApprovalStageProgress;

/** The timers of a policy, copied into each request so a later template change does not move them. */
export interface StageTimers {
  reminderAfterHours?: number;
  escalateAfterHours?: number;
  expireAfterDays?: number;
}

/** Where an approval stands: the stage waiting for a decision, its place, how many there are. */
export function currentStage(
  stages: readonly StageState[],
): { stage: StageState; index: number } | undefined {
  const index = stages.findIndex((s) => s.status === 'pending');
  return index < 0 ? undefined : { stage: stages[index]!, index };
}

/** What a vote does to a stage: settles it (approved or rejected) or leaves it open for the others. */
export function applyVote(
  stage: StageState,
  vote: StageVote,
): { stage: StageState; outcome: 'approved' | 'rejected' | 'open' } {
  const decided = (status: 'approved' | 'rejected', votes?: StageVote[]) => ({
    stage: {
      ...stage,
      status,
      decider: { id: vote.id, ...(vote.name ? { name: vote.name } : {}) },
      comment: vote.comment,
      time: vote.time,
      ...(votes ? { votes } : {}),
    },
    outcome: status,
  });
  if (stage.decision === 'any') return decided(vote.status);
  const votes = [...(stage.votes ?? []).filter((v) => v.id !== vote.id), vote];
  if (vote.status === 'rejected') return decided('rejected', votes);
  const approvedBy = new Set(votes.filter((v) => v.status === 'approved').map((v) => v.id));
  if (stage.approvers.every((a) => approvedBy.has(a.id))) return decided('approved', votes);
  return { stage: { ...stage, votes }, outcome: 'open' };
}

/** Who has not decided yet on a stage. */
export function undecided(stage: StageState): StagePerson[] {
  const voted = new Set((stage.votes ?? []).map((v) => v.id));
  return stage.approvers.filter((a) => !voted.has(a.id));
}

/** Milliseconds until a timer of a stage opened at `openedAt`, from the policy's hours or days. */
export function timerDue(openedAt: Date, timers: StageTimers): Partial<Record<TimerKind, number>> {
  const due: Partial<Record<TimerKind, number>> = {};
  const hour = 3_600_000;
  if (timers.reminderAfterHours) due.reminder = openedAt.getTime() + timers.reminderAfterHours * hour;
  if (timers.escalateAfterHours) due.escalation = openedAt.getTime() + timers.escalateAfterHours * hour;
  if (timers.expireAfterDays) due.expiry = openedAt.getTime() + timers.expireAfterDays * 24 * hour;
  return due;
}

export type TimerKind = 'reminder' | 'escalation' | 'expiry';

/** The stage an approval request id names, with its place. */
export function stageById(
  stages: readonly StageState[],
  id: string,
): { stage: StageState; index: number } | undefined {
  const index = stages.findIndex((s) => s.id === id);
  return index < 0 ? undefined : { stage: stages[index]!, index };
}
