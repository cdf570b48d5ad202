import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { DelegatedGrant } from '../../domain/delegation';
import type { GraphBudget } from './budget';
import type { TokenSource } from './token';
import type { Sleep } from './types';

/** What a GraphClient is made with, and what one call to Graph carries. */

/** How hard the client tries before it gives a transient failure back to the caller. */
export interface RetryPolicy {
  /** Attempts per request, the first included. */
  maxAttempts: number;
  /** First backoff when Graph gives no `Retry-After`; it doubles per attempt, with jitter. */
  baseDelayMs: number;
  /**
   * The longest the client waits in-process. A longer `Retry-After` is handed back at once as a
   * transient PlatformError, so the job is delayed instead of holding a worker.
   */
  maxDelayMs: number;
  /** Per-request limit for the response headers and for each gap in the body. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  timeoutMs: 60_000,
};

export interface GraphClientOptions {
  /** `https://graph.microsoft.com/v1.0`, without a trailing slash. */
  baseUrl: string;
  tokens: TokenSource;
  dispatcher: Dispatcher;
  retry?: Partial<RetryPolicy>;
  sleep?: Sleep;
  /** Jitter source, in [0, 1). */
  random?: () => number;
  logger?: Logger;
  /** The tenant-wide budget every Teams call waits its turn in (none: calls go at once). */
  budget?: GraphBudget;
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** One call to Graph: `path` is relative to the base URL, or an absolute URL on the same origin. */
export interface GraphRequest {
  method: Method;
  path: string;
  body?: unknown;
  /** A body sent as it is rather than as JSON (a file's content), with its media type. */
  content?: { type: string; text: string };
  headers?: Record<string, string>;
  /**
   * Send as this person (their delegated token) instead of as Steward. Such a call is not retried
   * with a fresh token on 401: the person's token is all there is.
   */
  delegated?: DelegatedGrant;
}

/** An OData collection page. */
export interface Page<T> {
  value?: T[];
  '@odata.nextLink'?: string;
  '@odata.count'?: number;
}
