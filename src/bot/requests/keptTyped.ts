import type { TurnContext } from 'botbuilder';
import type { KeptTyped, RequestState } from './requestState';

/**
 * What a person typed for a request when no template could be told from it ("a team for the Q3
 * launch with Megan and Adele"): the name, description and people understood, kept in the bot's
 * state under `typed/<userId>` until they pick a template in the gallery shown, so the form of
 * whichever template they pick holds what they said. Kept for `KEPT_FOR_MS`, taken once.
 */

/** How long a typed request waits for its template: long enough to read the gallery. */
const KEPT_FOR_MS = 30 * 60_000;

const personOf = (context: TurnContext): string | null =>
  context.activity.from?.aadObjectId ?? context.activity.from?.id ?? null;

/** Keeps what the person typed for the form of the template they pick next. */
export async function keepTyped(
  state: RequestState,
  context: TurnContext,
  kept: Omit<KeptTyped, 'at'>,
): Promise<void> {
  const person = personOf(context);
  if (person) await state.keepTyped(person, { ...kept, at: new Date().toISOString() });
}

/** What the person typed for the template they pick now, once; undefined when nothing is kept or it is old. */
export async function takeTyped(state: RequestState, context: TurnContext): Promise<KeptTyped | undefined> {
  const person = personOf(context);
  const kept = person ? await state.takeTyped(person) : undefined;
  return kept && Date.now() - Date.parse(kept.at) <= KEPT_FOR_MS ? kept : undefined;
}
