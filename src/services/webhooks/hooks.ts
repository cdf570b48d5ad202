import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { type AuditEntry, callerRecord } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import { NotFound, ValidationFailed } from '../../domain/errors';
import {
  checkHookUrl,
  forbidden,
  hostLiteral,
  isRefusal,
  refusedAddress,
  urlOrigin,
  type UrlRefusal,
  type WebhookUrlPolicy,
} from '../../domain/webhookUrl';
import {
  type Hook,
  type HookDelivery,
  type HookPayload,
  type HookScope,
  MASKED_SECRET,
} from '../../contract';
import type { EventType } from '../../contract/events';
import { reaches } from '../../domain/hookAudience';
import { withDeadline } from '../../lib/deadline';
import type { HookRepository, StoredDelivery, StoredHook } from '../../store/webhooks/hooks';
import type { JobRepository } from '../../store/jobs/jobs';
import type { Database } from '../../store/schema';
import type { AuditLog } from '../audit/audit';
import type { StewardEvent } from './events';
import type { HostResolver } from './webhookSender';
import type { HookSecrets } from './hookSecrets';
import type { DeliveryData } from './webhookDeliveryJob';

/** The requester id of delivery jobs: Steward itself, not a caller. */
const SYSTEM_REQUESTER = 'steward';
/** How long creating a hook waits for its host to resolve. */
const RESOLVE_TIMEOUT_MS = 5000;

export interface HookServiceDependencies {
  db: Kysely<Database>;
  hooks: HookRepository;
  /** Seals each new hook's secret before it is stored. */
  secrets: HookSecrets;
  jobs: JobRepository;
  audit: AuditLog;
  policy: WebhookUrlPolicy;
  resolve: HostResolver;
  now?: () => Date;
}

/** A hook to store: what `POST /hooks` and the per-event subscriptions both give. */
export interface NewHook {
  name: string;
  description: string | null;
  active: boolean;
  events: readonly EventType[];
  url: string;
  secret: string | undefined;
  scope: HookScope;
  templateId: string | null;
}

/**
 * Webhooks: created and deleted by integration managers and admins (each change audited in its own
 * transaction), read by them and by the people who made them, their secrets stored sealed (`HookSecrets`), listed without them, and fed one delivery job per event and subscribed
 * hook by `enqueueDeliveries`, which runs inside the transaction recording the event.
 */
export class HookService {
  private readonly now: () => Date;

  constructor(private readonly deps: HookServiceDependencies) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Creates a hook after checking its URL (scheme, credentials, and every address its host
   * resolves to). The answer masks the secret like every later read does.
   */
  async create(caller: Caller, payload: HookPayload): Promise<Hook> {
    return toWireHook(
      await this.insert(caller, {
        name: payload.name,
        description: payload.description ?? null,
        active: payload.active,
        events: payload.events,
        url: payload.config.url,
        secret: payload.config.secret,
        scope: 'tenant',
        templateId: null,
      }),
    );
  }

