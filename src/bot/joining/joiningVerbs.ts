import { anyData } from '../cards/cardData';
import { CardVerb } from '../cards/cardVerbs';
import { readerOfTurn } from '../conversations/reply';
import { THROUGH_API } from '../verbAccess';
import { type FeatureVerbs, verb } from '../verbTypes';
import { askToJoin } from './askToJoin';
import { askToJoinData } from './joiningVerbData';

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
