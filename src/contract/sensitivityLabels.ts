import { z } from 'zod';
import { model } from './registry';

/**
 * What became of a team's sensitivity label (an extension): Graph applies a label only with a
 * person's delegated token, so a team may be made without its template's label, and an owner
 * applies it later (`POST /teams/{teamId}/sensitivityLabel`).
 */
export const TeamLabelStatus = model(
  'TeamLabelStatus',
  z.object({
    labelId: z.string(),
    status: z.enum(['applied', 'missing']),
    /** The object id of the person whose authority applied it. */
    appliedBy: z.string().optional(),
  }),
);
export type TeamLabelStatus = z.output<typeof TeamLabelStatus>;
