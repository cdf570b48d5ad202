import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EventType, HookPayload, StewardClient } from '../client';
import { isStatus } from './apiFailures';
import type { BotLog } from './botLog';
import type { ApprovalConversation } from './approvals/approvals';
import type { LifecycleConversation } from './lifecycle/lifecycle';
import type { GuestReviewConversation } from './lifecycle/guestReview';
import type { JoiningConversation } from './joining/joining';
import type { OwnerlessConversation } from './lifecycle/ownerless';
import type { DriftConversation } from './drift/drift';
import type { ProgressTracker } from './requests/progress';
import type { BotIdentity } from './shared/botIdentity';
import type { WebhookRegistration, WebhookState } from './webhookState';

/**
 * Every event this version of Steward emits, for when the bot may not list them: the client carries
 * no values of the server, and `satisfies` makes the compiler refuse a missing or unknown code.
 */
const EVENT_TYPES = Object.keys({
  team_created: true,
  team_provisioning_completed: true,
  team_provisioning_failed: true,
  team_creation_approval_requested: true,
  team_creation_approved: true,
  team_creation_rejected: true,
  team_creation_approval_reminder: true,
  team_creation_approval_escalated: true,
  team_archived: true,
  team_unarchived: true,
  team_deleted: true,
  team_expiring: true,
  team_renewed: true,
  team_kept_active: true,
  team_expired: true,
  team_inactive: true,
  team_ownerless: true,
  team_guest_review_due: true,
  team_join_requested: true,
  team_join_decided: true,
  team_member_joined: true,
  team_drift_owners_asked: true,
  team_drift_applied: true,
  team_drift_apply_failed: true,
} satisfies Record<EventType, true>) as EventType[];

/** Where Steward delivers the bot's webhook, under the bot's public URL. */
export const NOTIFICATIONS_PATH = '/api/notifications';

/** What the webhook receiver needs. */
export interface NotificationDependencies {
  client: StewardClient;
  identity: BotIdentity;
  webhookState: WebhookState;
  approvals: ApprovalConversation;
  progress: ProgressTracker;
  lifecycle: LifecycleConversation;
  ownerless: OwnerlessConversation;
  guestReviews: GuestReviewConversation;
  joining: JoiningConversation;
  drift: DriftConversation;
  log: BotLog;
}

/** A delivery as it arrived: the exact body bytes and the headers that matter. */
export interface Delivery {
  body: Buffer;
  signature: string | undefined;
  event: string | undefined;
  deliveryId: string | undefined;
}

/** Whether `signature` is the lowercase hex HMAC-SHA256 of `body` under `secret` (constant-time). */
export function signatureMatches(body: Buffer, signature: string | undefined, secret: string): boolean {
  if (!signature || !/^[0-9a-f]{64}$/i.test(signature.trim())) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(signature.trim(), 'hex'));
}

type Json = Record<string, unknown>;
const idAt = (payload: Json, key: string): string => {
  const value = payload[key];
  const id = value && typeof value === 'object' ? (value as Json).id : undefined;
  return typeof id === 'string' ? id : '';
};

/** The ids of the people listed under `key` (a reminder's undecided approvers). */
const idsAt = (payload: Json, key: string): string[] => {
  const list = payload[key];
  return (Array.isArray(list) ? list : [])
    .map((item: unknown) => (item && typeof item === 'object' ? (item as Json).id : undefined))
    .filter((id): id is string => typeof id === 'string');
};

/**
 * The bot's webhook: registered at start-up with the bot's app identity (one hook for every bot
 * process, its secret kept in the bot state), and the receiver of its deliveries, which acts on a
 * delivery only when its `X-Steward-Signature` matches.
 */
export class Notifications {
  private secret: string | undefined;

  constructor(private readonly deps: NotificationDependencies) {}

  /**
   * Makes sure a hook delivers every event to `${publicUrl}/api/notifications`: reuses the stored
   * registration (and its secret) when its hook is still active, else creates one.
   */
  async register(publicUrl: string): Promise<WebhookRegistration> {
    const url = `${publicUrl.replace(/\/+$/, '')}${NOTIFICATIONS_PATH}`;
    const { client, webhookState } = this.deps;
    const app = { token: () => this.deps.identity.appToken() };
    let registration = await webhookState.webhook();
    if (!registration) {
      const fresh = { url, secret: randomBytes(32).toString('hex'), hookId: null };
      registration = (await webhookState.createWebhook(fresh))
        ? fresh
        : ((await webhookState.webhook()) ?? fresh);
    }
    this.secret = registration.secret;
    if (registration.hookId) {
      const hook = await client.getHook(registration.hookId, app).catch((error: unknown) => {
        if (isStatus(error, 404)) return undefined;
        throw error;
      });
      // A hook an earlier version registered misses the events added since (requests to join).
      const everyEvent = !!hook && EVENT_TYPES.every((type) => hook.events.includes(type));
      if (hook?.active && everyEvent && hook.config.url === url && registration.url === url)
        return registration;
      // Gone quiet after failed deliveries, pointing elsewhere, or short of events: replace it.
      if (hook) await client.deleteHook(hook.id, app).catch(() => undefined);
    }
    // Every event this version of Steward emits. `GET /webhooks/events` would say the same, but it
    // is an operation for people: the bot's app identity may not call it, and a refused call at
    // every start would fill the security trail with access_denied records.
    const events: HookPayload['events'] = [...EVENT_TYPES];
    const hook = await client.createHook(
      {
        name: 'Steward bot',
        description: 'Progress, approval and lifecycle cards in Teams.',
        active: true,
        events,
        config: { verb: 'post', url, content_type: 'json', secret: registration.secret },
      },
      app,
    );
    registration = { url, secret: registration.secret, hookId: hook.id };
    await webhookState.saveWebhook(registration);
    this.deps.log.info({ hookId: hook.id, url }, 'bot webhook registered');
    return registration;
  }

