import { z } from 'zod';
import { Flag, model, multiLine } from './registry';

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
      .strictObject({ kind: z.literal('rule'), rule: multiLine(z.string().trim().min(1).max(2000)) })
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
      .describe(
        "After this long undecided, the escalation team is added to the stage's approvers. With " +
          'Microsoft Graph, a policy that sets it must name its `escalationTeam` (400 `escalationTeamRequired`).',
      ),
    escalationTeam: z
      .array(ApprovalTeamMember)
      .max(50)
      .optional()
      .describe(
        'Who escalations reach; also takes a stage that resolves to nobody. Default: the governance ' +
          'managers, on the embedded platform only. With Microsoft Graph their role is in their tokens ' +
          'and cannot be listed, so a policy with `escalateAfterHours` must name this team, or it is ' +
          'refused with 400 `escalationTeamRequired`.',
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

const StagePerson = z.object({ id: z.string(), name: z.string().optional() });

/** Where one stage of a request's approval stands (a Job's `data.approval.stages[]`). */
export const ApprovalStageProgress = model(
  'ApprovalStageProgress',
  z.object({
    id: z.string().describe("The stage's approval request id (`approveTeamCreation` takes it)."),
    name: z.string(),
    decision: z.enum(['any', 'all']),
    approvers: z.array(StagePerson),
    status: z
      .enum(['upcoming', 'pending', 'approved', 'rejected', 'expired', 'withdrawn'])
      .describe(
        '`upcoming` until the stages before it are approved; `pending` while it waits for a decision; ' +
          '`withdrawn` when the requester withdrew the request before it was decided (an extension).',
      ),
    decider: StagePerson.nullable().describe('Who settled the stage (null while open, and when it expired).'),
    comment: z.string().nullable().describe("The decider's comment; `expired` when nobody decided in time."),
    time: z.string().nullable().describe('When the stage was settled.'),
    votes: z
      .array(
        z.object({
          id: z.string(),
          name: z.string().optional(),
          status: z.enum(['approved', 'rejected']),
          comment: z.string().nullable(),
          time: z.string(),
        }),
      )
      .optional()
      .describe('Each decision on a `decision: all` stage.'),
    escalated: z
      .enum(['empty', 'late'])
      .optional()
      .describe(
        'Why the escalation team has the stage: it named nobody (`empty`), or nobody decided in time (`late`).',
      ),
    remindedAt: z.string().optional().describe('When the undecided approvers were reminded.'),
  }),
);
export type ApprovalStageProgress = z.output<typeof ApprovalStageProgress>;

/** A request's approval as its Job shows it (`data.approval`). */
export const JobApproval = model(
  'JobApproval',
  z.looseObject({
    id: z
      .string()
      .describe('The approval request of the stage waiting for a decision (the last one once decided).'),
    status: z
      .string()
      .describe(
        '`pending` until the last stage is approved (`approved`) or one is rejected (`rejected`); ' +
          '`withdrawn` once the requester withdrew the request (an extension).',
      ),
    approvers: z.array(StagePerson).describe("That stage's approvers."),
    approver: z.object({ id: z.string(), message: z.string().nullable() }).optional(),
    stages: z.array(ApprovalStageProgress).optional().describe('Every stage, in order (additive).'),
  }),
);
