import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent, request } from 'undici';
import { StewardError } from '../../domain/errors';
import {
  checkHookUrl,
  forbidden,
  isRefusal,
  refusedAddress,
  type WebhookUrlPolicy,
} from '../../domain/webhookUrl';

/** Every address a host name resolves to. */
export type HostResolver = (hostname: string) => Promise<string[]>;

/** The system resolver (`getaddrinfo`, as connections would use), every address of every family. */
export const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses: LookupAddress[]) => {
      if (error) reject(error);
      else resolve(addresses.map((a) => a.address));
    });
  });

/** An attempt that did not deliver. `retryable` is false when trying again cannot help (a refused URL). */
export class DeliveryFailed extends StewardError {
  readonly code = 'deliveryFailed';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly statusCode: number | null = null,
    readonly responseMs: number | null = null,
  ) {
    super(message);
  }
}

/** Raised inside the connection's lookup when the host resolves to a refused address. */
class RefusedHost extends Error {}

export interface WebhookSenderOptions {
  policy: WebhookUrlPolicy;
  /** The whole attempt (connect, headers, body) must end within this. */
  timeoutMs: number;
  /** Bytes of the response read at most; the rest is discarded with the connection. */
  maxResponseBytes: number;
  resolve?: HostResolver;
}

/** An answered attempt: the receiver's status and how long the exchange took. */
export interface SentDelivery {
  statusCode: number;
  responseMs: number;
}

/**
 * POSTs webhook deliveries. Every connection resolves its host through `lookup`, which refuses the
 * connection when any address the host resolves to is forbidden, and connects to the address it
 * checked: nothing resolves the name a second time, so a DNS answer that changes between the check
 * and the connection (rebinding) cannot redirect a delivery. Redirects are never followed (undici's
 * `request` only follows them with the redirect interceptor, which is not used), the whole attempt
 * has a deadline, and at most `maxResponseBytes` of the answer are read.
 */
export class WebhookSender {
  private readonly agent: Agent;
  private readonly resolve: HostResolver;

  constructor(private readonly options: WebhookSenderOptions) {
    this.resolve = options.resolve ?? systemResolver;
    this.agent = new Agent({
      connect: { timeout: options.timeoutMs, lookup: this.lookup },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4000,
    });
  }

  /** The addresses of `hostname`, or why it is refused. */
  async check(hostname: string): Promise<string[]> {
    const addresses = await this.resolve(hostname);
    if (addresses.length === 0) throw new RefusedHost(`The host ${hostname} has no address.`);
    for (const address of addresses) {
      const reason = refusedAddress(address, this.options.policy);
      if (reason) throw new RefusedHost(forbidden(hostname, reason).message);
    }
    return addresses;
  }

  /** Sends one attempt; resolves with the answer whatever its status, throws `DeliveryFailed` when there is none. */
  async send(rawUrl: string, headers: Record<string, string>, body: string): Promise<SentDelivery> {
    const url = checkHookUrl(rawUrl, this.options.policy);
    if (isRefusal(url)) throw new DeliveryFailed(url.message, false);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const res = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await readCapped(res.body, this.options.maxResponseBytes);
      return { statusCode: res.statusCode, responseMs: elapsed() };
    } catch (error) {
      const refused = findCause(error, RefusedHost);
      if (refused) throw new DeliveryFailed(refused.message, false, null, elapsed());
      throw new DeliveryFailed(describeNetworkError(error, this.options.timeoutMs), true, null, elapsed());
    }
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  /** `net` / `tls` lookup: resolves once, checks every address, connects to a checked one. */
  private readonly lookup = (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    this.check(hostname).then(
      (addresses) => {
        const withFamily = addresses.map((address) => ({
          address,
          family: address.includes(':') ? 6 : 4,
        }));
        const wanted = Number(options.family) || 0;
        const usable = wanted ? withFamily.filter((a) => a.family === wanted) : withFamily;
        if (usable.length === 0) {
          callback(new RefusedHost(`The host ${hostname} has no IPv${wanted} address.`), '');
        } else if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
    );
  };
}

/** Reads at most `max` bytes of `body`, then drops the rest (and the connection with it). */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<number> {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.length;
    if (read >= max) {
      body.destroy();
      break;
    }
  }
  return Math.min(read, max);
}

function findCause<T extends Error>(error: unknown, type: new (...args: never[]) => T): T | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof type) return e;
  }
  return undefined;
}

/** A short reason for a failed exchange, without echoing anything the receiver controls at length. */
function describeNetworkError(error: unknown, timeoutMs: number): string {
  const named = error as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  if (named.name === 'TimeoutError' || /timeout/i.test(named.code ?? '')) {
    return `No answer within ${timeoutMs} ms.`;
  }
  const code = named.code ?? named.cause?.code;
  const message = String(named.message ?? error).slice(0, 200);
  return code ? `${code}: ${message}` : message;
}
