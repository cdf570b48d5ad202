import { randomUUID } from 'node:crypto';
import type { ApprovalStage, ApprovalPolicy } from '../../contract';
import {
  policyStages,
  type StagePerson,
  type StageState,
  type StageTimers,
} from '../../domain/approvalStages';
import type { ErrorDetail } from '../../domain/errors';
import { compileRule, RuleEvaluationError, RuleSyntaxError } from '../../domain/rules';
import type { DirectoryService, RuleSubject } from '../directory/directory';

/** The approval a request carries from the moment it is made: its stages resolved to people. */
export interface PlannedApproval {
  stages: StageState[];
  allowSelfApproval: boolean;
  timers: StageTimers;
  /** The policy's own escalation team, when it names one (else escalations reach the governance managers). */
  escalationTeam?: StagePerson[];
}

/** What a stage's rule sees: the requester as `user`, and the request. */
export interface StageRuleScope {
  user: RuleSubject['user'];
  request: {
    team: { name: string; description: string; welcomeMessage: string };
    template: { id: string; name: string };
    requester: { id: string; name: string; email: string };
  };
}

/**
 * Resolves every stage of `policy` to its approvers now, so a request is refused at once (a 400
 * naming the stage) when a stage has nobody to decide it, rather than stuck later. The requester
 * is never an approver of their own request unless the policy allows self-approval; a stage left
 * with nobody goes to the escalation team when the policy has one.
 */
export async function planApproval(
  directory: DirectoryService,
  policy: ApprovalPolicy,
  requesterId: string,
  scope: StageRuleScope,
  details: ErrorDetail[],
): Promise<PlannedApproval | undefined> {
  if (!policy.requireApproval) return undefined;
  const definitions = policyStages(policy);
  const staged = policy.stages !== undefined && policy.stages.length > 0;
  const allowed = (people: StagePerson[]) =>
    policy.allowSelfApproval ? people : people.filter((p) => p.id !== requesterId);
  const escalationTeam = policy.escalationTeam?.length
    ? await resolvePeople(
        directory,
        policy.escalationTeam.map((p) => p.id),
      )
    : undefined;
  const stages: StageState[] = [];
  for (const [index, definition] of definitions.entries()) {
    const target = staged ? `template.approval.stages[${index}]` : 'template.id';
    const found = await stageApprovers(directory, definition, requesterId, scope, target, details);
    if (!found) continue;
    let approvers = allowed(found.people);
    let escalated: StageState['escalated'];
    if (approvers.length === 0 && escalationTeam && allowed(escalationTeam).length > 0) {
      approvers = allowed(escalationTeam);
      escalated = 'empty';
    }
    if (approvers.length === 0) {
      details.push(emptyStage(definition, staged, found.people.length > 0, target));
      continue;
    }
    stages.push({
      id: randomUUID(),
      name: definition.name,
      decision: definition.decision,
      approvers,
      status: stages.length === 0 ? 'pending' : 'upcoming',
      decider: null,
      comment: null,
      time: null,
      ...(escalated ? { escalated } : {}),
    });
  }
  const timers: StageTimers = {
    ...(policy.reminderAfterHours ? { reminderAfterHours: policy.reminderAfterHours } : {}),
    ...(policy.escalateAfterHours ? { escalateAfterHours: policy.escalateAfterHours } : {}),
    ...(policy.expireAfterDays ? { expireAfterDays: policy.expireAfterDays } : {}),
  };
  return {
    stages,
    allowSelfApproval: policy.allowSelfApproval,
    timers,
    ...(escalationTeam ? { escalationTeam } : {}),
  };
}

/** The people a stage names before the requester is taken out; undefined (with a detail) when its rule fails. */
async function stageApprovers(
  directory: DirectoryService,
  stage: ApprovalStage,
  requesterId: string,
  scope: StageRuleScope,
  target: string,
  details: ErrorDetail[],
): Promise<{ people: StagePerson[] } | undefined> {
  const approvers = stage.approvers;
  if (approvers.kind === 'manager') {
    const manager = await directory.managerOf(requesterId);
    return { people: manager ? [{ id: manager.id, name: manager.displayName }] : [] };
  }
  if (approvers.kind === 'people') {
    return {
      people: await resolvePeople(
        directory,
        approvers.people.map((p) => p.id),
      ),
    };
  }
  const keys = evaluateStageRule(approvers.rule, scope);
  if (typeof keys === 'string') {
    details.push({
      code: 'approvalRuleFailed',
      target,
      message: `The approval stage "${stage.name}" could not choose its approvers: ${keys}`,
    });
    return undefined;
  }
  return { people: await resolvePeople(directory, keys) };
}

/**
 * Runs a stage's rule: a person key or an array of them; anything else is a message (a string)
 * saying what went wrong. The rule language never runs code (see `domain/rules`).
 */
export function evaluateStageRule(rule: string, scope: StageRuleScope): string[] | string {
  let value: unknown;
  try {
    value = compileRule(rule).evaluate(scope as unknown as Record<string, unknown>);
  } catch (error) {
    if (error instanceof RuleEvaluationError || error instanceof RuleSyntaxError) return error.message;
    throw error;
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.every((v): v is string => typeof v === 'string')) return list;
  return 'the rule must return an id, UPN or mail, or an array of them.';
}

/** The people among `keys` the directory knows, once each, with their names. */
async function resolvePeople(directory: DirectoryService, keys: readonly string[]): Promise<StagePerson[]> {
  const found = await directory.findPeople(keys);
  const unique = new Map<string, StagePerson>();
  for (const key of keys) {
    const user = found.get(key.trim());
    if (user) unique.set(user.id, { id: user.id, name: user.displayName });
  }
  return [...unique.values()];
}

function emptyStage(stage: ApprovalStage, staged: boolean, onlySelf: boolean, target: string): ErrorDetail {
  if (onlySelf) {
    const message = staged
      ? `You are the only approver of the approval stage "${stage.name}", and may not approve your own request.`
      : 'You are the only approver of this template, and may not approve your own request.';
    return { code: 'noOtherApprover', target, message };
  }
  const why =
    stage.approvers.kind === 'manager'
      ? 'you have no manager in the directory'
      : stage.approvers.kind === 'rule'
        ? 'its rule names nobody in the directory'
        : 'none of its approvers is in the directory';
  return {
    code: 'emptyApprovalStage',
    target,
    message: `The approval stage "${stage.name}" has nobody to decide on it: ${why}, and the template has no escalation team.`,
  };
}
