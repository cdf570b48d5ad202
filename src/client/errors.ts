import type { ErrorCode } from '../contract';
import type { ApiErrorDetail } from './models';

/**
 * The `code` of a `StewardApiError`: an ApiError code of the API's one list
 * (`src/contract/errorCodes.ts`, docs/reference/errors.md), or `unexpectedResponse` for an answer
 * that was not an ApiError.
 */
export type ApiErrorCode = ErrorCode | 'unexpectedResponse';

/** What every client failure says about the call it ended. */
export interface FailedCall {
  /** The operation, e.g. `getTeam`. */
  operationId: string;
  /** The `client-request-id` the call sent (the same on every attempt). */
  clientRequestId: string;
  /** How many times the request was sent (1 when it was not retried). */
  attempts: number;
}

/** Base class of the errors the client throws; `instanceof StewardClientError` catches them all. */
export abstract class StewardClientError extends Error {
  readonly operationId: string;
  readonly clientRequestId: string;
  readonly attempts: number;

  constructor(message: string, call: FailedCall, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.operationId = call.operationId;
    this.clientRequestId = call.clientRequestId;
    this.attempts = call.attempts;
  }
}

/**
 * The API answered with an error status. `code` is the ApiError's stable code (`notFound`,
 * `validationFailed`, …), or `unexpectedResponse` when the body was not an ApiError (a proxy's
 * HTML page, say).
 */
export class StewardApiError extends StewardClientError {
  readonly status: number;
  readonly code: ApiErrorCode;
  /** Per-field reasons of a `validationFailed` answer; empty otherwise. */
  readonly details: readonly ApiErrorDetail[];
  /** The server's `request-id`, to quote when reporting a failure. */
  readonly requestId: string | undefined;
  /** How long the server asked to wait before trying again (`Retry-After`), in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(
    answer: {
      status: number;
      code: ApiErrorCode;
      message: string;
      details?: readonly ApiErrorDetail[];
      requestId?: string;
      retryAfterMs?: number;
    },
    call: FailedCall,
  ) {
    super(`${call.operationId}: ${answer.status} ${answer.code}: ${answer.message}`, call);
    this.status = answer.status;
    this.code = answer.code;
    this.details = answer.details ?? [];
    this.requestId = answer.requestId;
    this.retryAfterMs = answer.retryAfterMs;
  }
}

/**
 * The request got no answer: the connection was refused or dropped, or the attempt timed out.
 * `code` is the underlying error's code (`ECONNREFUSED`, `ECONNRESET`, `UND_ERR_SOCKET`, …) or
 * `timeout`; `cause` is the underlying error.
 */
export class StewardNetworkError extends StewardClientError {
  readonly code: string;

  constructor(code: string, call: FailedCall, cause: unknown) {
    const detail = cause instanceof Error && cause.message ? `: ${cause.message}` : '';
    super(`${call.operationId}: no answer (${code})${detail}`, call, { cause });
    this.code = code;
  }
}

/**
 * A successful status with a body the client cannot use: not JSON, larger than the configured
 * limit, or cut short.
 */
export class StewardResponseError extends StewardClientError {
  readonly status: number;
  readonly code: 'invalidJson' | 'notJson' | 'responseTooLarge';

  constructor(status: number, code: StewardResponseError['code'], message: string, call: FailedCall) {
    super(`${call.operationId}: ${message}`, call);
    this.status = status;
    this.code = code;
  }
}
