import { z } from 'zod';
import { EVENT_TYPES } from './events';
import { model, multiLine, odataCollection } from './registry';

export const HookSignatureRequest = model(
  'HookSignatureRequest',
  z.strictObject({
    secret: z.string().min(1).max(1024).describe('The hook’s secret.'),
    payload: z
      .unknown()
      .refine((value) => value !== undefined, 'Required')
      .describe('The payload whose delivery signature is wanted (any JSON value).'),
  }),
);
export type HookSignatureRequest = z.output<typeof HookSignatureRequest>;

export const HookSignature = model(
  'HookSignature',
  z.object({ signature: z.string().describe('Lowercase hex HMAC-SHA256 of the payload’s JSON text.') }),
);

export const HookEvent = model('HookEvent', z.object({ code: z.string() }));
export const HooksEvents = model('HooksEvents', odataCollection(HookEvent));

const EventCode = z.enum(EVENT_TYPES).describe('An event code (see `GET /webhooks/events`).');
const HookName = z.string().trim().min(1).max(256).describe('A name people recognise the hook by.');
const HookDescription = multiLine(z.string().max(1024));

/** How every answer shows a hook's secret: always this mask, never the secret or a part of it. */
export const MASKED_SECRET = '********';

export const HookPayload_config = model(
  'HookPayload_config',
  z.strictObject({
    verb: z.literal('post').default('post').describe('Deliveries are always POST.'),
    url: z
      .string()
      .min(1)
      .max(2048)
      .describe(
        'Where deliveries go: https (http only to localhost, 127.0.0.1 or [::1] where the deployment allows ' +
          'loopback). URLs with credentials, or whose host is or resolves to a private, link-local, loopback or ' +
          'metadata address, are refused.',
      ),
    content_type: z.literal('json').default('json').describe('Deliveries are always JSON.'),
    secret: z
      .string()
      .min(1)
      .max(1024)
      .refine(
        (secret) => secret !== MASKED_SECRET,
        `"${MASKED_SECRET}" is how a secret is shown; send the secret itself.`,
      )
      .optional()
      .describe(
        `Signs every delivery (\`X-Steward-Signature\`). Answers show it as \`"${MASKED_SECRET}"\`, never in clear, not even on creation.`,
      ),
  }),
);

export const HookPayload = model(
  'HookPayload',
  z.strictObject({
    name: HookName,
    description: HookDescription.optional(),
    active: z.boolean().default(true).describe('An inactive hook receives nothing.'),
    events: z
      .array(EventCode)
      .min(1)
      .max(EVENT_TYPES.length * 2)
      .describe('The events to deliver.'),
    config: HookPayload_config,
  }),
  'A webhook to create: the events it receives and where they are delivered.',
);
export type HookPayload = z.output<typeof HookPayload>;

/**
 * Whose events a hook receives: `mine` those that name its creator (as requester, approver, owner,
 * decider or asker), `template` those of one template's requests and teams, `tenant` every one.
 */
export const HookScope = z.enum(['mine', 'template', 'tenant']);
export type HookScope = z.output<typeof HookScope>;

const TemplateId = z
  .string()
  .trim()
  .min(1)
  .max(256)
  .describe('The template whose events a `template` hook receives.');

export const HookSubscriptionPayload = model(
  'HookSubscriptionPayload',
  z
    .strictObject({
      name: HookName.default('Power Automate trigger'),
      description: HookDescription.optional(),
      scope: HookScope.default('mine').describe(
        '`mine` (anyone): the events that name the caller, as requester, approver, owner or asker; `template` ' +
          '(integration managers and admins): one template’s events, with `templateId`; `tenant` (the same ' +
          'roles): every event of this code.',
      ),
      templateId: TemplateId.optional(),
      config: z.strictObject({
        url: HookPayload_config.shape.url,
        content_type: z
          .enum(['json', 'application/json'])
          .default('json')
          .describe('Deliveries are always JSON.'),
        secret: HookPayload_config.shape.secret,
      }),
    })
    .refine((p) => (p.scope === 'template') === (p.templateId !== undefined), {
      message: 'A `template` subscription names its `templateId`; no other scope takes one.',
      path: ['templateId'],
    }),
  'A subscription to one event (the Power Platform connector’s triggers): where it is delivered, and whose events.',
);
export type HookSubscriptionPayload = z.output<typeof HookSubscriptionPayload>;

export const Hook_config = model(
  'Hook_config',
  z.strictObject({
    verb: z.literal('post'),
    url: z.string(),
    content_type: z.literal('json'),
    secret: z
      .literal(MASKED_SECRET)
      .nullable()
      .describe(
        `\`"${MASKED_SECRET}"\` when the hook has a secret, null when it has none. The secret is never returned.`,
      ),
  }),
);

export const Hook = model(
  'Hook',
  z.strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    active: z.boolean().describe('False once deliveries kept failing (or when created inactive).'),
    events: z.array(EventCode),
    config: Hook_config,
    scope: HookScope.optional().describe(
      'Whose events the hook receives (`tenant` for hooks made by `POST /hooks`).',
    ),
    templateId: z.string().nullish().describe('The template of a `template` hook.'),
    createdDateTime: z.string(),
    lastModifiedDateTime: z.string(),
  }),
  'A webhook.',
);
export type Hook = z.output<typeof Hook>;
export const Hooks = model('Hooks', odataCollection(Hook));

export const HookDeliveryStatus = z.enum(['pending', 'retrying', 'delivered', 'failed', 'skipped']);
export type HookDeliveryStatus = z.output<typeof HookDeliveryStatus>;

export const HookDelivery = model(
  'HookDelivery',
  z.strictObject({
    id: z.string().describe('The delivery id: `X-Steward-Delivery`, the same on every attempt.'),
    hookId: z.string(),
    event: EventCode,
    eventId: z.string(),
    status: HookDeliveryStatus.describe(
      '`pending` (not tried yet), `retrying` (an attempt failed, another is due), `delivered`, `failed` (every ' +
        'attempt failed), `skipped` (the hook was inactive when its turn came, or its maker may no longer read ' +
        'the event: why, in `lastError`).',
    ),
    attempts: z.number().int().nonnegative(),
    lastStatusCode: z.number().int().nullable().describe('The HTTP status the receiver last answered.'),
    lastError: z
      .string()
      .nullable()
      .describe('Why the last attempt failed, or why the delivery was skipped.'),
    responseTimeMs: z.number().int().nullable().describe('How long the last attempt took, in milliseconds.'),
    createdDateTime: z.string(),
    lastModifiedDateTime: z.string(),
    completedDateTime: z.string().nullable(),
  }),
  'One event delivered (or being delivered) to one hook.',
);
export type HookDelivery = z.output<typeof HookDelivery>;
export const HookDeliveries = model('HookDeliveries', odataCollection(HookDelivery));
