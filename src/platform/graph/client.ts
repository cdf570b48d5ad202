import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { NotFound } from '../../domain/errors';
import { backoffMs } from '../../lib/backoff';
import { sleep } from '../../lib/sleep';
import { PlatformError } from '../port';
import { displayPath, toGraphError } from './errors';
import type { GraphResponse, Sleep } from './types';
import {
  DEFAULT_RETRY,
  type GraphClientOptions,
  type GraphRequest,
  type Page,
  type RetryPolicy,
} from './clientOptions';
import { errorCode, flattenHeaders, NOT_SENT_CODES, parseJson, TIMEOUT_CODES, writesLabels } from './wire';

export { DEFAULT_RETRY, type GraphClientOptions, type GraphRequest, type RetryPolicy } from './clientOptions';

/**
 * A small Microsoft Graph client over a pooled undici dispatcher: JSON in and out, an app token on
 * every call, `client-request-id` for correlation, and one place that retries throttling and
 * outages honouring `Retry-After`.
 */
export class GraphClient {
  private readonly origin: string;
  private readonly retry: RetryPolicy;
  private readonly sleep: Sleep;
  private readonly random: () => number;

  constructor(private readonly options: GraphClientOptions) {
    this.origin = new URL(options.baseUrl).origin;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.sleep = options.sleep ?? sleep;
    this.random = options.random ?? Math.random;
  }

  /** GET a resource; 404 throws NotFound. */
  async get<T>(path: string, headers?: Record<string, string>): Promise<T> {
    const response = await this.send<T>({ method: 'GET', path, headers });
    return response.body as T;
  }

  /** GET a resource, or undefined when Graph answers 404. */
  async find<T>(path: string, headers?: Record<string, string>): Promise<T | undefined> {
    try {
      return await this.get<T>(path, headers);
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      throw error;
    }
  }

  /** Every item of a collection, following `@odata.nextLink` up to `limit` items. */
  async list<T>(path: string, headers?: Record<string, string>, limit = Infinity): Promise<T[]> {
    return (await this.page<T>(path, headers, limit)).items;
  }

  /** Items of a collection up to `limit`, and the `@odata.count` of the first page when asked for. */
  async page<T>(
    path: string,
    headers?: Record<string, string>,
    limit = Infinity,
  ): Promise<{ items: T[]; count: number | undefined }> {
    const items: T[] = [];
    let next: string | undefined = path;
    let count: number | undefined;
    while (next !== undefined && items.length < limit) {
      const page: Page<T> = await this.get<Page<T>>(next, headers);
      count ??= page['@odata.count'];
      items.push(...(page.value ?? []));
      next = page['@odata.nextLink'];
    }
    return { items: items.slice(0, limit), count };
  }

  /** Sends one request, retrying what Graph says is worth retrying; errors become PlatformError or NotFound. */
  async send<T>(call: GraphRequest): Promise<GraphResponse<T>> {
    const url = this.resolve(call.path);
    const clientRequestId = randomUUID();
    if (!call.delegated && writesLabels(call.body)) {
      // Graph refuses it to application tokens; no code path may try (`api/group-update.md`).
      throw new PlatformError(
        "A sensitivity label is applied only with a person's delegated token, never with Steward's own",
        401,
        false,
      );
    }
    let refreshedToken = !!call.delegated;
    let forceRefresh = false;
    for (let attempt = 1; ; attempt++) {
      const token = call.delegated?.token ?? (await this.options.tokens.getToken({ forceRefresh }));
      forceRefresh = false;
      let response: GraphResponse<unknown>;
      await this.options.budget?.acquire(call.method, this.budgetPath(url));
      try {
        response = await this.exchange(call, url, token, clientRequestId);
      } catch (error) {
        const code = errorCode(error);
        const replayable = call.method !== 'POST' || NOT_SENT_CODES.has(code);
        const message = `Microsoft Graph ${call.method} ${displayPath(url)} failed: ${code || String(error)}`;
        if (!replayable || attempt >= this.retry.maxAttempts) {
          throw new PlatformError(message, TIMEOUT_CODES.has(code) ? 504 : 0, true);
        }
        await this.pause(attempt, undefined, call, url, clientRequestId, code);
        continue;
      }
      if (response.status < 400) return response as GraphResponse<T>;

      const error = toGraphError(call.method, url, response);
      // A token can be revoked or rotated before msal's cached copy expires: refresh it once.
      if (response.status === 401 && !refreshedToken) {
        refreshedToken = forceRefresh = true;
        continue;
      }
      if (response.status === 429) {
        // Every worker's next call in these buckets waits too, not only this request's retry.
        await this.options.budget?.throttled(call.method, this.budgetPath(url), error.retryAfterMs ?? 1000);
      }
      if (!error.transient) throw response.status === 404 ? new NotFound(error.message) : error;
      const replayable = call.method !== 'POST' || response.status !== 504;
      if (!replayable || attempt >= this.retry.maxAttempts) throw error;
      if (error.retryAfterMs !== undefined && error.retryAfterMs > this.retry.maxDelayMs) throw error;
      await this.pause(attempt, error.retryAfterMs, call, url, clientRequestId, String(response.status));
    }
  }

