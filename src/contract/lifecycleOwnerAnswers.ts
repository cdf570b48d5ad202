import { z } from 'zod';
import { model } from './registry';

/** `POST /teams/{teamId}/lifecycle/activity`: an owner says the team is still in use ("Keep it"). */
export const LifecycleActivity = model(
  'LifecycleActivity',
  z.object({
    teamId: z.string(),
    lastActivityDate: z.string().describe('The day (YYYY-MM-DD) the team now counts as last active: today.'),
  }),
  'Activity recorded for a team, so the next evaluation sees it active (an extension).',
);
export type LifecycleActivity = z.output<typeof LifecycleActivity>;

/** Which notice an owner answered "I'm not the right person" on. */
export const LifecycleNotice = z.enum(['renewal', 'inactivity']);
export type LifecycleNotice = z.output<typeof LifecycleNotice>;

/** The body of `POST /teams/{teamId}/lifecycle/notRightPerson`. */
export const NotRightPersonRequest = model(
  'NotRightPersonRequest',
  z.strictObject({
    notice: LifecycleNotice.default('renewal').describe('The notice the owner answered.'),
  }),
  'An owner saying someone else should answer for the team (an extension).',
);
export type NotRightPersonRequest = z.output<typeof NotRightPersonRequest>;

/** `POST /teams/{teamId}/lifecycle/notRightPerson`: what was recorded. */
export const NotRightPersonAnswer = model(
  'NotRightPersonAnswer',
  z.object({
    teamId: z.string(),
    notice: LifecycleNotice,
    recordedDateTime: z.string(),
    otherOwnerCount: z
      .number()
      .int()
      .nonnegative()
      .describe('The team’s other owners, who can still answer the notice.'),
  }),
  'An owner’s "not the right person", recorded in the lifecycle trail (an extension).',
);
export type NotRightPersonAnswer = z.output<typeof NotRightPersonAnswer>;
