import type { z } from 'zod';
import { anyData, cardData, text } from '../cards/cardData';
import { CardVerb } from '../cards/cardVerbs';
import { readerOfTurn } from '../conversations/reply';
import { THROUGH_API } from '../verbAccess';
import { type FeatureVerbs, verb } from '../verbTypes';
import { askToJoin } from './askToJoin';

/**
 * Data of `askToJoin`: the team, its name, and the id of the input holding the person's words (that
 * input's value is kept with the data, under its own id).
 */
export const askToJoinData = cardData({ teamId: text, teamName: text, inputId: text });
export type AskToJoinData = z.output<typeof askToJoinData>;

/** The verbs of joining teams: asking to join one, and an owner's decision. */
export const joiningVerbs = {
  [CardVerb.askToJoin]: verb({
    data: askToJoinData,
    access: THROUGH_API,
    failure: { subject: 'team', doing: 'askToJoin' },
    asPerson: (api, { context, data }) => askToJoin(api, data, readerOfTurn(context)),
  }),
  [CardVerb.decideJoin]: verb({
    // `{ joinRequestId, decision }` and `joinComment`, read field by field by the decision.
    data: anyData,
    access: THROUGH_API,
    failure: { subject: 'request', doing: 'decideJoin' },
    asPerson: (api, { context, data, deps }) => deps.joining.decide(context, api, data),
  }),
} satisfies FeatureVerbs;
