import { createHmac } from 'node:crypto';

/**
 * The exact text a webhook delivery of `payload` sends as its body. Deliveries and
 * `generateHookSignature` both sign this text, so their signatures agree.
 */
export function deliveryBody(payload: unknown): string {
  return JSON.stringify(payload);
}

/**
 * What a delivery sends: the event's payload with the event code and the delivery id first (the
 * same values as `X-Steward-Event` and `X-Steward-Delivery`), so a receiver that keeps only bodies
 * still knows which event each one was, and two events of one job are never byte-identical.
 */
export function deliveryPayload(
  event: string,
  deliveryId: string,
  payload: Record<string, unknown>,
): Record<string, unknown> {
  return Object.assign({ event, deliveryId }, payload, { event, deliveryId });
}

/** Lowercase hex HMAC-SHA256 of `body` under `secret` (the `X-Steward-Signature` header). */
export function signDeliveryBody(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}
