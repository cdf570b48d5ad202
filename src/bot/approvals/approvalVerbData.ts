import type { z } from 'zod';
import { cardData, text, textOrNumber } from '../cards/cardData';

/* The data of the feature's card verbs, parsed from untrusted card data (`cards/cardData.ts`): the
 * verbs (`approvalVerbs.ts`) and their handlers import it, so neither imports the other. */

/** Data of `approve`, `reject` and `checkApprovalName`, plus the optional comment input. */
export const approvalDecisionData = cardData({
  approvalId: textOrNumber,
  comment: text,
  /** The team name as the approver left it on the card; a changed one amends the request. */
  teamName: text,
});
export type ApprovalDecisionData = z.output<typeof approvalDecisionData>;
