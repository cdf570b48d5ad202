import type { z } from 'zod';
import { cardData, onlyTrue, text, textOrEmpty } from '../cards/cardData';

/* The data of the feature's card verbs, parsed from untrusted card data (`cards/cardData.ts`): the
 * verbs (`lifecycleVerbs.ts`) and their handlers import it, so neither imports the other. */

/**
 * Data of the lifecycle cards' verbs: the team, which notice the card is (`renewal`, `inactivity`),
 * and for `archiveTeamNow`, whether the owner confirmed (the first press only asks).
 */
export const lifecycleNoticeData = cardData({ teamId: text, notice: text, confirmed: onlyTrue });
export type LifecycleNoticeData = z.output<typeof lifecycleNoticeData>;

/** Data of `becomeOwner`: the team, and the day it was found short of owners. */
export const becomeOwnerData = cardData({ teamId: textOrEmpty, since: textOrEmpty });
export type BecomeOwnerData = z.output<typeof becomeOwnerData>;
