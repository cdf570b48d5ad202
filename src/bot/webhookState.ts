import { type BotStorage, createItem, readItem, writeItem } from './storedItems';

/** The bot's webhook: the hook it registered and the secret deliveries are signed with. */
export interface WebhookRegistration {
  url: string;
  secret: string;
  hookId: string | null;
}

/** The webhook registration shared by every bot process (`notifications.ts`). Key: `webhook`. */
export class WebhookState {
  constructor(private readonly storage: BotStorage) {}

  /** The webhook registration shared by every bot process. */
  webhook(): Promise<WebhookRegistration | undefined> {
    return readItem<WebhookRegistration>(this.storage, 'webhook');
  }

  /** Stores the webhook registration only when none exists; false when another process stored one first. */
  createWebhook(registration: WebhookRegistration): Promise<boolean> {
    return createItem(this.storage, 'webhook', registration);
  }

  /** Replaces the webhook registration. */
  saveWebhook(registration: WebhookRegistration): Promise<void> {
    return writeItem(this.storage, 'webhook', registration);
  }
}
