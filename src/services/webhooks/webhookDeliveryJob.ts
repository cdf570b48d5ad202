import type { Transaction } from 'kysely';
import { z } from 'zod';
import { SYSTEM_ACTOR } from '../../domain/audit';
import { EVENT_TYPES } from '../../contract/events';
import type { StepDefinition, StoredJob } from '../../domain/jobs';
import { deliveryBody, deliveryPayload, signDeliveryBody } from '../../lib/webhookSignature';
import { urlOrigin } from '../../domain/webhookUrl';
import { deliveryRefusal, type SubscriberStanding } from '../../domain/hookAudience';
import type { StoredHook } from '../../store/webhooks/hooks';
import type { Database } from '../../store/schema';
import type { StewardEvent } from './events';
import { DeliveryFailed, type WebhookSender } from './webhookSender';
import type { HookSecrets, SigningSecret } from './hookSecrets';
import { type JobHandler, type JobRun, jobType, type StepName } from '../jobs/jobType';
import type { AuditLog } from '../audit/audit';
import { refusedDelivery } from './deliveryRecords';
import type { HookRepository } from '../../store/webhooks/hooks';

/** The data of a `WebhookDelivery` job: which hook, which event, and the payload to send. */
export const DeliveryData = z.looseObject({
  hookId: z.string(),
  event: z.looseObject({ id: z.string(), type: z.enum(EVENT_TYPES) }),
  payload: z.record(z.string(), z.unknown()),
  /** Set by the run: whether the payload was delivered or skipped (hook gone or inactive). */
  outcome: z.enum(['delivered', 'skipped']).optional(),
  /** Set by the run: why a delivery its subscriber may no longer read was skipped. */
  refused: z.string().optional(),
});
export type DeliveryData = z.output<typeof DeliveryData>;

const DELIVERY_STEPS = [
  { name: 'deliver', title: 'Deliver the event', weight: 90 },
  { name: 'finish', title: 'Finish', weight: 10 },
] as const satisfies readonly StepDefinition[];
type DeliveryStep = StepName<typeof DELIVERY_STEPS>;

/** The statuses that mean delivered; anything else (redirects included) is a failed attempt. */
const DELIVERED = new Set([200, 201, 202]);

/** How webhook deliveries are attempted (from the configuration). */
export interface WebhookDeliveryPolicy {
  /** Attempts after the first (default 2). */
  retries: number;
  /** Wait between attempts (default 10 s). */
  retryDelayMs: number;
  /** Consecutive failed deliveries (each after all its retries) that turn a hook inactive. */
  failureThreshold: number;
  /** `Steward-Webhook/<version>`. */
  userAgent: string;
}

/** What a delivery's handler needs. */
export interface WebhookDeliveryJobDeps {
  hooks: HookRepository;
  /** Opens a hook's sealed secret to sign its deliveries (`hookSecrets.ts`). */
  hookSecrets: HookSecrets;
  audit: AuditLog;
  sender: WebhookSender;
  log: { warn(o: object, m: string): void };
  webhooks: WebhookDeliveryPolicy;
  /** What the directory says of a hook's maker now (`DirectoryService.standing`, cached per person). */
  directory: { standing(id: string): Promise<SubscriberStanding> };
}

/**
 * Carries out `WebhookDelivery` jobs: one POST per attempt, with the same `X-Steward-Delivery` id
 * (the job's id) on every attempt, retried on its own schedule (not the platform's backoff), and
 * durable like every job, so a restart between attempts loses nothing. Delivery is at least once:
 * a crash after the receiver answered but before the job is marked done sends it again, with the
 * same delivery id for the receiver to recognise.
 *
 * Each attempt's status code, error and response time go to the delivery log as it happens; the
 * final status goes in the transaction that ends the job, with the audit records of a failed
 * delivery and, when the failure streak reaches the threshold, of the hook turning inactive.
 */
class WebhookDeliveryHandler implements JobHandler<DeliveryData, DeliveryStep> {
  private readonly policy: WebhookDeliveryPolicy;

  constructor(private readonly deps: WebhookDeliveryJobDeps) {
    this.policy = deps.webhooks;
  }

  async run(run: JobRun<DeliveryData, DeliveryStep>): Promise<void> {
    const { job, data } = run;
    await run.step('deliver', async () => {
      const hook = await this.deps.hooks.get(data.hookId);
      if (!hook || !hook.active) {
        return {
          data: { ...data, outcome: 'skipped' },
          log: [hook ? 'Skipped: the webhook is inactive.' : 'Skipped: the webhook was deleted.'],
        };
      }
      // Checked at each delivery, not only when the event was recorded: access lost since then counts.
      const refused = deliveryRefusal(hook, await this.standingOf(hook));
      if (refused) return { data: { ...data, outcome: 'skipped', refused }, log: [`Skipped: ${refused}`] };
      const attempts = job.attempts + 1;
      const body = deliveryBody(deliveryPayload(data.event.type, job.id, data.payload));
      try {
        const headers = this.headers(hook, job, data, body, await this.deps.hookSecrets.signingSecret(hook));
        const sent = await this.deps.sender.send(hook.url, headers, body);
        if (!DELIVERED.has(sent.statusCode)) {
          const message = `The receiver answered HTTP ${sent.statusCode}.`;
          throw new DeliveryFailed(message, true, sent.statusCode, sent.responseMs);
        }
        await this.deps.hooks.recordAttempt(
          job.id,
          { attempts, statusCode: sent.statusCode, error: null, responseMs: sent.responseMs },
          new Date(),
        );
        return {
          data: { ...data, outcome: 'delivered' },
          log: [`Delivered to ${urlOrigin(hook.url)}: HTTP ${sent.statusCode} in ${sent.responseMs} ms.`],
        };
      } catch (error) {
        if (error instanceof DeliveryFailed) {
          const retrying = this.retryDelay(error, attempts) !== undefined;
          await this.deps.hooks.recordAttempt(
            job.id,
            {
              attempts,
              statusCode: error.statusCode,
              error: error.message,
              responseMs: error.responseMs,
              ...(retrying ? { status: 'retrying' as const } : {}),
            },
            new Date(),
          );
        }
        throw error;
      }
    });
  }

