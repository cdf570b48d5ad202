import type { Language } from '../i18n/catalog';
import { type BotStorage, createItem, deleteItem, readItem, writeItem } from '../storedItems';

/** The language a person chose with `language fr`, over their Teams client's. */
export interface LanguageChoice {
  language: Language;
}

/**
 * What the bot remembers of greeting people: the conversations it welcomed, and the language each
 * person chose. Keys: `welcomed/<conversationId>`, `languages/<userId>`.
 */
export class WelcomeState {
  constructor(private readonly storage: BotStorage) {}

  /** The language a person chose, if they chose one. */
  async language(userId: string): Promise<Language | undefined> {
    return (await readItem<LanguageChoice>(this.storage, `languages/${userId}`))?.language;
  }

  /** Remembers a person's language, or forgets it (null: follow their Teams client again). */
  saveLanguage(userId: string, language: Language | null): Promise<void> {
    const key = `languages/${userId}`;
    return language ? writeItem(this.storage, key, { language }) : deleteItem(this.storage, key);
  }

  /** Marks a conversation as welcomed; false when it already was (so the welcome is sent once). */
  markWelcomed(conversationId: string): Promise<boolean> {
    return createItem(this.storage, `welcomed/${conversationId}`, { at: new Date().toISOString() });
  }
}
