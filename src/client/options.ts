import type { Dispatcher } from 'undici';

/** A bearer token, or a function that returns a current one (asked before every attempt). */
export type TokenSource = string | (() => string | Promise<string>);

/** When and how long to wait before sending a failed request again. */
export interface RetryOptions {
  /** Attempts after the first; 0 turns retries off. Default 3. */
  maxRetries: number;
  /** Base of the exponential backoff (full jitter: a random wait in [0, base × 2^retry), up to `maxDelayMs`). Default 200. */
  baseDelayMs: number;
  /**
   * Longest wait before a retry. A `Retry-After` longer than this is not waited for: the call fails
   * at once with the answer's `retryAfterMs`, so the caller decides. Default 20 000.
   */
  maxDelayMs: number;
}

/** Settings of a `StewardClient`. */
export interface StewardClientOptions {
  /** Where Steward answers, e.g. `https://steward.example.com` (the `/api/v1.0` prefix is added). */
  baseUrl: string;
  /** The caller's bearer token; a call's `token` option, or `client.as(token)`, overrides it. */
  token?: TokenSource;
  /**
   * The undici dispatcher to send through. By default the client makes its own pooled `Agent`,
   * shared by every view from `as()` and closed by `close()`; a dispatcher given here is not closed.
   */
  dispatcher?: Dispatcher;
  /** Retry settings (defaults as documented on `RetryOptions`). */
  retry?: Partial<RetryOptions>;
  /** Time one attempt may take, answer body included. Default 30 000. */
  timeoutMs?: number;
  /** The `User-Agent` header. Default `steward-client`. */
  userAgent?: string;
  /** Largest answer body accepted. Default 16 MiB. */
  maxResponseBytes?: number;
  /**
   * The turn of a person with Steward's bot that calls made with the client's own token (not a
   * call's `token` option) belong to: they cost the person's budget once (`TurnCharge`).
   */
  turn?: Turn;
}

/** One attempt of a call of a turn: the headers it carries, and what its answer said. */
export interface TurnAttempt {
  headers: Readonly<Record<string, string>>;
  /** The attempt's answer (its status and lower-case headers); undefined when none came. */
  end(answer: { status: number; headers: Readonly<Record<string, string>> } | undefined): void;
}

/** What the transport asks of a turn (`TurnCharge`) before each attempt of one of its calls. */
export interface Turn {
  begin(): Promise<TurnAttempt>;
}

/** Options every operation method accepts as its last argument. */
export interface CallOptions {
  /** Acts as this caller for this call only (the bot calls on behalf of many users). */
  token?: TokenSource;
  /**
   * The object id of the person this call is made for (`X-Steward-On-Behalf-Of`): the call counts
   * against their rate limit instead of the caller's. Only Steward's bot, with its own app token,
   * may send it; anyone else gets 403.
   */
  onBehalfOf?: string;
  /** The `client-request-id` to send (a fresh UUID by default); the same on every retry. */
  clientRequestId?: string;
  /** Aborts the call, including any wait between retries. */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
  /** Overrides the client's retry settings for this call; `false` sends once. */
  retry?: Partial<RetryOptions> | false;
}

/** Options of `createTeamProvisioningJob`. */
export interface ProvisioningCallOptions extends CallOptions {
  /**
   * The `Idempotency-Key`: a repeated key returns the job the first request created. Generated
   * when not given, so retries of this call are safe; pass your own to make retries across calls
   * (a bot restarting mid-request, say) safe too.
   */
  idempotencyKey?: string;
}
