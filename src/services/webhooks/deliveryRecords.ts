import { type AuditEntry, SYSTEM_ACTOR } from '../../domain/audit';
import type { StoredHook } from '../../store/webhooks/hooks';

/**
 * The audit record of a delivery skipped because its hook's maker may no longer read it
 * (`deliveryRefusal`): a refusal of Steward's own, not the hook's failure, whose streak it leaves.
 */
export function refusedDelivery(
  deliveryId: string,
  data: { event: { id: string; type: string } },
  hook: StoredHook,
  reason: string,
): AuditEntry {
  return {
    trail: 'webhooks',
    action: 'webhook_delivery_skipped',
    actor: SYSTEM_ACTOR,
    target: { type: 'webhook', id: hook.id, displayName: hook.name },
    outcome: 'denied',
    requestId: null,
    details: {
      deliveryId,
      event: data.event.type,
      eventId: data.event.id,
      subscriber: hook.createdBy,
      reason,
    },
  };
}
