import type { z } from 'zod';
import { cardData, onlyTrue, text } from '../cards/cardData';

/* The data of the feature's card verbs, parsed from untrusted card data (`cards/cardData.ts`): the
 * verbs (`requestVerbs.ts`) and their handlers import it, so neither imports the other. */

/** Data of `myRequests`: `waiting` lists only the requests still waiting (none: all recent ones). */
export const myRequestsData = cardData({ waiting: onlyTrue });
export type MyRequestsData = z.output<typeof myRequestsData>;

/** Data of `withdrawRequest`: the request, and whether the requester confirmed (the first press only asks). */
export const withdrawData = cardData({ jobId: text, confirmed: onlyTrue });
export type WithdrawData = z.output<typeof withdrawData>;

/** Data of `applyLabel`: the team, its name for the answer, and the request that made it (if the card knows). */
export const applyLabelData = cardData({ teamId: text, teamName: text, jobId: text });
export type ApplyLabelData = z.output<typeof applyLabelData>;
