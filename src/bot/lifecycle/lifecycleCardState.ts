import type { PostedCard } from '../messenger';
import type { OwnerlessCardData } from './ownerlessCard';
import {
  type BotStorage,
  createItem,
  deleteItem,
  keysUnder,
  readItem,
  updateItem,
  writeItem,
} from '../storedItems';

/** The cards about one team short of owners, for one day it was found so and one audience. */
export interface OwnerlessRecord extends Omit<OwnerlessCardData, 'steppedUp' | 'notNeeded'> {
  /** Each recipient's card, by their object id. */
  cards: Record<string, PostedCard>;
  /** Who stepped up from a card, once someone did. */
  steppedUp: { id: string; name: string } | null;
}

/** The guest review cards of one team, for one due day. */
export interface GuestReviewRecord {
  teamId: string;
  teamName: string;
  dueOn: string;
  /** The guests in the cards' order: their ids and names. */
  guests: Array<{ id: string; name: string }>;
  teamUrl: string | null;
  /** Each owner's card, by their object id. */
  cards: Record<string, PostedCard>;
  /** The review, once an owner submitted it. */
  review: {
    byId: string;
    by: string;
    /** The day of the review (YYYY-MM-DD), as the API recorded it. */
    on: string;
    removed: string[];
    kept: string[];
    nextOn: string | null;
  } | null;
}

/** How many undelivered cards a person is given at once when they are next reached. */
const UNDELIVERED_AT_MOST = 1000;

/**
 * The bot's memory of the cards about teams short of owners and guest reviews, over the bot's
 * storage. Keys: `ownerless/<kind>/<since>/<teamId>`, `guestReviews/<dueOn>/<teamId>`,
 * `lifecycleDeliveries/<personId>/<record>` (a card that could not reach its person yet),
 * `cardPostings/<record>/<personId>` (a card's posting, taken by one delivery).
 */
export class LifecycleCardState {
  constructor(private readonly storage: BotStorage) {}

  /** The cards about a team short of owners (`kind`: the members', or the governance managers'). */
  ownerless(
    kind: OwnerlessRecord['kind'],
    since: string,
    teamId: string,
  ): Promise<OwnerlessRecord | undefined> {
    return readItem<OwnerlessRecord>(this.storage, `ownerless/${kind}/${since}/${teamId}`);
  }

  /**
   * Changes the cards about a team short of owners as stored now (`change` may run more than once:
   * another bot process may write the record in between, and the change is then made to what it
   * wrote); resolves to the record as stored after it.
   */
  updateOwnerless(
    kind: OwnerlessRecord['kind'],
    since: string,
    teamId: string,
    change: (latest: OwnerlessRecord | undefined) => OwnerlessRecord | undefined,
  ): Promise<OwnerlessRecord | undefined> {
    return updateItem(this.storage, `ownerless/${kind}/${since}/${teamId}`, change);
  }

  /** The guest review cards of a team for the review due on `dueOn`. */
  guestReview(dueOn: string, teamId: string): Promise<GuestReviewRecord | undefined> {
    return readItem<GuestReviewRecord>(this.storage, `guestReviews/${dueOn}/${teamId}`);
  }

  /** Changes a team's guest review cards as stored now, as `updateOwnerless` does. */
  updateGuestReview(
    dueOn: string,
    teamId: string,
    change: (latest: GuestReviewRecord | undefined) => GuestReviewRecord | undefined,
  ): Promise<GuestReviewRecord | undefined> {
    return updateItem(this.storage, `guestReviews/${dueOn}/${teamId}`, change);
  }

  /**
   * Notes that a lifecycle card (`record`: where its record is, as its conversation names it)
   * could not reach `personId`, so it is posted when they are next reached.
   */
  noteUndeliveredCard(personId: string, record: string): Promise<void> {
    return writeItem(this.storage, `lifecycleDeliveries/${personId}/${record}`, { record });
  }

  /** Forgets an undelivered lifecycle card (delivered now, or no longer needed). */
  forgetUndeliveredCard(personId: string, record: string): Promise<void> {
    return deleteItem(this.storage, `lifecycleDeliveries/${personId}/${record}`);
  }

  /** The records of the lifecycle cards that could not reach `personId` (none where storage cannot list). */
  undeliveredCards(personId: string): Promise<string[]> {
    return keysUnder(this.storage, `lifecycleDeliveries/${personId}/`, UNDELIVERED_AT_MOST);
  }

  /** Takes the posting of a record's card to one person: false when another delivery took it first. */
  claimCard(record: string, personId: string): Promise<boolean> {
    return createItem(this.storage, `cardPostings/${record}/${personId}`, { personId });
  }

  /** Gives a claimed posting back (the card could not be delivered), so a later delivery may post it. */
  releaseCard(record: string, personId: string): Promise<void> {
    return deleteItem(this.storage, `cardPostings/${record}/${personId}`);
  }
}
