import { z } from 'zod';
import { Flag, model } from './registry';

/** A person named in an approval policy; `id` may be an object id, a UPN or a mail on input. */
export const ApprovalTeamMember = model(
  'ApprovalTeamMember',
  z.strictObject({ id: z.string().trim().min(1).max(320), name: z.string().max(256).optional() }),
);
export type ApprovalTeamMember = z.output<typeof ApprovalTeamMember>;

/** Who decides a stage: the requester's manager, named people, or a rule over the requester and the request. */
export const ApprovalStageApprovers = model(
  'ApprovalStageApprovers',
  z.discriminatedUnion('kind', [
    z
      .strictObject({ kind: z.literal('manager') })
      .describe("The requester's manager in the directory (Graph's `/users/{id}/manager`)."),
    z
      .strictObject({ kind: z.literal('people'), people: z.array(ApprovalTeamMember).max(50).default([]) })
      .describe('Named people (object ids, UPNs or mails).'),
    z
      .strictObject({ kind: z.literal('rule'), rule: z.string().trim().min(1).max(2000) })
      .describe(
        'An expression in the audience-rule language, evaluated with `user` (the requester) and ' +
          '`request` (team, template, requester), returning an id, UPN or mail, or an array of them.',
      ),
  ]),
);
export type ApprovalStageApprovers = z.output<typeof ApprovalStageApprovers>;

/** One stage of an approval policy; stages run in order, each its own approval request. */
export const ApprovalStage = model(
  'ApprovalStage',
  z.strictObject({
    name: z.string().trim().min(1).max(128),
    approvers: ApprovalStageApprovers,
    decision: z
      .enum(['any', 'all'])
      .default('any')
      .describe('`any`: the first decision settles the stage; `all`: every approver must approve.'),
  }),
);
export type ApprovalStage = z.output<typeof ApprovalStage>;

const hours = z
  .number()
  .positive()
  .max(24 * 366);

/**
 * A template's approval policy. Without `stages`, `approvalTeam` is a single stage (the
 * long-standing format); with them, `approvalTeam` is not used.
 */
export const ApprovalPolicy = model(
  'ApprovalPolicy',
  z.strictObject({
    requireApproval: Flag.default(false),
    approvalTeam: z.array(ApprovalTeamMember).max(50).default([]),
    allowSelfApproval: Flag.default(false).describe(
      'Whether a requester who is in the approval team may decide on their own request. ' +
        'By default (false) they may not (403 `selfApprovalNotAllowed`) and the other approvers decide.',
    ),
    stages: z.array(ApprovalStage).min(1).max(10).optional(),
    reminderAfterHours: hours
      .optional()
      .describe('Undecided approvers of a stage are reminded once after this long.'),
    escalateAfterHours: hours
      .optional()
      .describe("After this long undecided, the escalation team is added to the stage's approvers."),
    escalationTeam: z
      .array(ApprovalTeamMember)
      .max(50)
      .optional()
      .describe(
        'Who escalations reach (default: the governance managers); also takes a stage that resolves to nobody.',
      ),
    expireAfterDays: z
      .number()
      .positive()
      .max(366)
      .optional()
      .describe('After this long undecided, the request is rejected with the reason "expired".'),
  }),
);
export type ApprovalPolicy = z.output<typeof ApprovalPolicy>;
