import type { TurnContext } from 'botbuilder';
import { readerOfTurn, type Reply } from '../conversations/reply';
import { INTENT_ANSWERS } from '../intentAnswers';
import { runVerb, type VerbDependencies } from '../verbs';
import type { PeopleResolver } from './answerParts';
import type { Understanding } from './types';

export type { PeopleResolver } from './answerParts';

/**
 * The bot's answer to what it understood of a message typed in the person's own words: the answer
 * of its intent, which the intent's feature declares (`intentAnswers.ts`).
 */
export async function answerUnderstanding(
  context: TurnContext,
  deps: VerbDependencies,
  understood: Understanding,
  resolvePeople: PeopleResolver,
): Promise<Reply> {
  return INTENT_ANSWERS[understood.intent].answer({
    context,
    deps,
    understood,
    reader: readerOfTurn(context),
    resolvePeople,
    runVerb: (verb, data) => runVerb(verb, { context, deps, data, typed: true }),
  });
}
