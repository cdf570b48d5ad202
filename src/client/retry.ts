/**
 * The client's one retry policy: which failures are worth another attempt and how long to wait.
 * Pure functions, so the rules can be read and tested apart from the transport.
 */
import { backoffMs } from '../lib/backoff';
import type { RetryOptions } from './options';

/** Retry settings when the client is given none. */
export const DEFAULT_RETRY: Readonly<RetryOptions> = { maxRetries: 3, baseDelayMs: 200, maxDelayMs: 20_000 };

/**
 * Answers that say "not now": over the rate limit, or a gateway or dependency that is down.
 * Other 4xx and 500 would only fail again.
 */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/** Failures to get an answer at all that a later attempt may not meet. */
const RETRYABLE_NETWORK_CODES = new Set([
  'timeout',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/** How an attempt failed, as far as retrying is concerned. */
export type AttemptFailure =
  | { kind: 'status'; status: number; code: string; retryAfterMs: number | undefined }
  | { kind: 'network'; code: string };

/**
 * Whether a request may be sent twice: GET, HEAD, PUT and DELETE by their HTTP meaning; anything
 * else only when the operation says so (a POST carrying an idempotency key, a read-only POST).
 */
export function mayRetry(method: string, idempotent: boolean | undefined): boolean {
  return idempotent ?? IDEMPOTENT_METHODS.has(method);
}

/**
 * The wait before retry number `retry` (0 for the first), or `undefined` when the failure is not
 * retried. `Retry-After` is honoured as given; without it the wait is full-jitter exponential
 * backoff, a random time in [0, min(maxDelayMs, baseDelayMs × 2^retry)).
 */
export function retryDelay(
  failure: AttemptFailure,
  retry: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number | undefined {
  if (retry >= options.maxRetries) return undefined;
  if (failure.kind === 'network') {
    return RETRYABLE_NETWORK_CODES.has(failure.code) ? backoffDelay(retry, options, random) : undefined;
  }
  if (!RETRYABLE_STATUSES.has(failure.status)) return undefined;
  // Steward's own 502 says the collaboration platform refused for good; a proxy's 502 may pass.
  if (failure.status === 502 && failure.code === 'platformError') return undefined;
  if (failure.retryAfterMs !== undefined) {
    return failure.retryAfterMs <= options.maxDelayMs ? failure.retryAfterMs : undefined;
  }
  return backoffDelay(retry, options, random);
}

/** Full-jitter exponential backoff for retry number `retry` (0 for the first). */
export function backoffDelay(
  retry: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  return backoffMs({ baseMs: options.baseDelayMs, capMs: options.maxDelayMs, jitter: 1 }, retry, random);
}
