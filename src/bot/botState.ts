import type { ConversationReference, Storage } from 'botbuilder';
import type { ApprovalCardData } from './cards';
import { LifecycleCardState } from './lifecycle/lifecycleCardState';
import { createItem, readItem, writeItem } from './storedItems';
import type { Language, Reader } from './i18n/catalog';

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

/** The language a person chose with `language fr`, over their Teams client's. */
export interface LanguageChoice {
  language: Language;
}

/** Where the channel is reached when the bot must start a conversation nobody began. */
export interface ChannelHome {
  serviceUrl: string;
  channelId: string;
  bot: { id: string; name: string };
  tenantId: string | null;
}

/** A message the bot posted and may update in place. */
export interface PostedCard {
  reference: Partial<ConversationReference>;
  activityId: string;
}

/** The progress card of one request. */
export interface ProgressLocation extends PostedCard {
  requesterId: string;
  /** The template's picture, shown on every update. */
  pictureUrl: string | null;
  /**
   * Other cards showing this request (a Status or Refresh pressed, `status <id>` typed): each is
   * updated with the first, so no card in the chat goes stale.
   */
  copies?: PostedCard[];
  /** The requester's language and time zone, for every update of the card. */
  reader?: Reader;
  /** Names of the approvers the bot could not reach yet, shown to the requester. */
  unreachableApprovers?: string[];
  /** The requester pressed Try again and got the form: the cards offer it no more. */
  retried?: boolean;
}

/** The cards sent to the approvers of one approval request, and the decision once known. */
export interface ApprovalRecord {
  jobId: string;
  /** What the approvers' cards show. */
  request: ApprovalCardData;
  /** Each approver's card, by their object id. */
  cards: Record<string, PostedCard>;
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

/** A submitted request form: the job it created. */
export interface SubmittedForm {
  jobId: string;
}

/** A botbuilder `Storage` that can also list its keys (the database's; MemoryStorage cannot). */
export type BotStorage = Storage & {
  keysStartingWith?(prefix: string, limit: number): Promise<string[]>;
};

/** How many unfinished requests a bot process takes up again when it starts. */
const RESUMED_AT_MOST = 1000;

/** The bot's webhook: the hook it registered and the secret deliveries are signed with. */
export interface WebhookRegistration {
  url: string;
  secret: string;
  hookId: string | null;
}

/**
 * The bot's state, typed, over any botbuilder `Storage` (the database in production, MemoryStorage
 * in unit tests). Keys: `users/<aadObjectId>`, `channel`, `progress/<jobId>`, `following/<jobId>`,
 * `ended/<jobId>`, `retried/<jobId>`,
 * `deliveries/<approverId>/<approvalId>`, `approvals/<approvalId>`, `forms/<userId>/<formId>`, `welcomed/<conversationId>`, `webhook`,
 * `languages/<userId>`; the lifecycle cards' keys are listed in `lifecycleCardState.ts`.
 */
export class BotState {
  /** The ownerless and guest review cards, and lifecycle cards that could not reach their person. */
  readonly lifecycleCards: LifecycleCardState;

  constructor(private readonly storage: BotStorage) {
    this.lifecycleCards = new LifecycleCardState(storage);
  }

  /** The person with this object id, when they have talked to the bot. */
  user(aadObjectId: string): Promise<KnownUser | undefined> {
    return this.get<KnownUser>(`users/${aadObjectId}`);
  }

  /** Remembers where a person is reached. */
  saveUser(aadObjectId: string, user: KnownUser): Promise<void> {
    return this.put(`users/${aadObjectId}`, user);
  }

  /** The language a person chose, if they chose one. */
  async language(userId: string): Promise<Language | undefined> {
    return (await this.get<LanguageChoice>(`languages/${userId}`))?.language;
  }

  /** Remembers a person's language, or forgets it (null: follow their Teams client again). */
  saveLanguage(userId: string, language: Language | null): Promise<void> {
    return language
      ? this.put(`languages/${userId}`, { language })
      : this.storage.delete([`languages/${userId}`]);
  }

  /** The last channel the bot was reached through. */
  channel(): Promise<ChannelHome | undefined> {
    return this.get<ChannelHome>('channel');
  }

  /** Remembers the channel the bot was reached through. */
  saveChannel(home: ChannelHome): Promise<void> {
    return this.put('channel', home);
  }

  /** Where a request's progress card is. */
  progress(jobId: string): Promise<ProgressLocation | undefined> {
    return this.get<ProgressLocation>(`progress/${jobId}`);
  }

  /** Remembers where a request's progress card is. */
  saveProgress(jobId: string, location: ProgressLocation): Promise<void> {
    return this.put(`progress/${jobId}`, location);
  }

