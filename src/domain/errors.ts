import type { DetailCode, ErrorCode } from '../contract/errorCodes';

/**
 * Typed failures raised by services and the domain. Each has a code of the one error list
 * (`src/contract/errorCodes.ts`), which gives its HTTP status; the API maps them to an ApiError in
 * one place (`src/api/errors.ts`).
 */

/** One reason a request was refused, naming the field it concerns. */
export interface ErrorDetail {
  code: DetailCode;
  target: string;
  message: string;
}

/** Base class: `code` is the stable machine-readable ApiError code. */
export abstract class StewardError extends Error {
  abstract readonly code: ErrorCode;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request is malformed or breaks a rule; `details` says which fields. */
export class ValidationFailed extends StewardError {
  readonly code = 'validationFailed';
  constructor(
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }
}

/**
 * The caller presented no token, or one that does not verify. `challenge` is the RFC 6750 error
 * code of the `WWW-Authenticate` answer: `none` when no credentials were sent at all.
 */
export class Unauthorized extends StewardError {
  readonly code = 'unauthorized';
  constructor(
    message: string,
    readonly challenge: 'none' | 'invalid_request' | 'invalid_token' = 'invalid_token',
  ) {
    super(message);
  }
}

/** The caller is known but lacks the role or relationship the operation needs. */
export class Forbidden extends StewardError {
  readonly code: ErrorCode = 'forbidden';
}

/** A requester deciding on their own request, which their template does not allow. */
export class SelfApprovalNotAllowed extends Forbidden {
  override readonly code = 'selfApprovalNotAllowed';
}

/** The resource does not exist, or the caller may not know that it does. */
export class NotFound extends StewardError {
  readonly code = 'notFound';
}

/** The resource is not in a state that allows the operation (second decision, already archived, …). */
export class Conflict extends StewardError {
  readonly code: ErrorCode = 'conflict';
}

/**
 * The same operation is under way for the same team already (a job of its kind not finished): the
 * database allows one at a time, so a second request, at once or later, changes nothing.
 */
export class AlreadyUnderWay extends Conflict {
  override readonly code = 'alreadyUnderWay';
}

/** An `Idempotency-Key` already used for a different request body (422: the key, not the body, is wrong). */
export class IdempotencyKeyReused extends StewardError {
  readonly code = 'idempotencyKeyReused';
}

/** The caller spent its budget for the tier; retry after `retryAfterSeconds`. */
export class RateLimited extends StewardError {
  readonly code = 'tooManyRequests';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** A dependency (database, platform) is unavailable; the request may be retried. */
export class Unavailable extends StewardError {
  readonly code = 'serviceUnavailable';
}

/**
 * A failure of the collaboration platform (Microsoft Graph, or the embedded tenant's fault knob).
 * `transient` ones (429, 503, timeouts) are worth retrying, after `retryAfterMs` when the platform
 * said so; the others are final.
 */
export class PlatformError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly transient: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/**
 * The platform's shared request budget cannot serve a call soon, so the call was not sent. Not a
 * failure of the job: the worker parks it until `retryAfterMs` has passed, without holding a slot
 * or spending an attempt (a burst of a thousand jobs must not use up their retries waiting).
 * `budgetKey` names the budget bucket that was spent, so that no worker claims the parked job
 * again before that bucket has a turn for it.
 */
export class PlatformBusy extends PlatformError {
  constructor(
    message: string,
    retryAfterMs: number,
    readonly budgetKey?: string,
  ) {
    super(message, 429, true, retryAfterMs);
    this.name = 'PlatformBusy';
  }
}

/**
 * A job cannot be carried out as its type says: its data is not of the shape its job type parses,
 * or its template asks for something impossible (a tab in a channel the team does not have). Final:
 * the job fails with this message, and it is not retried.
 */
export class JobCannotRun extends StewardError {
  readonly code = 'jobCannotRun';
}

/**
 * Something must be done on a person's behalf (a sensitivity label, which Microsoft Graph applies
 * only with a delegated token) and no delegated token can be had for them: the deployment cannot
 * exchange their sign-in, or Entra ID refused to. The message says why, never a token.
 */
export class DelegationUnavailable extends StewardError {
  readonly code = 'delegationUnavailable';
}
