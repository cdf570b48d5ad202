import type { TurnContext } from 'botbuilder';
import { type StewardClient, StewardApiError } from '../../client';
import { AnswerLater } from '../conversations/answerLater';
import { readerOfTurn } from '../conversations/reply';
import { say } from '../i18n/catalog';
import type { VerbDependencies } from '../verbTypes';

/**
 * A message typed in one's own words is never lost to the rate limit. Its answer's calls to the
 * API, made as the person, wait for the budget when one is refused with 429 (its Retry-After) and
 * are made again; the person reads once that Steward is working on it and answers in about so many
 * seconds. Inside the turn a message waits `IN_TURN_MS` at most: the Bot Connector gives a turn
 * 15 s. A longer wait ends the turn with `AnswerLater`, and the bot answers in a turn of its own
 * when the budget allows (`StewardBot`), waiting up to `MAX_WAIT_MS` in all. One person's messages
 * are answered one after the other, so a burst of them waits its turn instead of spending the
 * budget all at once.
 */

/** The longest a message waits for the budget inside its turn. */
const IN_TURN_MS = 10_000;

/** The longest a message waits for the budget, in all (the API's window is a minute). */
const MAX_WAIT_MS = 65_000;

/** The message being answered for each person: the next one starts when it ends. */
const queues = new Map<string, Promise<unknown>>();

/** Runs `work` after the person's earlier typed messages are answered. */
export function inTurn<T>(context: TurnContext, work: () => Promise<T>): Promise<T> {
  const person = context.activity.from?.aadObjectId ?? context.activity.from?.id ?? '';
  const before = queues.get(person) ?? Promise.resolve();
  const run = before.then(work, work);
  const settled = run.catch(() => undefined);
  queues.set(person, settled);
  void settled.then(() => {
    if (queues.get(person) === settled) queues.delete(person);
  });
  return run;
}

/**
 * `deps` whose client, as the person, waits for the rate limit's budget instead of failing: inside
 * the turn up to `IN_TURN_MS` (then `AnswerLater`), in a later turn of the bot's own up to `MAX_WAIT_MS`.
 */
export function patientDeps(context: TurnContext, deps: VerbDependencies, later = false): VerbDependencies {
  const budget = { waitedMs: 0, told: later, limitMs: later ? MAX_WAIT_MS : IN_TURN_MS };
  const tell = async (ms: number) => {
    if (budget.told) return;
    budget.told = true;
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    await context
      .sendActivity(say(readerOfTurn(context), 'talk.workingOnIt', { seconds }))
      .catch(() => undefined);
  };
  return { ...deps, client: patient(deps.client, budget, tell) };
}

function patient(
  client: StewardClient,
  budget: { waitedMs: number; told: boolean; limitMs: number },
  tell: (ms: number) => Promise<void>,
): StewardClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property === 'as')
        return (token: Parameters<StewardClient['as']>[0]) => patient(target.as(token), budget, tell);
      return (...args: unknown[]) => {
        const call = () => (value as (...a: unknown[]) => unknown).apply(target, args);
        const first = call();
        // Only calls that answer once (not the pages' generators) are made again.
        if (!(first instanceof Promise)) return first;
        const again = (error: unknown): Promise<unknown> => {
          const wait = refusedFor(error);
          if (wait === undefined) return Promise.reject(error);
          if (budget.waitedMs + wait > budget.limitMs)
            return Promise.reject(budget.limitMs === IN_TURN_MS ? new AnswerLater(wait, budget.told) : error);
          budget.waitedMs += wait;
          return tell(wait)
            .then(() => new Promise((resolve) => setTimeout(resolve, wait)))
            .then(() => (call() as Promise<unknown>).catch(again));
        };
        return first.catch(again);
      };
    },
  });
}

/** How long to wait before a call refused for the rate limit may be made again; undefined for any other failure. */
function refusedFor(error: unknown): number | undefined {
  if (!(error instanceof StewardApiError) || error.status !== 429) return undefined;
  return Math.max(250, error.retryAfterMs ?? 1000);
}