  /** The maker's standing; an application's hook needs none (`deliveryRefusal`), so none is read. */
  private standingOf(hook: StoredHook): Promise<SubscriberStanding> {
    if (hook.creatorKind === 'app') return Promise.resolve({ person: false, roles: undefined });
    return this.deps.directory.standing(hook.createdBy);
  }

  /** The retry policy: `retries` more attempts, `retryDelayMs` apart, unless retrying cannot help. */
  retryDelay(error: unknown, attempt: number): number | undefined {
    if (error instanceof DeliveryFailed && !error.retryable) return undefined;
    return attempt <= this.policy.retries ? this.policy.retryDelayMs : undefined;
  }

  async completed(
    job: StoredJob,
    data: DeliveryData,
    trx: Transaction<Database>,
    now: Date,
  ): Promise<StewardEvent[]> {
    if (data.outcome === 'skipped') {
      const hook = await this.heldHook(job, data, trx);
      if (!hook) return [];
      await this.deps.hooks.closeDelivery(job.id, 'skipped', now, trx, data.refused);
      if (data.refused)
        await this.deps.audit.record(trx, refusedDelivery(job.id, data, hook, data.refused), now);
      return [];
    }
    await this.deps.hooks.closeDelivery(job.id, 'delivered', now, trx);
    await this.deps.hooks.resetFailures(data.hookId, now, trx);
    return [];
  }

  async failed(
    job: StoredJob,
    data: DeliveryData,
    reason: string,
    trx: Transaction<Database>,
    now: Date,
  ): Promise<StewardEvent[]> {
    const hook = await this.heldHook(job, data, trx);
    if (!hook) return [];
    await this.deps.hooks.closeDelivery(job.id, 'failed', now, trx, reason);
    const target = { type: 'webhook', id: hook.id, displayName: hook.name };
    await this.deps.audit.record(
      trx,
      {
        trail: 'webhooks',
        action: 'webhook_delivery_failed',
        actor: SYSTEM_ACTOR,
        target,
        outcome: 'failure',
        requestId: null,
        details: {
          deliveryId: job.id,
          event: data.event.type,
          eventId: data.event.id,
          attempts: job.attempts + 1,
          reason,
        },
      },
      now,
    );
    const streak = await this.deps.hooks.noteFailure(hook.id, this.policy.failureThreshold, now, trx);
    if (streak?.deactivated) {
      await this.deps.audit.record(
        trx,
        {
          trail: 'webhooks',
          action: 'webhook_deactivated',
          actor: SYSTEM_ACTOR,
          target,
          outcome: 'success',
          requestId: null,
          details: {
            consecutiveFailures: streak.consecutiveFailures,
            threshold: this.policy.failureThreshold,
            lastDeliveryId: job.id,
          },
        },
        streak.at,
      );
      this.deps.log.warn(
        { hookId: hook.id, url: urlOrigin(hook.url), consecutiveFailures: streak.consecutiveFailures },
        'webhook turned inactive after consecutive failed deliveries',
      );
    }
    return [];
  }

  /**
   * The delivery's hook; when it is gone, its log entry goes too: deleting a hook deletes its log,
   * but an event recorded while it was being deleted may have queued this delivery after that.
   */
  private async heldHook(job: StoredJob, data: DeliveryData, trx: Transaction<Database>) {
    const hook = await this.deps.hooks.get(data.hookId, trx);
    if (!hook) await this.deps.hooks.dropDelivery(job.id, trx);
    return hook;
  }

  /**
   * A delivery's headers, signed when the hook has a secret. A secret this deployment cannot open
   * (sealed under another key) fails the delivery at once: never sent unsigned.
   */
  private headers(
    hook: StoredHook,
    job: StoredJob,
    data: DeliveryData,
    body: string,
    signing: SigningSecret,
  ): Record<string, string> {
    if ('unreadable' in signing) {
      throw new DeliveryFailed(
        "The webhook's secret was sealed with another key than this process's (STEWARD_DELEGATION_KEY); " +
          'give every process the same key, or create the hook again.',
        false,
      );
    }
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': this.policy.userAgent,
      'x-steward-webhook': hook.id,
      'x-steward-event': data.event.type,
      'x-steward-delivery': job.id,
    };
    if (signing.secret) headers['x-steward-signature'] = signDeliveryBody(signing.secret, body);
    return headers;
  }
}

/** `WebhookDelivery`: one event POSTed to one webhook, with its own retry schedule. */
export const webhookDeliveryJob = jobType({
  type: 'WebhookDelivery',
  data: DeliveryData,
  steps: () => DELIVERY_STEPS,
  handler: (deps: WebhookDeliveryJobDeps) => new WebhookDeliveryHandler(deps),
});