  /**
   * Handles one delivery; resolves to the HTTP status to answer: 401 (and nothing done) when the
   * signature does not match, 400 for a body that is not JSON, 503 when acting on it failed (Steward
   * delivers it again), 200 when done.
   */
  async receive(delivery: Delivery): Promise<number> {
    this.secret ??= (await this.deps.webhookState.webhook())?.secret;
    if (!this.secret || !signatureMatches(delivery.body, delivery.signature, this.secret)) return 401;
    let payload: Json;
    try {
      const parsed: unknown = JSON.parse(delivery.body.toString('utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return 400;
      payload = parsed as Json;
    } catch {
      return 400;
    }
    try {
      await this.act(delivery.event ?? '', payload);
      return 200;
    } catch (error) {
      this.deps.log.warn(
        { err: error, event: delivery.event, delivery: delivery.deliveryId },
        'delivery failed',
      );
      return 503;
    }
  }

  private async act(event: string, payload: Json): Promise<void> {
    const jobId = idAt(payload, 'provisioning');
    const approvalId = idAt(payload, 'approval');
    switch (event) {
      case 'team_creation_approval_requested':
        if (approvalId && jobId) await this.deps.approvals.announce(approvalId, jobId);
        if (jobId) this.deps.progress.refreshSoon(jobId);
        return;
      case 'team_creation_approval_escalated':
        // The escalation team gets the card, saying why it arrived.
        if (approvalId && jobId) await this.deps.approvals.announce(approvalId, jobId);
        return;
      case 'team_creation_approval_reminder':
        if (approvalId && jobId)
          await this.deps.approvals.remind(approvalId, jobId, idsAt(payload, 'reminded'));
        return;
      case 'team_creation_approved':
      case 'team_creation_rejected':
        if (approvalId) await this.deps.approvals.showDecision(approvalId);
        if (jobId) this.deps.progress.refreshSoon(jobId);
        return;
      case 'team_provisioning_failed':
        // Withdrawn by its requester: the approvers' cards say so (and the requester's card moves on).
        if (payload.reason === 'withdrawn' && approvalId) await this.deps.approvals.showDecision(approvalId);
        if (jobId) this.deps.progress.refreshSoon(jobId);
        return;
      case 'team_created':
      case 'team_provisioning_completed':
        if (jobId) this.deps.progress.refreshSoon(jobId);
        return;
      // Lifecycle notices: the owners' renewal and inactivity cards, kept up to date.
      case 'team_expiring':
        await this.deps.lifecycle.announceRenewal(payload);
        return;
      case 'team_renewed':
        await this.deps.lifecycle.showRenewed(payload);
        return;
      case 'team_kept_active':
        await this.deps.lifecycle.showKept(payload);
        return;
      case 'team_inactive':
        await this.deps.lifecycle.announceInactivity(payload);
        return;
      case 'team_archived':
        await this.deps.lifecycle.showArchived(payload);
        return;
      case 'team_ownerless':
        await this.deps.ownerless.announce(payload);
        return;
      case 'team_guest_review_due':
        await this.deps.guestReviews.announce(payload);
        return;
      // Requests to join teams: the owners' cards, and the asker told.
      case 'team_join_requested':
        await this.deps.joining.announce(payload);
        return;
      case 'team_join_decided':
        await this.deps.joining.showDecision(payload);
        return;
      case 'team_member_joined':
        await this.deps.joining.showJoined(payload);
        return;
      // A template's new version: its owners are asked whether to add what it now has.
      case 'team_drift_owners_asked':
        await this.deps.drift.announce(payload);
        return;
      case 'team_drift_applied':
        await this.deps.drift.showOutcome(payload, 'applied');
        return;
      case 'team_drift_apply_failed':
        await this.deps.drift.showOutcome(payload, 'failed');
        return;
      default:
        // Other events of teams (unarchived, deleted…) have no card.
        return;
    }
  }
}
