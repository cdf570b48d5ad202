import type {
  Hook,
  HookDeliveries,
  HookPayload,
  HookSubscriptionPayload,
  Hooks,
  HookSignature,
  HookSignatureRequest,
  HooksEvents,
} from '../models';
import type { CallOptions } from '../options';
import { apiPath } from '../url';
import { bodyOf, type Send } from './send';

/** Webhooks: subscriptions, their deliveries, and the helpers for receivers. */
export function hookOperations(send: Send) {
  const hook = (hookId: string) => apiPath('/hooks/{hookId}', { hookId });

  return {
    /** Subscribes a webhook to events (`POST /hooks`, 201). Never retried. */
    async createHook(payload: HookPayload, options?: CallOptions): Promise<Hook> {
      return bodyOf(
        send,
        { operationId: 'createHook', method: 'POST', path: '/hooks', body: payload },
        options,
      );
    },

    /** Deletes a webhook (`DELETE /hooks/{hookId}`); resolves to the deleted hook. */
    async deleteHook(hookId: string, options?: CallOptions): Promise<Hook> {
      return bodyOf(send, { operationId: 'deleteHook', method: 'DELETE', path: hook(hookId) }, options);
    },

    /**
     * Subscribes a webhook to one event as a Power Automate trigger does (`POST /hooks/{eventCode}`,
     * 201, an extension); `DELETE` the answer's `Location` (`deleteHookSubscription`) to unsubscribe.
     * Never retried.
     */
    async createHookSubscription(
      eventCode: string,
      payload: HookSubscriptionPayload,
      options?: CallOptions,
    ): Promise<Hook> {
      const path = apiPath('/hooks/{eventCode}', { eventCode });
      return bodyOf(
        send,
        { operationId: 'createHookSubscription', method: 'POST', path, body: payload },
        options,
      );
    },

    /** Ends a subscription (`DELETE /hooks/subscriptions/{hookId}`, an extension): the deleted webhook. */
    async deleteHookSubscription(hookId: string, options?: CallOptions): Promise<Hook> {
      const path = apiPath('/hooks/subscriptions/{hookId}', { hookId });
      return bodyOf(send, { operationId: 'deleteHookSubscription', method: 'DELETE', path }, options);
    },

    /** Brings back a webhook turned inactive by failed deliveries (`POST /hooks/{hookId}/activate`, an extension). */
    async activateHook(hookId: string, options?: CallOptions): Promise<Hook> {
      const path = apiPath('/hooks/{hookId}/activate', { hookId });
      return bodyOf(send, { operationId: 'activateHook', method: 'POST', path }, options);
    },

    /** Lists the webhooks (`GET /hooks`, an extension). */
    async listHooks(options?: CallOptions): Promise<Hooks> {
      return bodyOf(send, { operationId: 'listHooks', method: 'GET', path: '/hooks' }, options);
    },

    /** Reads a webhook (`GET /hooks/{hookId}`, an extension). */
    async getHook(hookId: string, options?: CallOptions): Promise<Hook> {
      return bodyOf(send, { operationId: 'getHook', method: 'GET', path: hook(hookId) }, options);
    },

    /** Lists a webhook's deliveries, newest first (`GET /hooks/{hookId}/deliveries`, an extension). */
    async getHookDeliveries(
      hookId: string,
      query: { top?: number; skip?: number } = {},
      options?: CallOptions,
    ): Promise<HookDeliveries> {
      const path = apiPath('/hooks/{hookId}/deliveries', { hookId }, { $top: query.top, $skip: query.skip });
      return bodyOf(send, { operationId: 'getHookDeliveries', method: 'GET', path }, options);
    },

    /**
     * Computes the signature a delivery of `request.payload` carries (`POST /hooks/signature`).
     * A pure computation on the server, so retried.
     */
    async generateHookSignature(
      request: HookSignatureRequest,
      options?: CallOptions,
    ): Promise<HookSignature> {
      const operationId = 'generateHookSignature';
      const path = '/hooks/signature';
      return bodyOf(send, { operationId, method: 'POST', path, body: request, idempotent: true }, options);
    },

    /** Lists the event codes a webhook may subscribe to (`GET /webhooks/events`). */
    async getHooksEvents(options?: CallOptions): Promise<HooksEvents> {
      return bodyOf(
        send,
        { operationId: 'getHooksEvents', method: 'GET', path: '/webhooks/events' },
        options,
      );
    },
  };
}

/** The webhook operations of the client. */
export type HookOperations = ReturnType<typeof hookOperations>;
