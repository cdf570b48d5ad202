import { z } from 'zod';
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

/** `GET /lifecycle/governanceManagers`: who is told about teams nobody owns. */
export const GovernanceManagers = model(
  'GovernanceManagers',
  z.object({
    listed: z
      .boolean()
      .describe(
        'False where the directory cannot list role holders (Entra ID: roles live in each token), so `value` is empty.',
      ),
    value: z.array(User),
  }),
  'The people who hold GOVERNANCE_MANAGER (an extension).',
);
export type GovernanceManagers = z.output<typeof GovernanceManagers>;
