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

/** Which card of which notice: `key` is the notice's day count (renewal) or `notify` (inactivity). */
export interface NoticeCard {
  kind: NoticeKind;
  about: string;
  key: string;
}

/**
 * An owner's one living lifecycle card about a team: the notice it belongs to (and which of its
 * cards was posted), and the notices of the other kind that wait for it to be answered.
 */
export interface LivingCard extends NoticeCard {
  waiting: NoticeCard[];
}

/** What an owner's living card lets a card of a notice do: be posted, refresh the owner's card of the same notice, or wait. */
export type CardTurn = 'post' | 'refresh' | 'wait';

/**
 * The bot's memory of lifecycle cards, over the bot's storage (keys `lifecycle/<kind>/<teamId>`):
 * one record per team and notice kind, the latest notice's; each card's posting, claimed once
 * (`lifecycle/<kind>/<teamId>/<about>/<owner>:<notice>`); and each owner's living card of a team
 * (`lifecycle/card/<teamId>/<owner>`), one at a time.
 */
export class NoticeRecords {
  /** Each owner's one living card of a team. */
  readonly living: LivingCards;

  constructor(private readonly storage: BotStorage) {
    this.living = new LivingCards(storage, this);
  }

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

/**
 * Each owner has one living renewal or inactivity card per team, whoever posts it, in any bot
 * process: the one item per owner and team is changed with its eTag (made again when another process
 * wrote it first), so of two notices posted at once exactly one takes it.
 */
export class LivingCards {
  constructor(
    private readonly storage: BotStorage,
    private readonly records: NoticeRecords,
  ) {}

  /**
   * What the card `key` of `record`'s notice may do for `ownerId`: `post` when the owner has no
   * living card of the team (or it was answered, or its notice replaced), or when it is this very
   * card; `refresh` when the owner's living card is another card of the same notice (the 7-day
   * notice after the 30-day one: the card they have is brought up to date, not doubled); `wait`
   * when it belongs to an open notice of the other kind: this one is posted once that is answered.
   */
  async take(kind: NoticeKind, record: NoticeRecord, ownerId: string, key: string): Promise<CardTurn> {
    const card: NoticeCard = { kind, about: record.about, key };
    for (let attempt = 1; ; attempt++) {
      const open = await this.openNotices(record.teamId);
      let turn = 'post' as CardTurn;
      let waitedOn: NoticeCard | undefined;
      await updateItem<LivingCard>(this.storage, livingKeyOf(record.teamId, ownerId), (living) => {
        waitedOn = undefined;
        if (!living || !open(living)) {
          turn = 'post';
          return { ...card, waiting: (living?.waiting ?? []).filter((w) => !sameNotice(w, card)) };
        }
        if (sameNotice(living, card)) {
          turn = living.key === key ? 'post' : 'refresh';
          return undefined;
        }
        turn = 'wait';
        waitedOn = living;
        if (living.waiting.some((w) => sameNotice(w, card))) return undefined;
        return { ...living, waiting: [...living.waiting, card] };
      });
      // Answered between the read and the wait: whoever passed the waiting cards on may have done
      // so before this one was added, so it is taken again (now free, or passed on already).
      if (turn !== 'wait' || attempt >= 3 || (await this.openNotices(record.teamId))(waitedOn!)) return turn;
    }
  }

  /**
   * `record`'s notice was answered: for `ownerId`, the first notice waiting for it that is still
   * open becomes their living card, and is returned to be posted (undefined: none).
   */
  async next(kind: NoticeKind, record: NoticeRecord, ownerId: string): Promise<NoticeCard | undefined> {
    const open = await this.openNotices(record.teamId);
    let promoted: NoticeCard | undefined;
    await updateItem<LivingCard>(this.storage, livingKeyOf(record.teamId, ownerId), (living) => {
      promoted = undefined;
      if (!living || !sameNotice(living, { kind, about: record.about })) return undefined;
      const [first, ...rest] = living.waiting.filter(open);
      if (!first) return undefined;
      promoted = first;
      return { ...first, waiting: rest };
    });
    return promoted;
  }

  /** Whether a notice is still open: its record is the latest of its kind, and unanswered. */
  private async openNotices(teamId: string): Promise<(card: Omit<NoticeCard, 'key'>) => boolean> {
    const latest = {
      renewal: await this.records.get('renewal', teamId),
      inactivity: await this.records.get('inactivity', teamId),
    };
    return (card) => {
      const record = latest[card.kind];
      return record !== undefined && record.about === card.about && record.answer === null;
    };
  }
}

const sameNotice = (a: Omit<NoticeCard, 'key'>, b: Omit<NoticeCard, 'key'>) =>
  a.kind === b.kind && a.about === b.about;
const livingKeyOf = (teamId: string, ownerId: string) => `lifecycle/card/${teamId}/${ownerId}`;
const keyOf = (kind: NoticeKind, teamId: string) => `lifecycle/${kind}/${teamId}`;
const postKeyOf = (kind: NoticeKind, record: NoticeRecord, mark: string) =>
  `${keyOf(kind, record.teamId)}/${record.about}/${mark}`;
