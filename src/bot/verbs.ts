import { approvalVerbs } from './approvals/approvalVerbs';
import type { CardVerb } from './cards/cardVerbs';
import { asCaller, failureReply, readerOfTurn, type Reply } from './conversations/reply';
import { driftVerbs } from './drift/driftVerbs';
import type { EachKeyOnce } from './featureParts';
import { joiningVerbs } from './joining/joiningVerbs';
import { lifecycleVerbs } from './lifecycle/lifecycleVerbs';
import { requestVerbs } from './requests/requestVerbs';
import { needsCaller, refusalOf } from './verbAccess';
import type { FailureLabel, Verb, VerbTurn } from './verbTypes';
import { helpReply } from './shared/help';
import { welcomeVerbs } from './welcome/welcomeVerbs';

export type { FailureLabel, Verb, VerbDependencies, VerbTurn } from './verbTypes';

/** Each feature's verbs, declared in its own folder (`<feature>/<feature>Verbs.ts`). */
type Parts = [
  typeof requestVerbs,
  typeof approvalVerbs,
  typeof lifecycleVerbs,
  typeof joiningVerbs,
  typeof driftVerbs,
  typeof welcomeVerbs,
];
const _eachVerbOnce: EachKeyOnce<Parts> = true;

/**
 * Every verb Steward's cards (and typed commands) use: the only place a verb is dispatched. The
 * compiler refuses a verb of `CardVerb` that no feature answers, and one two features answer.
 */
export const VERBS: Readonly<Record<CardVerb, Verb>> = {
  ...requestVerbs,
  ...approvalVerbs,
  ...lifecycleVerbs,
  ...joiningVerbs,
  ...driftVerbs,
  ...welcomeVerbs,
} satisfies Record<CardVerb, Verb>;

/** Failures of the people picker's search, which is an invoke of its own rather than a verb. */
export const PEOPLE_SEARCH_FAILURE: FailureLabel = { subject: 'requests', doing: 'searchPeople' };

/** Failures of any other invoke. */
export const INVOKE_FAILURE: FailureLabel = { subject: 'request', doing: 'anything' };

/**
 * Runs `verb` from the table. A verb Steward does not know, or data its schema cannot read (not an
 * object), gets the help card.
 */
export async function runVerb(verb: string, turn: VerbTurn): Promise<Reply> {
  // `Object.hasOwn`: a card may send any text as its verb, "constructor" included.
  const handler: Verb | undefined = Object.hasOwn(VERBS, verb) ? VERBS[verb as CardVerb] : undefined;
  const bound = handler?.read(turn);
  if (!handler || !bound) return helpReply(readerOfTurn(turn.context), null);
  // Who may see what the answer shows is asked of the API first, as the person, for every verb.
  if ('asPerson' in bound || needsCaller(handler.access))
    return asCaller(
      turn.context,
      turn.deps,
      handler.failure,
      async (api) =>
        (await refusalOf(api, turn, handler.access)) ??
        ('asPerson' in bound ? bound.asPerson(api) : bound.asBot()),
    );
  try {
    return await bound.asBot();
  } catch (error) {
    return failureReply(error, handler.failure, turn.deps.log, readerOfTurn(turn.context));
  }
}
