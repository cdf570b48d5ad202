/**
 * Where a request comes from: loopback tests on peer addresses, and the client address behind
 * reverse proxies, believed only when the proxy is one the operator listed as trusted.
 */
import { isLoopbackAddress } from './loopback';

/** An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) as its IPv4 form; anything else unchanged. */
export function plainAddress(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? (mapped[1] as string) : trimmed.toLowerCase();
}

/** True for a loopback listen address or host name: 127.0.0.0/8, `::1` (also `[::1]`), `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const plain = host.trim().replace(/^\[(.*)\]$/, '$1');
  return plain.toLowerCase() === 'localhost' || isLoopbackAddress(plain);
}

/** The hops a `X-Forwarded-For` header lists, nearest last; empty when there is none. */
export function forwardedHops(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text
    .split(',')
    .map((hop) => plainAddress(hop))
    .filter((hop) => hop !== '');
}

/**
 * The client a request is from: the peer, unless the peer is a trusted proxy, in which case the
 * nearest forwarded hop that is not itself a trusted proxy. A forwarded header from anyone else
 * is ignored, since any client can write one.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedProxies: ReadonlySet<string>,
): string {
  let client = plainAddress(peer ?? '') || 'unknown';
  const hops = forwardedHops(forwardedFor);
  while (trustedProxies.has(client) && hops.length > 0) client = hops.pop() as string;
  return client;
}
