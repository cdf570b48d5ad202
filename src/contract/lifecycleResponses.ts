import { z } from 'zod';
import { GOVERNANCE_ROLES } from './roles';
import { User } from './directory';
import { model } from './registry';

const Person = z.object({ id: z.string(), displayName: z.string() });

/** `POST /teams/{teamId}/lifecycle/ownership`: a member stepped up as the owner of an ownerless team. */
export const OwnershipStepUp = model(
  'OwnershipStepUp',
  z.object({
    teamId: z.string(),
    displayName: z.string().describe('The team’s name.'),
    owner: Person.describe('Who becomes the owner: the caller.'),
    ownerlessSince: z
      .string()
      .describe(
        'The day (YYYY-MM-DD) the team was found short of owners: one step-up is taken per such day.',
      ),
    jobId: z.string().describe('The job that makes them an owner on the platform.'),
  }),
  'A member who stepped up as owner (an extension).',
);
export type OwnershipStepUp = z.output<typeof OwnershipStepUp>;

/** The body of `POST /teams/{teamId}/lifecycle/guestReview`: the guests to remove; every other guest is kept. */
export const GuestReviewInput = model(
  'GuestReviewInput',
  z.strictObject({
    remove: z
      .array(z.string().trim().min(1).max(320))
      .max(1000)
      .default([])
      .describe('User ids of the guests to remove; the team keeps every other guest.'),
  }),
);
export type GuestReviewInput = z.output<typeof GuestReviewInput>;

/** A guest review as recorded. */
export const GuestReview = model(
  'GuestReview',
  z.object({
    teamId: z.string(),
    reviewedOn: z.string().describe('The day of the review (YYYY-MM-DD).'),
    reviewedBy: Person,
    nextReviewOn: z
      .string()
      .nullable()
      .describe(
        'When the next review is due (YYYY-MM-DD): `everyDays` after this one; null without guest reviews.',
      ),
    kept: z.array(Person),
    removed: z.array(Person),
    jobId: z
      .string()
      .nullable()
      .describe('The job that removes the guests from the platform; null when nobody is removed.'),
  }),
  'A team’s guests reviewed by an owner (an extension).',
);
export type GuestReview = z.output<typeof GuestReview>;

/** A person with governance powers, and which governance roles they hold. */
export const GovernanceManager = model(
  'GovernanceManager',
  User.extend({
    roles: z
      .array(z.enum(GOVERNANCE_ROLES))
      .describe('The governance roles this person holds (a configured person: GOVERNANCE_MANAGER).'),
  }),
  'A person of the directory with governance powers (an extension).',
);

/** `GET /lifecycle/governanceManagers`: who is told about teams nobody owns. */
export const GovernanceManagers = model(
  'GovernanceManagers',
  z.object({
    listed: z
      .boolean()
      .describe(
        'False when nobody could be listed (`reason` says why: Microsoft Graph refused or failed, or no app registration to read roles from), so `value` is empty.',
      ),
    source: z
      .enum(['configuration', 'directory', 'appRoleAssignments'])
      .describe(
        'Where the list comes from: `STEWARD_GOVERNANCE_MANAGERS` (which takes precedence), the embedded directory, or the app-role assignments of Steward’s app registration in Entra ID (read through Microsoft Graph).',
      ),
    reason: z.string().optional().describe('Why nobody is listed, when `listed` is false.'),
    value: z
      .array(GovernanceManager)
      .describe(
        'People who hold GOVERNANCE_MANAGER, TEAMS_SERVICE_ADMIN or GLOBAL_ADMIN, in display-name order. The bot tells those with GOVERNANCE_MANAGER, or everyone listed when none has it.',
      ),
  }),
  'The governance managers and the admins with governance powers (an extension).',
);
export type GovernanceManagers = z.output<typeof GovernanceManagers>;
