import { z } from 'zod';
import { deliveryBody, signDeliveryBody } from '../../lib/webhookSignature';
import {
  Hook,
  HookDeliveries,
  HookPayload,
  Hooks,
  HookSignature,
  HookSignatureRequest,
  HooksEvents,
  HookSubscriptionPayload,
} from '../../contract';
import { EVENT_TYPES } from '../../services/webhooks/events';
import type { HookService } from '../../services/webhooks/hooks';
import type { HookSubscriptions } from '../../services/webhooks/subscriptions';
import { odataCollection } from '../odata';
import { API_BASE, defineRoute, type Route } from '../route';

const HookParams = z.object({
  hookId: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, 'A webhook id is 1–64 letters, digits or "-".')
    .describe('The webhook id.'),
});
const DeliveriesQuery = z.strictObject({
  $top: z.coerce.number().int().min(1).max(500).default(50).describe('Page size (1–500).'),
  $skip: z.coerce.number().int().min(0).max(100_000).default(0).describe('Deliveries to skip.'),
});

/**
 * Webhooks: creating and deleting hooks (integration managers and admins; secrets are write-only),
 * reading them and their delivery logs (those roles, and the people who made them), and the helpers
 * every user may call (event codes, signatures).
 */
export function hookRoutes(hooks: HookService, subscriptions: HookSubscriptions): Route[] {
  return [
    ...subscriptionRoutes(subscriptions),
    defineRoute({
      operationId: 'createHook',
      method: 'post',
      path: '/hooks',
      tag: 'Webhooks',
      summary: 'Create a webhook',
      description:
        'Deliveries are POSTed as JSON, the event’s payload starting with `event` (the event code) and ' +
        '`deliveryId`, with `X-Steward-Webhook`, `X-Steward-Event`, `X-Steward-Delivery` and, when ' +
        'the hook has a secret, `X-Steward-Signature`. The URL must be https (http only to loopback where allowed) ' +
        'and reach a public address. The secret is write-only: responses show `config.secret` as `"********"`.',
      body: HookPayload,
      responses: {
        201: { description: 'The webhook.', schema: Hook, headers: { Location: 'The webhook’s URL.' } },
      },
      handle: async ({ caller, body, baseUrl }) => {
        const hook = await hooks.create(caller, body);
        return { status: 201, body: hook, headers: { Location: `${baseUrl}${API_BASE}/hooks/${hook.id}` } };
      },
    }),
    defineRoute({
      operationId: 'listHooks',
      method: 'get',
      path: '/hooks',
      tag: 'Webhooks',
      summary: 'List the webhooks',
      description:
        'Integration managers, Teams and global admins see every hook; anyone else the hooks they made (their ' +
        'subscriptions, `POST /hooks/{eventCode}`).',
      responses: { 200: { description: 'The webhooks, oldest first.', schema: Hooks } },
      handle: async ({ caller, baseUrl }) => ({
        status: 200,
        body: odataCollection(baseUrl, 'hooks', await hooks.list(caller)),
      }),
    }),
    defineRoute({
      operationId: 'getHook',
      method: 'get',
      path: '/hooks/{hookId}',
      tag: 'Webhooks',
      summary: 'Read a webhook',
      description: 'A plain user reads the hooks they made; another’s is not found (404).',
      params: HookParams,
      responses: { 200: { description: 'The webhook.', schema: Hook } },
      handle: async ({ caller, params }) => ({ status: 200, body: await hooks.get(caller, params.hookId) }),
    }),
    defineRoute({
      operationId: 'deleteHook',
      method: 'delete',
      path: '/hooks/{hookId}',
      tag: 'Webhooks',
      summary: 'Delete a webhook',
      description: 'Deletes the hook and its delivery log; deliveries still queued for it are skipped.',
      params: HookParams,
      responses: { 200: { description: 'The deleted webhook.', schema: Hook } },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await hooks.delete(caller, params.hookId),
      }),
    }),
    defineRoute({
      operationId: 'getHookDeliveries',
      method: 'get',
      path: '/hooks/{hookId}/deliveries',
      tag: 'Webhooks',
      summary: 'Page through a webhook’s delivery log, newest first',
      description:
        'A plain user reads the log of the hooks they made; another’s is not found (404). A delivery its ' +
        'subscriber may no longer read is `skipped`, the reason in `lastError`.',
      params: HookParams,
      query: DeliveriesQuery,
      responses: { 200: { description: 'A page of deliveries.', schema: HookDeliveries } },
      handle: async ({ caller, params, query, baseUrl }) => {
        const page = await hooks.deliveries(caller, params.hookId, { top: query.$top, skip: query.$skip });
        const next = new URLSearchParams({
          $top: String(query.$top),
          $skip: String(query.$skip + query.$top),
        });
        const nextLink = page.more
          ? `${baseUrl}${API_BASE}/hooks/${encodeURIComponent(params.hookId)}/deliveries?${next}`
          : undefined;
        return {
          status: 200,
          body: odataCollection(baseUrl, 'hookDeliveries', page.deliveries, { count: page.total, nextLink }),
        };
      },
    }),
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

const EventParams = z.object({
  eventCode: z.enum(EVENT_TYPES).describe('The event to subscribe to (see `GET /webhooks/events`).'),
});

/**
 * Subscriptions to one event each (extensions): the shape Power Automate's webhook triggers use
 * (docs/guides/power-automate.md), and bringing an inactive hook back.
 */
function subscriptionRoutes(subscriptions: HookSubscriptions): Route[] {
  return [
    defineRoute({
      operationId: 'createHookSubscription',
      method: 'post',
      path: '/hooks/{eventCode}',
      tag: 'Webhooks',
      summary: 'Subscribe to one event (an extension)',
      description:
        'A webhook receiving one event, as a Power Automate trigger subscribes: deliveries as for `POST /hooks`. ' +
        'Anyone may subscribe to the events that name them (`scope: "mine"`); integration managers and admins ' +
        'also to a template’s or the tenant’s. `DELETE` on the answer’s `Location` unsubscribes.',
      params: EventParams,
      body: HookSubscriptionPayload,
      responses: {
        201: {
          description: 'The subscription’s webhook.',
          schema: Hook,
          headers: { Location: 'Where to `DELETE` to unsubscribe.' },
        },
      },
      handle: async ({ caller, params, body, baseUrl }) => {
        const hook = await subscriptions.subscribe(caller, params.eventCode, body);
        const location = `${baseUrl}${API_BASE}/hooks/subscriptions/${hook.id}`;
        return { status: 201, body: hook, headers: { Location: location } };
      },
    }),
    defineRoute({
      operationId: 'deleteHookSubscription',
      method: 'delete',
      path: '/hooks/subscriptions/{hookId}',
      tag: 'Webhooks',
      summary: 'Unsubscribe: delete a webhook its caller made (an extension)',
      description: 'What a Power Automate trigger calls when its flow is turned off or deleted.',
      params: HookParams,
      responses: { 200: { description: 'The deleted webhook.', schema: Hook } },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await subscriptions.unsubscribe(caller, params.hookId),
      }),
    }),
    defineRoute({
      operationId: 'activateHook',
      method: 'post',
      path: '/hooks/{hookId}/activate',
      tag: 'Webhooks',
      summary: 'Turn an inactive webhook active again (an extension)',
      description:
        'Brings back a hook that failed deliveries turned inactive: its failure count starts again from zero, ' +
        'and the change is audited. Events recorded while it was inactive are not sent.',
      params: HookParams,
      responses: { 200: { description: 'The webhook, active.', schema: Hook } },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await subscriptions.activate(caller, params.hookId),
      }),
    }),
  ];
}
