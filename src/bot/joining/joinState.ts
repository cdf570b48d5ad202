import type { PostedCard } from '../messenger';
import { type BotStorage, readItem, updateItem } from '../storedItems';

/** One request to join a team as the bot keeps it: the owners' cards, the decision, what the asker was told. */
export interface JoinRecord {
  joinRequestId: string;
  team: { id: string; name: string; webUrl: string | null };
  requester: { id: string; name: string };
  message: string | null;
  direct: boolean;
  /** Each owner's card, by their object id. */
  cards: Record<string, PostedCard>;
  decision: { approved: boolean; byId: string; by: string; comment: string | null } | null;
  /** What the asker was told already, so a delivery received twice tells them once. */
  told: { decided?: boolean; joined?: boolean; joinedHeld?: boolean };
}

/** The bot's memory of requests to join teams. Keys: `joinRequests/<joinRequestId>`. */
export class JoinState {
  constructor(private readonly storage: BotStorage) {}

  join(joinRequestId: string): Promise<JoinRecord | undefined> {
    return readItem<JoinRecord>(this.storage, `joinRequests/${joinRequestId}`);
  }

  /** Changes the record as stored now (see `updateItem`: `change` may run more than once). */
  update(
    joinRequestId: string,
    change: (latest: JoinRecord | undefined) => JoinRecord | undefined,
  ): Promise<JoinRecord | undefined> {
    return updateItem<JoinRecord>(this.storage, `joinRequests/${joinRequestId}`, change);
  }
}
