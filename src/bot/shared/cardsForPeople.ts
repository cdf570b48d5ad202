import type { BotLog } from '../botLog';
import type { AdaptiveCardAttachment } from '../cards/adaptiveCard';
import type { CardViewer } from '../cards/cardRefresh';
import { KeyedTurns } from '../keyedTurns';
import type { Messenger, PostedCard } from '../messenger';
import type { ReachState } from '../reachState';
import { viewerOf } from '../conversations/cardViewer';

const turns = new KeyedTurns();

/** A bot-state record of one card sent to several people, each updated in place. */
export interface CardsOfPeople {
  cards: Record<string, PostedCard>;
}

/** Where a record is (`key`, as undelivered cards name it), and how it is read and changed. */
export interface StoredCards<R> {
  key: string;
  load: () => Promise<R | undefined>;
  /** Changes the record as stored now (see `updateItem`: the change may run more than once). */
  update: (change: (latest: R | undefined) => R | undefined) => Promise<R | undefined>;
}

/**
 * Where the postings are claimed and the undelivered cards noted: the bot state's lifecycle card
 * records (`lifecycle/lifecycleCardState.ts`), which every feature delivering such cards shares.
 */
export interface CardPostings {
  claimCard(record: string, personId: string): Promise<boolean>;
  releaseCard(record: string, personId: string): Promise<void>;
  noteUndeliveredCard(personId: string, record: string): Promise<void>;
  undeliveredCards(personId: string): Promise<string[]>;
  forgetUndeliveredCard(personId: string, record: string): Promise<void>;
}

/** What posting and updating the cards of a record needs. */
export interface CardDeliveryDependencies {
  reachState: ReachState;
  lifecycleCardState: CardPostings;
  messenger: Messenger;
  log: BotLog;
}

/** How a record draws the card of one person, in their language and with its refresh. */
export type CardOf<R> = (record: R, personId: string, viewer: CardViewer) => AdaptiveCardAttachment;

/**
 * Posts the record's card to each of `people` who has none yet, in their 1:1 chat and language (so
 * a webhook delivered twice sends nothing twice). Each posted card is added to the record as
 * it is now, at once: someone may answer while the others are still being reached. A card whose
 * record was `answered` while it was on its way is redrawn. Someone not reached is noted under the
 * record's `key`, and gets the card when they are next reached (`retryUndelivered`). Resolves to
 * the people not reached.
 */
export async function postToEach<R extends CardsOfPeople>(
  deps: CardDeliveryDependencies,
  people: readonly string[],
  record: StoredCards<R>,
  cardOf: CardOf<R>,
  answered: (record: R) => boolean,
): Promise<string[]> {
  // One delivery at a time per record in this process, so no card's entry is written over.
  return turns.run(record.key, () => postEach(deps, people, record, cardOf, answered));
}

async function postEach<R extends CardsOfPeople>(
  deps: CardDeliveryDependencies,
  people: readonly string[],
  record: StoredCards<R>,
  cardOf: CardOf<R>,
  answered: (record: R) => boolean,
): Promise<string[]> {
  const unreached: string[] = [];
  for (const personId of new Set(people)) {
    const current = await record.load();
    if (!current) return unreached;
    if (current.cards[personId]) continue;
    // Another bot process may be handling the same delivery (a retry): one of them posts.
    if (!(await deps.lifecycleCardState.claimCard(record.key, personId))) continue;
    const viewer = await viewerOf(deps.reachState, personId);
    const posted = await deps.messenger
      .postToPerson(personId, cardOf(current, personId, viewer))
      .catch((error: unknown) => {
        deps.log.warn({ err: error, personId }, 'could not deliver a lifecycle card');
        return undefined;
      });
    if (!posted) {
      await deps.lifecycleCardState.releaseCard(record.key, personId);
      unreached.push(personId);
      await deps.lifecycleCardState.noteUndeliveredCard(personId, record.key);
      continue;
    }
    const latest =
      (await record.update((stored) => {
        const base = stored ?? current;
        return { ...base, cards: { ...base.cards, [personId]: posted } };
      })) ?? current;
    if (answered(latest) && !answered(current)) {
      await deps.messenger.update(posted, cardOf(latest, personId, viewer)).catch((error: unknown) => {
        deps.log.warn({ err: error, personId }, 'could not update a lifecycle card');
      });
    }
  }
  return unreached;
}

/** Redraws every card of the record in place, but `skip`'s (answered in its own turn). */
export async function updateEach<R extends CardsOfPeople>(
  deps: CardDeliveryDependencies,
  record: R,
  cardOf: CardOf<R>,
  skip?: string,
): Promise<void> {
  for (const [personId, posted] of Object.entries(record.cards)) {
    if (personId === skip) continue;
    const card = cardOf(record, personId, await viewerOf(deps.reachState, personId));
    await deps.messenger.update(posted, card).catch((error: unknown) => {
      deps.log.warn({ err: error, personId }, 'could not update a lifecycle card');
    });
  }
}

/**
 * Someone was just reached (they talked to the bot): the cards of `prefix` that could not reach
 * them before are posted now, from their records as they stand (answered ones show the answer).
 */
export async function retryUndelivered<R extends CardsOfPeople>(
  deps: CardDeliveryDependencies,
  personId: string,
  prefix: string,
  records: {
    load: (key: string) => Promise<R | undefined>;
    update: (key: string, change: (latest: R | undefined) => R | undefined) => Promise<R | undefined>;
  },
  cardOf: CardOf<R>,
  answered: (record: R) => boolean,
): Promise<void> {
  for (const key of await deps.lifecycleCardState.undeliveredCards(personId)) {
    if (!key.startsWith(prefix)) continue;
    const record = {
      key,
      load: () => records.load(key),
      update: (change: (latest: R | undefined) => R | undefined) => records.update(key, change),
    };
    const unreached = await postToEach(deps, [personId], record, cardOf, answered);
    if (unreached.length === 0) await deps.lifecycleCardState.forgetUndeliveredCard(personId, key);
  }
}
