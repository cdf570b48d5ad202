import { CardVerb } from '../cards/cardVerbs';
import { TEAM_OWNER } from '../verbAccess';
import { type FailureLabel, type FeatureVerbs, verb } from '../verbTypes';
import { driftAnswerData } from './driftVerbData';

const ANSWER_DRIFT: FailureLabel = { subject: 'team', doing: 'answerDrift' };

/** The verbs of an owner asked about their template's changes: "Add them", "Not now". */
export const driftVerbs = {
  [CardVerb.addTemplateChanges]: verb({
    data: driftAnswerData,
    access: TEAM_OWNER,
    failure: ANSWER_DRIFT,
    asPerson: (api, { context, data, deps }) => deps.drift.answer(context, api, data, 'add'),
  }),
  [CardVerb.declineTemplateChanges]: verb({
    data: driftAnswerData,
    access: TEAM_OWNER,
    failure: ANSWER_DRIFT,
    asPerson: (api, { context, data, deps }) => deps.drift.answer(context, api, data, 'notNow'),
  }),
} satisfies FeatureVerbs;
