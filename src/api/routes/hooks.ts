import { deliveryBody, signDeliveryBody } from '../../domain/webhookSignature';
import { HookSignature, HookSignatureRequest, HooksEvents } from '../../domain/wire';
import { EVENT_TYPES } from '../../services/events';
import { odataCollection } from '../odata';
import { defineRoute, type Route } from '../route';

/** Webhook helpers every user may call: the event codes, and the signature a delivery would carry. */
export function hookRoutes(): Route[] {
  return [
    defineRoute({
      operationId: 'generateHookSignature',
      method: 'post',
      path: '/hooks/signature',
      tag: 'Webhooks',
      summary: 'Compute the signature a webhook delivery of a payload carries',
      description:
        'The lowercase hex HMAC-SHA256, under the secret, of the payload’s JSON text: the same value a ' +
        'delivery of that payload sends in `X-Steward-Signature`, so receivers can test their checks.',
      body: HookSignatureRequest,
      responses: { 200: { description: 'The signature.', schema: HookSignature } },
      handle: async ({ body }) => ({
        status: 200,
        body: { signature: signDeliveryBody(body.secret, deliveryBody(body.payload)) },
      }),
    }),
    defineRoute({
      operationId: 'getHooksEvents',
      method: 'get',
      path: '/webhooks/events',
      tag: 'Webhooks',
      summary: 'List the event codes a webhook may subscribe to',
      responses: { 200: { description: 'The event codes.', schema: HooksEvents } },
      handle: async ({ baseUrl }) => ({
        status: 200,
        body: odataCollection(
          baseUrl,
          'hooksEvents',
          EVENT_TYPES.map((code) => ({ code })),
        ),
      }),
    }),
  ];
}