  private async exchange(
    call: GraphRequest,
    url: string,
    token: string,
    clientRequestId: string,
  ): Promise<GraphResponse<unknown>> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      'client-request-id': clientRequestId,
      ...call.headers,
    };
    let payload: string | undefined;
    if (call.content !== undefined) {
      payload = call.content.text;
      headers['content-type'] = call.content.type;
    } else if (call.body !== undefined) {
      payload = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
    }
    const response = await request(url, {
      method: call.method,
      headers,
      body: payload,
      dispatcher: this.options.dispatcher,
      headersTimeout: this.retry.timeoutMs,
      bodyTimeout: this.retry.timeoutMs,
    });
    const text = await response.body.text();
    const flat = flattenHeaders(response.headers);
    this.options.logger?.debug(
      {
        graph: { method: call.method, path: displayPath(url), status: response.statusCode, clientRequestId },
      },
      'graph call',
    );
    return { status: response.statusCode, headers: flat, body: parseJson(text) };
  }

  private async pause(
    attempt: number,
    retryAfterMs: number | undefined,
    call: GraphRequest,
    url: string,
    clientRequestId: string,
    reason: string,
  ): Promise<void> {
    // Half fixed, half random, so that many workers throttled together do not come back together.
    const backoff = { baseMs: this.retry.baseDelayMs, capMs: this.retry.maxDelayMs, jitter: 0.5 };
    const delay = retryAfterMs ?? backoffMs(backoff, attempt - 1, this.random);
    this.options.logger?.warn(
      {
        graph: {
          method: call.method,
          path: displayPath(url),
          attempt,
          reason,
          delayMs: delay,
          clientRequestId,
        },
      },
      'graph call will be retried',
    );
    await this.sleep(delay);
  }

  /** The path under the version (`/teams/{id}/channels`; beta's too) by which the budget knows a call. */
  private budgetPath(url: string): string {
    const basePath = new URL(this.options.baseUrl).pathname.replace(/\/+$/, '');
    const path = new URL(url).pathname;
    if (basePath && path.startsWith(`${basePath}/`)) return path.slice(basePath.length);
    return path.startsWith('/beta/') ? path.slice('/beta'.length) : path;
  }

  /** Relative paths hang off the base URL; absolute ones must stay on Graph's origin (they carry our token). */
  private resolve(path: string): string {
    if (/^https?:\/\//i.test(path)) {
      if (new URL(path).origin !== this.origin) {
        throw new PlatformError(`Refusing to send the Graph token to ${new URL(path).origin}`, 0, false);
      }
      return path;
    }
    const base = this.options.baseUrl;
    // Graph's Location headers are absolute paths that include the version: `/v1.0/teams(...)` is rare,
    // `/teams(...)` is the norm; both mean "under the base URL".
    const basePath = new URL(base).pathname.replace(/\/+$/, '');
    const relative = basePath && path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
    return `${base}${relative.startsWith('/') ? '' : '/'}${relative}`;
  }
}
