import type { ConversationReference } from 'botbuilder';
import type { Reader } from './i18n/catalog';
import { type BotStorage, readItem, writeItem } from './storedItems';

/** What the bot remembers about a person who talked to it: where to reach them, and their Teams id. */
export interface KnownUser {
  /** The 1:1 conversation with them, for proactive messages. */
  reference: Partial<ConversationReference>;
  /** Their Teams user id (`29:…`), for an approval card's `refresh.userIds`. */
  teamsUserId: string;
  name: string;
  /** How they read (language, locale, time zone) when last seen: cards sent to them use it. */
  reader?: Reader;
}

/** Where the channel is reached when the bot must start a conversation nobody began. */
export interface ChannelHome {
  serviceUrl: string;
  channelId: string;
  bot: { id: string; name: string };
  tenantId: string | null;
}

/**
 * Where the bot reaches people: each person's 1:1 conversation, and the channel it starts new ones
 * through. Written by `whereReached.ts` on every turn, read by whatever posts a card unasked.
 * Keys: `users/<aadObjectId>`, `channel`.
 */
export class ReachState {
  constructor(private readonly storage: BotStorage) {}

  /** The person with this object id, when they have talked to the bot. */
  user(aadObjectId: string): Promise<KnownUser | undefined> {
    return readItem<KnownUser>(this.storage, `users/${aadObjectId}`);
  }

  /** Remembers where a person is reached. */
  saveUser(aadObjectId: string, user: KnownUser): Promise<void> {
    return writeItem(this.storage, `users/${aadObjectId}`, user);
  }

  /** The last channel the bot was reached through. */
  channel(): Promise<ChannelHome | undefined> {
    return readItem<ChannelHome>(this.storage, 'channel');
  }

  /** Remembers the channel the bot was reached through. */
  saveChannel(home: ChannelHome): Promise<void> {
    return writeItem(this.storage, 'channel', home);
  }
}
