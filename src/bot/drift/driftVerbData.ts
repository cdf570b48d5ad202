import { z } from 'zod';
import { cardData, textOrNumber } from '../cards/cardData';

/* The data of the feature's card verbs, parsed from untrusted card data (`cards/cardData.ts`): the
 * verbs (`driftVerbs.ts`) and their handlers import it, so neither imports the other. */

/** Data of `addTemplateChanges` and `declineTemplateChanges`: the team, and the template version asked about. */
export const driftAnswerData = cardData({
  teamId: textOrNumber,
  version: z.union([z.string(), z.number()]).optional().catch(undefined),
});
export type DriftAnswerData = z.output<typeof driftAnswerData>;
