import type { ServerResponse } from 'node:http';
import type { ZodError } from 'zod';
import {
  type ErrorDetail,
  PlatformError,
  RateLimited,
  StewardError,
  Unauthorized,
  ValidationFailed,
} from '../domain/errors';
import { type ApiError, ERROR_CODES, type ErrorCode } from '../contract';
import { JsonText } from './json';

/** Errors of HTTP itself, raised by the server before a request reaches a service. */
export class HttpError extends StewardError {
  readonly status: number;
  constructor(
    readonly code: 'methodNotAllowed' | 'requestTimeout' | 'payloadTooLarge' | 'unsupportedMediaType',
    message: string,
  ) {
    super(message);
    this.status = ERROR_CODES[code].status;
  }
}

/** Turns a zod failure into `details` entries, one per issue, targeted at a dotted path. */
export function detailsOf(error: ZodError, prefix: string): ErrorDetail[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
    return { code: issue.code, target: path || prefix || 'body', message: `${issue.message}${keys}` };
  });
}

/** The status and ApiError body for any failure; unknown errors become a generic 500. */
export function toApiError(
  error: unknown,
  ids: { requestId: string; clientRequestId?: string },
): { status: number; body: ApiError; headers: Record<string, string> } {
  const { status, headers } = statusOf(error);
  const { code, message } = describe(error);
  const body: ApiError = {
    error: {
      code,
      message,
      innerError: {
        date: new Date().toISOString(),
        'request-id': ids.requestId,
        ...(ids.clientRequestId ? { 'client-request-id': ids.clientRequestId } : {}),
      },
    },
  };
  if (error instanceof ValidationFailed) body.error.details = error.details;
  return { status, body, headers };
}

function describe(error: unknown): { code: ErrorCode; message: string } {
  if (error instanceof StewardError) return { code: error.code, message: error.message };
  if (error instanceof PlatformError) {
    const code = error.transient ? 'serviceUnavailable' : error.status === 409 ? 'conflict' : 'platformError';
    return { code, message: `The collaboration platform refused: ${error.message}` };
  }
  return {
    code: 'internalServerError',
    message: 'Something went wrong on our side. Quote the request id when reporting it.',
  };
}

/** A Steward error's status is its code's (the one list); a few carry headers with it. */
function statusOf(error: unknown): { status: number; headers: Record<string, string> } {
  if (error instanceof StewardError) {
    const status = ERROR_CODES[error.code].status;
    if (error instanceof Unauthorized) {
      const challenge = error.challenge === 'none' ? 'Bearer' : `Bearer error="${error.challenge}"`;
      return { status, headers: { 'WWW-Authenticate': challenge } };
    }
    if (error instanceof RateLimited)
      return { status, headers: { 'Retry-After': String(error.retryAfterSeconds) } };
    return { status, headers: {} };
  }
  if (error instanceof PlatformError) {
    if (error.transient) {
      const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 1000) / 1000));
      return { status: 503, headers: { 'Retry-After': String(seconds) } };
    }
    return { status: error.status === 409 ? 409 : 502, headers: {} };
  }
  return { status: 500, headers: {} };
}

/**
 * Headers on every API answer: a browser must not guess another type from a JSON body, and no
 * cache may keep one (they hold people, e-mails and private teams, and depend on the token).
 */
export const API_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

const RESPONSE_HEADERS = Object.entries(API_RESPONSE_HEADERS).flat();

/**
 * Writes a JSON response (the server's only way of answering): its headers, `headers` and then the
 * flat list `more` (names and values in turn), in one `writeHead`. Headers set on `res` before
 * still go out (Node.js merges them), a name given twice the later value.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
  more?: readonly string[],
): void {
  if (res.headersSent) return;
  const bytes =
    body === undefined
      ? undefined
      : body instanceof JsonText
        ? body.bytes
        : Buffer.from(JSON.stringify(body));
  const list = [...RESPONSE_HEADERS];
  if (headers) for (const name in headers) list.push(name, headers[name]!);
  if (more) list.push(...more);
  if (bytes) list.push('Content-Type', 'application/json; charset=utf-8');
  // A 204 or 304 carries no body, and no length (RFC 9110, 8.6).
  if (status !== 204 && status !== 304) list.push('Content-Length', String(bytes?.length ?? 0));
  res.writeHead(status, list);
  res.end(bytes);
}
