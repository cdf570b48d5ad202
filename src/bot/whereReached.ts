import { type TurnContext, TurnContext as Turn } from 'botbuilder';
import type { ApproverDeliveries } from './approvals/approverDeliveries';
import type { BotLog } from './botLog';
import type { GuestReviewConversation } from './lifecycle/guestReview';
import type { JoiningConversation } from './joining/joining';
import type { DriftConversation } from './drift/drift';
import type { LifecycleConversation } from './lifecycle/lifecycle';
import type { OwnerlessConversation } from './lifecycle/ownerless';
import { type Reader, sameReader } from './i18n/catalog';
import type { BotIdentity } from './shared/botIdentity';
import { senderKnown } from './knownSender';
import type { ReachState } from './reachState';

/** What remembering where people are reached needs. */
export interface WhereReachedDependencies {
  reachState: ReachState;
  /** Whether the sender is someone the bot keeps records for. */
  identity: Pick<BotIdentity, 'knows'>;
  deliveries: ApproverDeliveries;
  lifecycle: Pick<LifecycleConversation, 'retryFor'>;
  ownerless: Pick<OwnerlessConversation, 'retryFor'>;
  guestReviews: Pick<GuestReviewConversation, 'retryFor'>;
  joining: Pick<JoiningConversation, 'retryFor'>;
  drift: Pick<DriftConversation, 'retryFor'>;
  log: BotLog;
}

/**
 * Stores the person's 1:1 conversation reference and Teams id, and the channel (service URL, the
 * bot's id, the tenant), when they changed: proactive cards (approvals, progress) need them. A
 * sender the directory does not know is stored nowhere: no card is ever sent to them unasked. A
 * failure is logged and the turn goes on, since the turn itself does not depend on it.
 */
export async function rememberWhereReached(
  context: TurnContext,
  deps: WhereReachedDependencies,
  reader: Reader,
): Promise<void> {
  const { from, serviceUrl, channelId, recipient, conversation } = context.activity;
  const aadObjectId = from?.aadObjectId;
  if (!aadObjectId || !serviceUrl || !conversation?.id || conversation.isGroup) return;
  try {
    const known = await deps.reachState.user(aadObjectId);
    if (!known && !(await senderKnown(context, deps.identity))) return;
    const reference = Turn.getConversationReference(context.activity);
    if (
      known?.reference.conversation?.id !== conversation.id ||
      known.teamsUserId !== from.id ||
      known.reference.serviceUrl !== serviceUrl ||
      !sameReader(known.reader, reader)
    ) {
      // How they read too: cards sent to them unasked (approval cards) are in their language.
      await deps.reachState.saveUser(aadObjectId, {
        reference,
        teamsUserId: from.id,
        name: from.name ?? '',
        reader,
      });
      // Reachable now: approval and lifecycle cards that could not reach them go out at once.
      await deps.deliveries.retryFor(aadObjectId);
      await deps.lifecycle.retryFor(aadObjectId);
      await deps.ownerless.retryFor(aadObjectId);
      await deps.guestReviews.retryFor(aadObjectId);
      await deps.joining.retryFor(aadObjectId);
      await deps.drift.retryFor(aadObjectId);
    }
    const tenantId =
      conversation.tenantId ?? (context.activity.channelData as { tenant?: { id?: string } })?.tenant?.id;
    const home = await deps.reachState.channel();
    if (home?.serviceUrl !== serviceUrl || home.bot.id !== recipient.id) {
      await deps.reachState.saveChannel({
        serviceUrl,
        channelId,
        bot: { id: recipient.id, name: recipient.name ?? 'Steward' },
        tenantId: tenantId ?? null,
      });
    }
  } catch (error) {
    deps.log.warn({ err: error }, 'could not remember a conversation');
  }
}