  /** Stores a new hook, with its audit record, once its URL is allowed; returns it as stored. */
  async insert(caller: Caller, fields: NewHook): Promise<StoredHook> {
    await this.checkUrl(fields.url);
    const iso = this.now().toISOString();
    const id = randomUUID();
    const { secret } = fields;
    const hook: StoredHook = {
      id,
      name: fields.name,
      description: fields.description,
      active: fields.active,
      events: [...new Set(fields.events)],
      url: fields.url,
      contentType: 'json',
      secret: secret ? this.deps.secrets.sealFor(id, secret) : null,
      secretSealed: true,
      scope: fields.scope,
      templateId: fields.templateId,
      consecutiveFailures: 0,
      createdBy: caller.id,
      creatorKind: caller.kind,
      createdAt: iso,
      updatedAt: iso,
    };
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.hooks.insert(hook, trx);
      await this.deps.audit.record(trx, this.auditEntry(caller, 'webhook_created', hook), new Date(iso));
    });
    return hook;
  }

  /** Deletes a hook with its delivery log and returns it; its queued deliveries are skipped. */
  async delete(caller: Caller, id: string): Promise<Hook> {
    const now = this.now();
    const hook = await this.deps.db.transaction().execute(async (trx) => {
      const found = await this.deps.hooks.getForUpdate(id, trx);
      if (!found || !(await this.deps.hooks.delete(id, trx))) return undefined;
      await this.deps.audit.record(trx, this.auditEntry(caller, 'webhook_deleted', found), now);
      return found;
    });
    if (!hook) throw new NotFound(`No webhook "${id}".`);
    return toWireHook(hook);
  }

  /**
   * The hooks `caller` may read, oldest first: every one for the hook roles (`caller.privileged`,
   * from their token), else those they made.
   */
  async list(caller: Caller): Promise<Hook[]> {
    return (await this.deps.hooks.list(caller.privileged ? undefined : caller.id)).map(toWireHook);
  }

  /** A hook `caller` may read (see `list`); anyone else's is not found. */
  async get(caller: Caller, id: string): Promise<Hook> {
    const hook = await this.deps.hooks.get(id);
    if (!hook || !(caller.privileged || hook.createdBy === caller.id)) {
      throw new NotFound(`No webhook "${id}".`);
    }
    return toWireHook(hook);
  }

  /** A page of the delivery log of a hook `caller` may read, newest first. */
  async deliveries(
    caller: Caller,
    id: string,
    page: { top: number; skip: number },
  ): Promise<{ deliveries: HookDelivery[]; more: boolean; total: number }> {
    await this.get(caller, id);
    const { deliveries, more, total } = await this.deps.hooks.deliveries(id, page);
    return { deliveries: deliveries.map(toWireDelivery), more, total };
  }

  /**
   * Queues one delivery job (and its log entry) per active hook subscribed to `event` whose scope
   * it reaches (`domain/hookAudience.ts`: a `mine` hook only the events naming its creator), in the
   * transaction recording the event: the event and its deliveries commit together, so each hook
   * gets each event exactly once, and a restart loses none.
   */
  readonly enqueueDeliveries = async (
    trx: Kysely<Database> | Transaction<Database>,
    event: StewardEvent,
    now: Date,
  ): Promise<void> => {
    for (const hook of await this.deps.hooks.subscribedTo(event.type, trx)) {
      if (!reaches(hook, event.payload)) continue;
      const id = randomUUID();
      const data: DeliveryData = {
        hookId: hook.id,
        event: { id: event.id, type: event.type },
        payload: event.payload,
      };
      await this.deps.jobs.insert(
        {
          id,
          type: 'WebhookDelivery',
          queued: true,
          data,
          log: [`Deliver ${event.type} to webhook "${hook.name}".`],
          requesterId: SYSTEM_REQUESTER,
        },
        now,
        trx,
      );
      await this.deps.hooks.insertDelivery(
        { id, hookId: hook.id, eventId: event.id, eventType: event.type },
        now,
        trx,
      );
    }
  };

  /** Refuses (400, naming `body.config.url`) a URL deliveries may not go to. */
  private async checkUrl(raw: string): Promise<void> {
    const refuse = (refusal: UrlRefusal) => {
      throw new ValidationFailed('The webhook URL is not allowed.', [
        { code: refusal.code, target: 'body.config.url', message: refusal.message },
      ]);
    };
    const url = checkHookUrl(raw, this.deps.policy);
    if (isRefusal(url)) return refuse(url);
    if (hostLiteral(url) !== undefined) return;
    let addresses: string[];
    try {
      const resolving = this.deps.resolve(url.hostname);
      addresses = await withDeadline(resolving, RESOLVE_TIMEOUT_MS, () => new Error('timed out'));
    } catch {
      return refuse({ code: 'invalidUrl', message: `The host ${url.hostname} does not resolve.` });
    }
    if (addresses.length === 0) {
      return refuse({ code: 'invalidUrl', message: `The host ${url.hostname} does not resolve.` });
    }
    for (const address of addresses) {
      const reason = refusedAddress(address, this.deps.policy);
      if (reason) return refuse(forbidden(url.hostname, reason));
    }
  }

  auditEntry(caller: Caller, action: string, hook: StoredHook): AuditEntry {
    return callerRecord(caller, {
      trail: 'webhooks',
      action,
      target: { type: 'webhook', id: hook.id, displayName: hook.name },
      // The origin only: a URL's path or query may itself be a credential.
      details: {
        url: urlOrigin(hook.url),
        events: hook.events,
        active: hook.active,
        signed: !!hook.secret,
        scope: hook.scope,
        ...(hook.templateId ? { templateId: hook.templateId } : {}),
      },
    });
  }
}

/** A hook as the wire shows it: never its secret. */
export function toWireHook(hook: StoredHook): Hook {
  return {
    id: hook.id,
    name: hook.name,
    description: hook.description,
    active: hook.active,
    events: hook.events,
    config: { verb: 'post', url: hook.url, content_type: 'json', secret: hook.secret ? MASKED_SECRET : null },
    scope: hook.scope,
    templateId: hook.templateId,
    createdDateTime: hook.createdAt,
    lastModifiedDateTime: hook.updatedAt,
  };
}

function toWireDelivery(delivery: StoredDelivery): HookDelivery {
  return {
    id: delivery.id,
    hookId: delivery.hookId,
    event: delivery.eventType,
    eventId: delivery.eventId,
    status: delivery.status,
    attempts: delivery.attempts,
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    responseTimeMs: delivery.responseMs,
    createdDateTime: delivery.createdAt,
    lastModifiedDateTime: delivery.updatedAt,
    completedDateTime: delivery.completedAt,
  };
}