  /** Notes that a request's job has not finished yet, so that a restarted bot follows it again. */
  markUnfinished(jobId: string): Promise<void> {
    return this.put(`following/${jobId}`, { since: new Date().toISOString() });
  }

  /**
   * Claims the one "your request has ended" message of a job: true for the first caller only, in
   * any bot process, so the requester gets it once however many deliveries and polls see the end.
   */
  claimEndNotice(jobId: string): Promise<boolean> {
    return this.create(`ended/${jobId}`, { at: new Date().toISOString() });
  }

  /**
   * Claims the one form a failed request's Try again posts: true for the first press only, in any
   * bot process, so pressing it again (on any card of the request) posts no second form.
   */
  claimRetry(jobId: string): Promise<boolean> {
    return this.create(`retried/${jobId}`, { at: new Date().toISOString() });
  }

  /** Gives the claim back when the form could not be posted, so Try again works again. */
  releaseRetry(jobId: string): Promise<void> {
    return this.storage.delete([`retried/${jobId}`]);
  }

  /** Forgets that a request's job is unfinished (it ended, or is gone). */
  markFinished(jobId: string): Promise<void> {
    return this.storage.delete([`following/${jobId}`]);
  }

  /** The jobs of requests whose job had not finished when last seen (none where storage cannot list). */
  async unfinishedJobs(): Promise<string[]> {
    if (!this.storage.keysStartingWith) return [];
    const keys = await this.storage.keysStartingWith('following/', RESUMED_AT_MOST);
    return keys.map((key) => key.slice('following/'.length));
  }

  /** The approval card for `approverId` that could not be delivered yet. */
  pendingDelivery(approverId: string, approvalId: string): Promise<PendingDelivery | undefined> {
    return this.get<PendingDelivery>(`deliveries/${approverId}/${approvalId}`);
  }

  /** Remembers an approval card still to deliver. */
  savePendingDelivery(approverId: string, approvalId: string, pending: PendingDelivery): Promise<void> {
    return this.put(`deliveries/${approverId}/${approvalId}`, pending);
  }

  /** Forgets an approval card still to deliver (delivered, decided, or given up). */
  deletePendingDelivery(approverId: string, approvalId: string): Promise<void> {
    return this.storage.delete([`deliveries/${approverId}/${approvalId}`]);
  }

  /** The approval cards still to deliver, as [approverId, approvalId] (of one approver when given). */
  async pendingDeliveries(approverId?: string): Promise<Array<[string, string]>> {
    if (!this.storage.keysStartingWith) return [];
    const prefix = approverId ? `deliveries/${approverId}/` : 'deliveries/';
    const keys = await this.storage.keysStartingWith(prefix, RESUMED_AT_MOST);
    return keys.map((key) => key.slice('deliveries/'.length).split('/', 2) as [string, string]);
  }

  /** The approval cards of an approval request. */
  approval(approvalId: string): Promise<ApprovalRecord | undefined> {
    return this.get<ApprovalRecord>(`approvals/${approvalId}`);
  }

  /** Stores the approval cards of an approval request. */
  saveApproval(approvalId: string, record: ApprovalRecord): Promise<void> {
    return this.put(`approvals/${approvalId}`, record);
  }

  /** The job a submitted form created. */
  form(userId: string, formId: string): Promise<SubmittedForm | undefined> {
    return this.get<SubmittedForm>(`forms/${userId}/${formId}`);
  }

  /** Remembers the job a form created. */
  saveForm(userId: string, formId: string, form: SubmittedForm): Promise<void> {
    return this.put(`forms/${userId}/${formId}`, form);
  }

  /** Marks a conversation as welcomed; false when it already was (so the welcome is sent once). */
  markWelcomed(conversationId: string): Promise<boolean> {
    return this.create(`welcomed/${conversationId}`, { at: new Date().toISOString() });
  }

  /** The webhook registration shared by every bot process. */
  webhook(): Promise<WebhookRegistration | undefined> {
    return this.get<WebhookRegistration>('webhook');
  }

  /** Stores the webhook registration only when none exists; false when another process stored one first. */
  createWebhook(registration: WebhookRegistration): Promise<boolean> {
    return this.create('webhook', registration);
  }

  /** Replaces the webhook registration. */
  saveWebhook(registration: WebhookRegistration): Promise<void> {
    return this.put('webhook', registration);
  }

  private get<T>(key: string): Promise<T | undefined> {
    return readItem<T>(this.storage, key);
  }

  private put(key: string, value: object): Promise<void> {
    return writeItem(this.storage, key, value);
  }

  private create(key: string, value: object): Promise<boolean> {
    return createItem(this.storage, key, value);
  }
}
