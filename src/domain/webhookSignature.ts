import { createHmac } from 'node:crypto';

/**
 * The exact text a webhook delivery of `payload` sends as its body. Deliveries and
 * `generateHookSignature` both sign this text, so their signatures agree.
 */
export function deliveryBody(payload: unknown): string {
  return JSON.stringify(payload);
}

/** Lowercase hex HMAC-SHA256 of `body` under `secret` (the `X-Steward-Signature` header). */
export function signDeliveryBody(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}
