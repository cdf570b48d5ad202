import { z } from 'zod';
import { model, odataCollection } from './registry';

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
