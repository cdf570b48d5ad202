import type { PostedCard } from '../messenger';
import { type BotStorage, deleteItem, keysUnder, readItem, writeItem } from '../storedItems';
import type { ApprovalCardData } from './approvalCard';

/** The cards sent to the approvers of one approval request, and the decision once known. */
export interface ApprovalRecord {
  jobId: string;
  /** What the approvers' cards show. */
  request: ApprovalCardData;
  /** Each approver's card, by their object id (the newest, when "my approvals" posted it again). */
  cards: Record<string, PostedCard>;
  /** Each approver's earlier cards of the request, still in their chat: updated with the newest. */
  copies?: Record<string, PostedCard[]>;
  decision: {
    outcome: 'approved' | 'rejected';
    by: string;
    at: string;
    message: string | null;
    /** Nobody decided in time: the request was rejected as expired (`by` is empty). */
    expired?: boolean;
    /** The requester withdrew the request first (`outcome` rejected, `by` the requester). */
    withdrawn?: boolean;
  } | null;
}

/** Earlier cards of one approver kept up to date besides the newest (the newest of them). */
const MAX_COPIES = 5;

/** Every card of the request in an approver's chat: the newest first, then the earlier ones. */
export function cardsOfApprover(record: ApprovalRecord, approverId: string): PostedCard[] {
  const newest = Object.hasOwn(record.cards, approverId) ? [record.cards[approverId]!] : [];
  return [...newest, ...(record.copies?.[approverId] ?? [])];
}

/** The record with `posted` as the approver's newest card, their earlier one kept as a copy. */
export function withNewestCard(
  record: ApprovalRecord,
  approverId: string,
  posted: PostedCard,
): ApprovalRecord {
  const earlier = cardsOfApprover(record, approverId)
    .filter((card) => card.activityId !== posted.activityId)
    .slice(0, MAX_COPIES);
  return {
    ...record,
    cards: { ...record.cards, [approverId]: posted },
    copies: { ...record.copies, [approverId]: earlier },
  };
}

/** An approval card that could not be delivered yet, retried until it is or until the bot gives up. */
export interface PendingDelivery {
  jobId: string;
  /** The approver's display name, for the requester's card. */
  approverName: string;
  /** ISO 8601 time of the first failure: the retries stop a bounded time after it. */
  since: string;
  attempts: number;
  /** ISO 8601 time of the next attempt. */
  nextAt: string;
}

/** How many undelivered approval cards a bot process takes up again at once. */
const RESUMED_AT_MOST = 1000;

/**
 * The bot's memory of approvals: the approvers' cards of each approval request with its decision,
 * and the approval cards that could not be delivered yet. Keys: `approvals/<approvalId>`,
 * `deliveries/<approverId>/<approvalId>`.
 */
export class ApprovalState {
  constructor(private readonly storage: BotStorage) {}

  /** The approval cards of an approval request. */
  approval(approvalId: string): Promise<ApprovalRecord | undefined> {
    return readItem<ApprovalRecord>(this.storage, `approvals/${approvalId}`);
  }

  /** Stores the approval cards of an approval request. */
  saveApproval(approvalId: string, record: ApprovalRecord): Promise<void> {
    return writeItem(this.storage, `approvals/${approvalId}`, record);
  }

  /** The approval card for `approverId` that could not be delivered yet. */
  pendingDelivery(approverId: string, approvalId: string): Promise<PendingDelivery | undefined> {
    return readItem<PendingDelivery>(this.storage, `deliveries/${approverId}/${approvalId}`);
  }

  /** Remembers an approval card still to deliver. */
  savePendingDelivery(approverId: string, approvalId: string, pending: PendingDelivery): Promise<void> {
    return writeItem(this.storage, `deliveries/${approverId}/${approvalId}`, pending);
  }

  /** Forgets an approval card still to deliver (delivered, decided, or given up). */
  deletePendingDelivery(approverId: string, approvalId: string): Promise<void> {
    return deleteItem(this.storage, `deliveries/${approverId}/${approvalId}`);
  }

  /** The approval cards still to deliver, as [approverId, approvalId] (of one approver when given). */
  async pendingDeliveries(approverId?: string): Promise<Array<[string, string]>> {
    const prefix = approverId ? `deliveries/${approverId}/` : 'deliveries/';
    const keys = await keysUnder(this.storage, prefix, RESUMED_AT_MOST);
    return keys.map((key) => (approverId ? `${approverId}/${key}` : key).split('/', 2) as [string, string]);
  }
}
