import type { Reader } from '../i18n/catalog';
import type { PostedCard } from '../messenger';
import type { FormUnderstanding, PersonChoice, RequestFormValues } from './requestFormCard';
import { type BotStorage, createItem, deleteItem, keysUnder, readItem, writeItem } from '../storedItems';

/** A card showing a request, and the card whose button posted it (a "my requests" list), if any. */
export interface ShownCard extends PostedCard {
  from?: string;
}

/** The progress card of one request. */
export interface ProgressLocation extends ShownCard {
  requesterId: string;
  /** The template's picture, shown on every update. */
  pictureUrl: string | null;
  /**
   * Other cards showing this request (a Status or Refresh pressed, `status <id>` typed): each is
   * updated with the first, so no card in the chat goes stale.
   */
  copies?: ShownCard[];
  /** The requester's language and time zone, for every update of the card. */
  reader?: Reader;
  /** Names of the approvers the bot could not reach yet, shown to the requester. */
  unreachableApprovers?: string[];
  /** The requester pressed Try again and got the form: the cards offer it no more. */
  retried?: boolean;
  /** An owner applied the label the team was made without: the cards stop asking for it. */
  labelApplied?: boolean;
}

/** A submitted request form: the job it created. */
export interface SubmittedForm {
  jobId: string;
}

/** What a person typed for a request no template could be told from (`keptTyped.ts`). */
export interface KeptTyped {
  values: RequestFormValues;
  people: readonly PersonChoice[];
  understood: FormUnderstanding;
  /** When it was kept (ISO). */
  at: string;
}

/** How many unfinished requests a bot process takes up again when it starts. */
const RESUMED_AT_MOST = 1000;

/** Copies of a progress card kept up to date besides the first (the newest ones). */
const MAX_COPIES = 10;

/**
 * The bot's memory of people's requests: where each progress card is, which requests are still
 * followed, the one-time claims of a request's end message and of its Try again, and the job each
 * submitted form created. Keys: `progress/<jobId>`, `following/<jobId>`, `ended/<jobId>`,
 * `retried/<jobId>`, `forms/<userId>/<formId>`, `typed/<userId>`.
 */
export class RequestState {
  constructor(private readonly storage: BotStorage) {}

  /** Keeps what a person typed for a request until they pick a template (one per person). */
  keepTyped(personId: string, kept: KeptTyped): Promise<void> {
    return writeItem(this.storage, `typed/${personId}`, kept);
  }

  /** What a person typed for a request, taken once. */
  async takeTyped(personId: string): Promise<KeptTyped | undefined> {
    const kept = await readItem<KeptTyped>(this.storage, `typed/${personId}`);
    if (kept) await deleteItem(this.storage, `typed/${personId}`);
    return kept;
  }

  /** Where a request's progress card is. */
  progress(jobId: string): Promise<ProgressLocation | undefined> {
    return readItem<ProgressLocation>(this.storage, `progress/${jobId}`);
  }

  /** The card of the request that a press on the card `from` posted (Status on a "my requests" list). */
  async shownFrom(jobId: string, from: string): Promise<ShownCard | undefined> {
    const location = await this.progress(jobId);
    return location && [location, ...(location.copies ?? [])].find((card) => card.from === from);
  }

  /** Remembers where a request's progress card is. */
  saveProgress(jobId: string, location: ProgressLocation): Promise<void> {
    return writeItem(this.storage, `progress/${jobId}`, location);
  }

  /**
   * Adds `posted` to the copies of a request's card at `location` (the newest are kept: an old copy
   * scrolled far out of sight matters least).
   */
  saveCopy(jobId: string, location: ProgressLocation, posted: ShownCard): Promise<void> {
    const copies = (location.copies ?? []).filter((copy) => copy.activityId !== posted.activityId);
    return this.saveProgress(jobId, { ...location, copies: [...copies, posted].slice(-MAX_COPIES) });
  }

  /** Notes that a request's job has not finished yet, so that a restarted bot follows it again. */
  markUnfinished(jobId: string): Promise<void> {
    return writeItem(this.storage, `following/${jobId}`, { since: new Date().toISOString() });
  }

  /** Forgets that a request's job is unfinished (it ended, or is gone). */
  markFinished(jobId: string): Promise<void> {
    return deleteItem(this.storage, `following/${jobId}`);
  }

  /** The jobs of requests whose job had not finished when last seen (none where storage cannot list). */
  unfinishedJobs(): Promise<string[]> {
    return keysUnder(this.storage, 'following/', RESUMED_AT_MOST);
  }

  /**
   * Claims the one "your request has ended" message of a job: true for the first caller only, in
   * any bot process, so the requester gets it once however many deliveries and polls see the end.
   */
  claimEndNotice(jobId: string): Promise<boolean> {
    return createItem(this.storage, `ended/${jobId}`, { at: new Date().toISOString() });
  }

  /**
   * Claims the one form a failed request's Try again posts: true for the first press only, in any
   * bot process, so pressing it again (on any card of the request) posts no second form.
   */
  claimRetry(jobId: string): Promise<boolean> {
    return createItem(this.storage, `retried/${jobId}`, { at: new Date().toISOString() });
  }

  /** Gives the claim back when the form could not be posted, so Try again works again. */
  releaseRetry(jobId: string): Promise<void> {
    return deleteItem(this.storage, `retried/${jobId}`);
  }

  /** The job a submitted form created. */
  form(userId: string, formId: string): Promise<SubmittedForm | undefined> {
    return readItem<SubmittedForm>(this.storage, `forms/${userId}/${formId}`);
  }

  /** Remembers the job a form created. */
  saveForm(userId: string, formId: string, form: SubmittedForm): Promise<void> {
    return writeItem(this.storage, `forms/${userId}/${formId}`, form);
  }
}
