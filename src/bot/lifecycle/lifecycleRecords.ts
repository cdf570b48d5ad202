import type { PostedCard } from '../messenger';
import type { LifecycleAnswer } from './lifecycleOutcome';
import { type BotStorage, createItem, deleteItem, readItem, updateItem } from '../storedItems';

/** The two notices that get a card: before expiry, and after the policy's days without activity. */
export type NoticeKind = 'renewal' | 'inactivity';

/** One owner's card of a notice. */
export interface OwnerCard {
  ownerId: string;
  posted: PostedCard;
}

/**
 * The cards of one notice about one team, and its answer once someone gave one. A notice is
 * identified by `about`: the expiry date it announces (renewal) or the last-activity day
 * (inactivity); a notice about another day starts a new record.
 */
export interface NoticeRecord {
  teamId: string;
  teamName: string;
  about: string;
  /** The renewal period and what expiry does, read from the team's policy (renewal cards). */
  renewDays: number | null;
  onExpiry: 'archive' | 'delete' | 'none' | null;
  /** Each owner's cards (the 30-day and the 7-day notice each posted one). */
  cards: OwnerCard[];
  /** The notices already posted, as `<ownerId>:<key>`, so a repeated delivery posts nothing twice. */
  posted: string[];
  /** Owners who said they are not the right person, and how many other owners there were then. */
  declined: Record<string, number>;
  answer: LifecycleAnswer | null;
}

/**
 * The bot's memory of lifecycle cards, over the bot's storage (keys `lifecycle/<kind>/<teamId>`):
 * one record per team and notice kind, the latest notice's; and each card's posting, claimed once
 * (`lifecycle/<kind>/<teamId>/<about>/<owner>:<notice>`).
 */
export class NoticeRecords {
  constructor(private readonly storage: BotStorage) {}

  get(kind: NoticeKind, teamId: string): Promise<NoticeRecord | undefined> {
    return readItem<NoticeRecord>(this.storage, keyOf(kind, teamId));
  }

  /**
   * Changes a team's record as it is stored now (`change` may run more than once: another bot
   * process may write the record in between, and the change is then made again to what it wrote).
   * Resolves to the record as stored after the change.
   */
  update(
    kind: NoticeKind,
    teamId: string,
    change: (latest: NoticeRecord | undefined) => NoticeRecord | undefined,
  ): Promise<NoticeRecord | undefined> {
    return updateItem<NoticeRecord>(this.storage, keyOf(kind, teamId), change);
  }

  /**
   * Takes the posting of one card of a notice (`mark`: the owner and the notice) for this delivery:
   * false when another delivery, in any bot process, took it first.
   */
  claimPost(kind: NoticeKind, record: NoticeRecord, mark: string): Promise<boolean> {
    return createItem(this.storage, postKeyOf(kind, record, mark), { mark });
  }

  /** Gives a claimed posting back (the card could not be delivered), so a later delivery may post it. */
  releasePost(kind: NoticeKind, record: NoticeRecord, mark: string): Promise<void> {
    return deleteItem(this.storage, postKeyOf(kind, record, mark));
  }
}

const keyOf = (kind: NoticeKind, teamId: string) => `lifecycle/${kind}/${teamId}`;
const postKeyOf = (kind: NoticeKind, record: NoticeRecord, mark: string) =>
  `${keyOf(kind, record.teamId)}/${record.about}/${mark}`;
