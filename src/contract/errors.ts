import { z } from 'zod';
import { model } from './registry';

export const ApiErrorInnerError = model(
  'ApiError_error_innerError',
  z.object({
    date: z.string(),
    'request-id': z.string(),
    'client-request-id': z.string().optional(),
  }),
);

export const ApiErrorDetail = z.object({ code: z.string(), target: z.string(), message: z.string() });

export const ApiErrorError = model(
  'ApiError_error',
  z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(ApiErrorDetail).optional(),
    innerError: ApiErrorInnerError,
  }),
);

export const ApiError = model(
  'ApiError',
  z.object({ error: ApiErrorError }),
  'Every failure has this shape.',
);
export type ApiError = z.infer<typeof ApiError>;
