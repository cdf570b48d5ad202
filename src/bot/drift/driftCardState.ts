import type { PostedCard } from '../messenger';
import type { DriftCardData } from './driftCard';
import { type BotStorage, readItem, updateItem } from '../storedItems';

/** The owners' cards about one team and one version of its template. */
export interface DriftRecord extends Omit<DriftCardData, 'answer'> {
  /** Each owner's card, by their object id. */
  cards: Record<string, PostedCard>;
  /** The answer, once an owner gave it. */
  answer: { id: string; name: string; answer: 'add' | 'notNow' } | null;
}

/** Where a record is: `drift/<version>/<teamId>`. */
export const driftRecordKey = (version: number, teamId: string): string => `drift/${version}/${teamId}`;

/** The bot's memory of the owners' drift cards, over the bot's storage. */
export class DriftCardState {
  constructor(private readonly storage: BotStorage) {}

  record(version: number, teamId: string): Promise<DriftRecord | undefined> {
    return readItem<DriftRecord>(this.storage, driftRecordKey(version, teamId));
  }

  /** Changes a record as stored now (`change` may run more than once; see `updateItem`). */
  update(
    version: number,
    teamId: string,
    change: (latest: DriftRecord | undefined) => DriftRecord | undefined,
  ): Promise<DriftRecord | undefined> {
    return updateItem(this.storage, driftRecordKey(version, teamId), change);
  }
}
