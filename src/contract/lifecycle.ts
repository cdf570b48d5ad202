import { z } from 'zod';
import { Flag, model } from './registry';

const days = (max: number) => z.number().int().min(1).max(max);

/** When a team expires unless its owners renew it, and what happens then. */
export const LifecycleExpiration = model(
  'LifecycleExpiration',
  z.strictObject({
    enabled: Flag.default(false),
    days: days(3660)
      .default(365)
      .describe('A team expires this many days after its creation or its last renewal.'),
    renewalNoticeDays: z
      .array(days(3660))
      .max(5)
      .default([30, 7])
      .describe('Owners are told this many days before the team expires (each notice once).'),
    onExpiry: z
      .enum(['archive', 'delete', 'none'])
      .default('archive')
      .describe('What happens to a team nobody renewed: archived, deleted, or only reported.'),
  }),
);
export type LifecycleExpiration = z.output<typeof LifecycleExpiration>;

/** What happens to a team nobody used for a while. */
export const LifecycleInactivity = model(
  'LifecycleInactivity',
  z.strictObject({
    enabled: Flag.default(false),
    days: days(3660).default(90).describe('A team with no activity for this many days is inactive.'),
    onInactive: z
      .enum(['notify', 'archive'])
      .default('notify')
      .describe('`notify`: its owners are told; `archive`: it is archived.'),
  }),
);
export type LifecycleInactivity = z.output<typeof LifecycleInactivity>;

/** How many owners a team needs, and who is asked when it has fewer. */
export const LifecycleOwnership = model(
  'LifecycleOwnership',
  z.strictObject({
    minimumOwners: z.number().int().min(0).max(100).default(1),
    onOwnerless: z
      .enum(['askMembers', 'notifyGovernance'])
      .default('notifyGovernance')
      .describe(
        '`askMembers`: members are asked to step up; `notifyGovernance`: governance managers are told.',
      ),
    askMembersDays: days(365)
      .default(7)
      .describe(
        'With `askMembers`: governance managers are told when the team is still short of owners this many ' +
          'days after its members were asked (once per spell without enough owners).',
      ),
  }),
);
export type LifecycleOwnership = z.output<typeof LifecycleOwnership>;

/** How often a team's owners review its guests. */
export const LifecycleGuestReview = model(
  'LifecycleGuestReview',
  z.strictObject({
    enabled: Flag.default(false),
    everyDays: days(3660).default(90),
  }),
);
export type LifecycleGuestReview = z.output<typeof LifecycleGuestReview>;

/**
 * A lifecycle policy: a template's (`templateConfiguration.lifecycle`) for the teams made from it,
 * the tenant's default (`PUT /lifecycle/policy`) for every other team.
 */
export const LifecyclePolicy = model(
  'LifecyclePolicy',
  z.strictObject({
    expiration: LifecycleExpiration.default({
      enabled: false,
      days: 365,
      renewalNoticeDays: [30, 7],
      onExpiry: 'archive',
    }),
    inactivity: LifecycleInactivity.default({ enabled: false, days: 90, onInactive: 'notify' }),
    ownership: LifecycleOwnership.default({
      minimumOwners: 1,
      onOwnerless: 'notifyGovernance',
      askMembersDays: 7,
    }),
    guestReview: LifecycleGuestReview.default({ enabled: false, everyDays: 90 }),
  }),
  'A lifecycle policy (an extension): expiry and renewal, inactivity, ownership, guest reviews.',
);
export type LifecyclePolicy = z.output<typeof LifecyclePolicy>;
export type LifecyclePolicyInput = z.input<typeof LifecyclePolicy>;

/** What the evaluator does (or would do) about a team. */
export const LifecycleActionKind = z.enum([
  'renewalNotice',
  'expire',
  'inactivityNotice',
  'inactivityArchive',
  'ownerless',
  'guestReview',
  'restoreOwners',
]);
export type LifecycleActionKind = z.output<typeof LifecycleActionKind>;

/** One decision about one team. */
export const LifecycleAction = model(
  'LifecycleAction',
  z.object({
    teamId: z.string(),
    displayName: z.string(),
    action: LifecycleActionKind,
    reason: z.string().describe('Why, for people.'),
    dueOn: z.string().describe('The date (YYYY-MM-DD) the action is due on.'),
    outcome: z
      .enum(['archive', 'delete', 'none', 'notify', 'askMembers', 'notifyGovernance'])
      .optional()
      .describe(
        'For `expire`, `ownerless`: what the policy does about it. An `ownerless` team whose members were ' +
          'asked (`askMembers`) and none stepped up within `askMembersDays` gets a second `ownerless` ' +
          'action with `notifyGovernance`.',
      ),
  }),
);
export type LifecycleAction = z.output<typeof LifecycleAction>;

/** `GET /lifecycle/preview`: what an evaluation on `asOf` would do. */
export const LifecyclePreview = model(
  'LifecyclePreview',
  z.object({
    asOf: z.string(),
    teamsEvaluated: z.number().int().nonnegative(),
    '@odata.count': z.number().int().nonnegative().describe('How many actions in all.'),
    truncated: z.boolean().describe('True when `value` holds only the first `top` actions.'),
    value: z.array(LifecycleAction),
  }),
  'What the lifecycle evaluator would do on a date, writing nothing (an extension).',
);
export type LifecyclePreview = z.output<typeof LifecyclePreview>;

export const TeamLifecycleState = z.enum([
  'active',
  'expiring',
  'expired',
  'inactive',
  'ownerless',
  'archived',
]);
export type TeamLifecycleState = z.output<typeof TeamLifecycleState>;

/** `GET /teams/{teamId}/lifecycle`. */
export const TeamLifecycle = model(
  'TeamLifecycle',
  z.object({
    teamId: z.string(),
    displayName: z.string(),
    policySource: z
      .enum(['template', 'tenant'])
      .describe("Whose policy applies: the team's template's, or the tenant default."),
    templateId: z.string().nullable(),
    policy: LifecyclePolicy,
    state: TeamLifecycleState,
    createdDateTime: z.string(),
    expiresOn: z.string().nullable().describe('YYYY-MM-DD; null when expiration is off.'),
    lastActivityDateTime: z
      .string()
      .nullable()
      .describe("The day (YYYY-MM-DD) of the team's last activity: Graph's activity report counts in days."),
    renewals: z.number().int().nonnegative(),
    lastRenewedDateTime: z.string().nullable(),
    ownerCount: z.number().int().nonnegative(),
    guestCount: z.number().int().nonnegative(),
    pendingActions: z.array(LifecycleAction).describe('What the next evaluation would do about the team.'),
  }),
  "A team's lifecycle: its resolved policy and where it stands (an extension).",
);
export type TeamLifecycle = z.output<typeof TeamLifecycle>;

/** `POST /teams/{teamId}/lifecycle/renew`. */
export const LifecycleRenewal = model(
  'LifecycleRenewal',
  z.object({
    teamId: z.string(),
    expiresOn: z.string().describe("The new expiry date (YYYY-MM-DD): today plus the policy's days."),
    renewals: z.number().int().positive(),
    renewedOn: z.string(),
  }),
  'A team renewed (an extension).',
);
export type LifecycleRenewal = z.output<typeof LifecycleRenewal>;
