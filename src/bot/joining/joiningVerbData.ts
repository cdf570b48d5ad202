import type { z } from 'zod';
import { cardData, text } from '../cards/cardData';

/* The data of the feature's card verbs, parsed from untrusted card data (`cards/cardData.ts`): the
 * verbs (`joiningVerbs.ts`) and their handlers import it, so neither imports the other. */

/**
 * Data of `askToJoin`: the team, its name, and the id of the input holding the person's words (that
 * input's value is kept with the data, under its own id).
 */
export const askToJoinData = cardData({ teamId: text, teamName: text, inputId: text });
export type AskToJoinData = z.output<typeof askToJoinData>;
