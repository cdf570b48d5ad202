/**
 * The transport under every operation: one HTTP exchange at a time over undici, with the headers
 * every call carries, answers turned into values or typed errors, and the retry loop.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request, type Dispatcher } from 'undici';
import {
  type FailedCall,
  StewardApiError,
  StewardClientError,
  StewardNetworkError,
  StewardResponseError,
} from './errors';
import type { ErrorCode } from '../contract';
import type { ApiErrorDetail } from './models';
import type { CallOptions, RetryOptions, StewardClientOptions, TokenSource, Turn } from './options';
import { parseRetryAfter } from '../lib/retryAfter';
import { sleep } from '../lib/sleep';
import { type AttemptFailure, DEFAULT_RETRY, mayRetry, retryDelay } from './retry';
import { API_PREFIX } from './url';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One operation's request, as the operation methods describe it. */
export interface OperationRequest {
  operationId: string;
  method: HttpMethod;
  /** Below `/api/v1.0`, already encoded, with its query string (see `apiPath`). */
  path: string;
  /** Sent as JSON when defined. */
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
  /** May be sent more than once; by default true for GET, HEAD, PUT and DELETE only. */
  idempotent?: boolean;
}

/** A successful answer: its status, headers (lower-case names) and parsed JSON body. */
export interface HttpAnswer<T> {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** `undefined` for an empty body (204, or 200 with nothing). */
  body: T;
}

/** Sends requests; shared by a client and every view `as()` makes of it. */
export class HttpTransport {
  private readonly origin: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly retry: RetryOptions;
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private readonly maxResponseBytes: number;

  constructor(options: StewardClientOptions) {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`baseUrl must be an http(s) URL, not ${url.protocol}`);
    }
    const basePath = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1\.0$/, '');
    this.origin = `${url.origin}${basePath}${API_PREFIX}`;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Agent();
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.userAgent = options.userAgent ?? 'steward-client';
    this.maxResponseBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
  }

  /**
   * Sends `operation` until it succeeds, fails for good, or runs out of retries. Throws
   * `StewardApiError`, `StewardNetworkError`, `StewardResponseError`, or the signal's reason when
   * `options.signal` aborts.
   */
  async send<T>(
    operation: OperationRequest,
    token: TokenSource | undefined,
    options: CallOptions = {},
    turn?: Turn,
  ): Promise<HttpAnswer<T>> {
    const clientRequestId = options.clientRequestId ?? randomUUID();
    const retry =
      options.retry === false ? { ...this.retry, maxRetries: 0 } : { ...this.retry, ...options.retry };
    const retryable = mayRetry(operation.method, operation.idempotent);
    const body = operation.body === undefined ? undefined : JSON.stringify(operation.body);
    for (let attempts = 1; ; attempts++) {
      const call: FailedCall = { operationId: operation.operationId, clientRequestId, attempts };
      let error: StewardClientError;
      let failure: AttemptFailure;
      const bearer = await resolveToken(token);
      const attempt = await turn?.begin();
      try {
        const sent = { clientRequestId, bearer, body, headers: attempt?.headers };
        const answer = await this.exchange(operation, sent, options, call).catch((thrown: unknown) => {
          attempt?.end(undefined);
          throw thrown;
        });
        attempt?.end(answer);
        if (answer.status < 400) return this.success<T>(answer, call);
        const apiError = toApiError(answer, call);
        error = apiError;
        const { status, code, retryAfterMs } = apiError;
        failure = { kind: 'status', status, code, retryAfterMs };
      } catch (thrown) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (thrown instanceof StewardClientError) throw thrown;
        const code = networkCode(thrown);
        error = new StewardNetworkError(code, call, thrown);
        failure = { kind: 'network', code };
      }
      const delay = retryable ? retryDelay(failure, attempts - 1, retry) : undefined;
      if (delay === undefined) throw error;
      await sleep(delay, options.signal);
    }
  }

  /** Closes the pooled connections, unless the dispatcher was given by the caller. */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /** One attempt: the request out, the whole answer back as text (bounded in size). */
  private async exchange(
    operation: OperationRequest,
    sent: {
      clientRequestId: string;
      bearer: string | undefined;
      body: string | undefined;
      headers?: Readonly<Record<string, string>>;
    },
    options: CallOptions,
    call: FailedCall,
  ): Promise<RawAnswer> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.userAgent,
      ...operation.headers,
      ...sent.headers,
      'client-request-id': sent.clientRequestId,
    };
    if (sent.bearer) headers.authorization = `Bearer ${sent.bearer}`;
    if (options.onBehalfOf) headers['x-steward-on-behalf-of'] = options.onBehalfOf;
    if (sent.body !== undefined) headers['content-type'] = 'application/json';
    const timeout = AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      const res = await request(`${this.origin}${operation.path}`, {
        dispatcher: this.dispatcher,
        method: operation.method,
        headers,
        body: sent.body,
        signal,
      });
      const answerHeaders = flatten(res.headers);
      const limit = this.maxResponseBytes;
      const text = await readText(res.body, Number(answerHeaders['content-length'] ?? 0), limit, () => {
        return new StewardResponseError(
          res.statusCode,
          'responseTooLarge',
          `the answer is over ${limit} bytes`,
          call,
        );
      });
      return { status: res.statusCode, headers: answerHeaders, text };
    } catch (thrown) {
      if (timeout.aborted && !options.signal?.aborted) throw new TimedOut(thrown);
      throw thrown;
    }
  }

  private success<T>(answer: RawAnswer, call: FailedCall): HttpAnswer<T> {
    if (answer.status === 204 || answer.text === '') {
      return { status: answer.status, headers: answer.headers, body: undefined as T };
    }
    if (!isJson(answer.headers)) {
      const type = answer.headers['content-type'] ?? 'none';
      throw new StewardResponseError(answer.status, 'notJson', `expected JSON, got ${type}`, call);
    }
    try {
      return { status: answer.status, headers: answer.headers, body: JSON.parse(answer.text) as T };
    } catch {
      throw new StewardResponseError(answer.status, 'invalidJson', 'the answer is not valid JSON', call);
    }
  }
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** An attempt that ran out of time; reported as the network error code `timeout`. */
class TimedOut extends Error {
  readonly code = 'timeout';
  constructor(cause: unknown) {
    super('the attempt timed out', { cause });
  }
}

