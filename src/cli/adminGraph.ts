import { request } from 'undici';

/**
 * Microsoft Graph as the administrator's command calls it: with the administrator's own delegated
 * token, JSON or an app package's zip, one request at a time. The token goes in the Authorization
 * header and nowhere else: no error, message or log line carries it.
 */

/** Graph's refusal of a call: its status, its error code and message (never the token). */
export class GraphRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'GraphRefusal';
  }
}

interface Page<T> {
  value: T[];
  '@odata.nextLink'?: string;
}

const TIMEOUT_MS = 60_000;

export class AdminGraph {
  constructor(
    /** Graph's v1.0 root, e.g. `https://graph.microsoft.com/v1.0`. */
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  /** GET `path`; undefined when Graph answers 404. */
  async find<T>(path: string): Promise<T | undefined> {
    try {
      return await this.call<T>('GET', path);
    } catch (error) {
      if (error instanceof GraphRefusal && error.status === 404) return undefined;
      throw error;
    }
  }

  /** Every item of a collection, following `@odata.nextLink`. */
  async all<T>(path: string): Promise<T[]> {
    const items: T[] = [];
    let next: string | undefined = path;
    while (next !== undefined) {
      const page: Page<T> = await this.call<Page<T>>('GET', next);
      items.push(...page.value);
      next = page['@odata.nextLink'];
    }
    return items;
  }

  postJson<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>('POST', path, { type: 'application/json', data: JSON.stringify(body) });
  }

  postZip<T>(path: string, zip: Buffer): Promise<T> {
    return this.call<T>('POST', path, { type: 'application/zip', data: zip });
  }

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: { type: string; data: string | Buffer },
  ): Promise<T> {
    // A next link is absolute; anything else is under the base URL.
    const url = /^https?:\/\//.test(path) ? path : `${this.baseUrl}${path}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.token}`,
      accept: 'application/json',
    };
    if (body) headers['content-type'] = body.type;
    const response = await request(url, {
      method,
      headers,
      body: body?.data,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    }).catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      throw new GraphRefusal(
        0,
        'unreachable',
        `Graph was not reachable at ${new URL(url).origin} (${typeof code === 'string' ? code : 'network error'})`,
      );
    });
    const text = await response.body.text();
    if (response.statusCode >= 300) {
      let error: { code?: string; message?: string } = {};
      try {
        error = (JSON.parse(text) as { error?: typeof error }).error ?? {};
      } catch {
        // Not Graph's JSON error body (a proxy's page): the status says enough.
      }
      throw new GraphRefusal(
        response.statusCode,
        error.code ?? `http${response.statusCode}`,
        `${method} ${new URL(url).pathname}: ${response.statusCode} ${error.code ?? ''} ${error.message ?? ''}`.trim(),
      );
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
