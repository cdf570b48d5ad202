import type { Caller } from '../../domain/caller';
import { Forbidden, NotFound, ValidationFailed } from '../../domain/errors';
import type { Hook, HookSubscriptionPayload } from '../../contract';
import type { EventType } from '../../contract/events';
import type { StoredHook } from '../../store/webhooks/hooks';
import { type HookService, type HookServiceDependencies, toWireHook } from './hooks';

/**
 * Subscriptions to one event each, as Power Automate's triggers make them (`POST /hooks/{event}`,
 * then `DELETE` on the answer's Location), and the way back for a hook that failed too often.
 *
 * Anyone may subscribe to the events that name them (`mine`); a template's or the tenant's events
 * are for the callers the operation's admin roles exempt (`caller.privileged`: integration managers,
 * Teams and global admins). A subscription is managed by whoever made it, or by those roles; anyone
 * else is told it does not exist.
 */
export class HookSubscriptions {
  constructor(
    private readonly deps: HookServiceDependencies,
    private readonly hooks: HookService,
    /** Whether the catalog holds template `id` (a `template` subscription must name one). */
    private readonly templateExists: (id: string) => Promise<boolean>,
  ) {}

  async subscribe(caller: Caller, event: EventType, payload: HookSubscriptionPayload): Promise<Hook> {
    if (payload.scope !== 'mine' && !caller.privileged) {
      throw new Forbidden(
        `Only integration managers and admins may subscribe to ${payload.scope === 'template' ? 'a template’s' : 'the tenant’s'} events; subscribe with scope "mine".`,
      );
    }
    if (payload.scope === 'mine' && caller.kind !== 'user') {
      throw new ValidationFailed('An application has no events of its own.', [
        { code: 'invalidValue', target: 'body.scope', message: 'Use "template" or "tenant".' },
      ]);
    }
    if (payload.templateId !== undefined && !(await this.templateExists(payload.templateId))) {
      throw new ValidationFailed(`No template "${payload.templateId}".`, [
        { code: 'invalidValue', target: 'body.templateId', message: 'Name a template of the catalog.' },
      ]);
    }
    const hook = await this.hooks.insert(caller, {
      name: payload.name,
      description: payload.description ?? null,
      active: true,
      events: [event],
      url: payload.config.url,
      secret: payload.config.secret,
      scope: payload.scope,
      templateId: payload.templateId ?? null,
    });
    return toWireHook(hook);
  }

  /** Deletes a subscription (and its delivery log): what Power Automate calls when a flow stops. */
  async unsubscribe(caller: Caller, id: string): Promise<Hook> {
    const now = this.now();
    const hook = await this.deps.db.transaction().execute(async (trx) => {
      const found = await this.deps.hooks.getForUpdate(id, trx);
      if (!found || !this.manages(caller, found) || !(await this.deps.hooks.delete(id, trx)))
        return undefined;
      await this.deps.audit.record(trx, this.hooks.auditEntry(caller, 'webhook_deleted', found), now);
      return found;
    });
    if (!hook) throw new NotFound(`No webhook "${id}".`);
    return toWireHook(hook);
  }

  /**
   * Turns a hook made inactive (by failed deliveries, or created so) active again, its failure
   * streak reset, with an audit record; a hook already active is answered as it is.
   */
  async activate(caller: Caller, id: string): Promise<Hook> {
    const now = this.now();
    const hook = await this.deps.db.transaction().execute(async (trx) => {
      // Held: an activation or deletion that came first has ended, and the answer is the hook as it is.
      const found = await this.deps.hooks.getForUpdate(id, trx);
      if (!found || !this.manages(caller, found)) return undefined;
      if (found.active || !(await this.deps.hooks.activate(id, now, trx))) return found;
      const entry = this.hooks.auditEntry(caller, 'webhook_activated', found);
      const details = { ...entry.details, consecutiveFailures: found.consecutiveFailures };
      await this.deps.audit.record(trx, { ...entry, details }, now);
      return (await this.deps.hooks.get(id, trx))!;
    });
    if (!hook) throw new NotFound(`No webhook "${id}".`);
    return toWireHook(hook);
  }

  private manages(caller: Caller, hook: StoredHook): boolean {
    return caller.privileged || hook.createdBy === caller.id;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