async function resolveToken(token: TokenSource | undefined): Promise<string | undefined> {
  return typeof token === 'function' ? await token() : token;
}

/** The answer's body as text, refusing more than `limit` bytes (announced or actually sent). */
async function readText(
  body: Dispatcher.ResponseData['body'],
  announced: number,
  limit: number,
  tooLarge: () => Error,
): Promise<string> {
  if (announced > limit) {
    body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) {
      body.destroy();
      throw tooLarge();
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function flatten(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function isJson(headers: Readonly<Record<string, string>>): boolean {
  return /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(headers['content-type'] ?? '');
}

/** The ApiError of an error answer, or an `unexpectedResponse` one when the body is not one. */
function toApiError(answer: RawAnswer, call: FailedCall): StewardApiError {
  const retryAfterMs = parseRetryAfter(answer.headers['retry-after']);
  const requestId = answer.headers['request-id'];
  const error = isJson(answer.headers) ? apiErrorBody(answer.text) : undefined;
  if (error) {
    const innerId = error.innerError?.['request-id'];
    return new StewardApiError(
      {
        status: answer.status,
        // As the server sent it: a server of another version may answer a code this list lacks.
        code: error.code as ErrorCode,
        message: error.message,
        details: Array.isArray(error.details) ? error.details : [],
        requestId: requestId ?? (typeof innerId === 'string' ? innerId : undefined),
        retryAfterMs,
      },
      call,
    );
  }
  const snippet = answer.text
    .replace(/[\x00-\x1f\x7f]+/g, ' ')
    .trim()
    .slice(0, 200);
  return new StewardApiError(
    {
      status: answer.status,
      code: 'unexpectedResponse',
      message: `HTTP ${answer.status} without an ApiError body${snippet ? `: ${snippet}` : ''}`,
      requestId,
      retryAfterMs,
    },
    call,
  );
}

interface ApiErrorShape {
  code: string;
  message: string;
  details?: ApiErrorDetail[];
  innerError?: Record<string, unknown>;
}

function apiErrorBody(text: string): ApiErrorShape | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: Partial<ApiErrorShape> } | null;
    const error = parsed?.error;
    if (typeof error?.code === 'string' && typeof error.message === 'string') return error as ApiErrorShape;
  } catch {
    // Not JSON after all: reported as an unexpected response.
  }
  return undefined;
}

function networkCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'network';
}
