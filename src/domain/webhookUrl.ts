import { isIP } from 'node:net';

/**
 * Where a webhook may send data: pure checks of a hook's URL and of the addresses its host resolves
 * to. A hook moves data out of the tenant, so only public unicast addresses are reachable; loopback
 * is the one exception, for local development, and only when the deployment allows it.
 */
export interface WebhookUrlPolicy {
  /** Allow loopback addresses, and plain `http` to `localhost`, `127.0.0.1` and `[::1]`. */
  allowLoopback: boolean;
}

/** Why an address is refused (`undefined` from `refusedAddress` means it is public unicast). */
export type AddressRefusal =
  | 'loopback'
  | 'private'
  | 'linkLocal'
  | 'sharedAddressSpace'
  | 'uniqueLocal'
  | 'multicast'
  | 'unspecified'
  | 'metadata'
  | 'reserved'
  | 'invalid';

/** A URL refused, with the reason a caller can act on. */
export interface UrlRefusal {
  code: 'invalidUrl' | 'unsupportedScheme' | 'credentialsInUrl' | 'insecureScheme' | 'forbiddenAddress';
  message: string;
}

/** Host names plain `http` may use when loopback is allowed. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const MAX_URL_LENGTH = 2048;

/** Cloud instance-metadata and platform endpoints that happen to sit on ordinary addresses. */
const METADATA_V4 = new Set([
  '169.254.169.254', // AWS, Azure, GCP, Oracle, OpenStack
  '169.254.170.2', // AWS ECS task metadata
  '169.254.169.123', // AWS time sync
  '168.63.129.16', // Azure WireServer (a public address)
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud (legacy)
]);
const METADATA_V6 = ['fd00:ec2:0:0:0:0:0:254'];

/** IPv4 ranges that are never a public webhook receiver: [first address, prefix length, reason]. */
const V4_RANGES: ReadonlyArray<[string, number, AddressRefusal]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'sharedAddressSpace'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'linkLocal'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

/**
 * Why `address` (an IPv4 or IPv6 literal, brackets and zone allowed) may not receive a webhook, or
 * `undefined` when it may. IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4)
 * are judged by that IPv4 address.
 */
export function refusedAddress(address: string, policy: WebhookUrlPolicy): AddressRefusal | undefined {
  const reason = classifyAddress(address);
  if (reason === 'loopback' && policy.allowLoopback) return undefined;
  return reason;
}

/** The special range `address` is in, or `undefined` for public unicast. */
export function classifyAddress(address: string): AddressRefusal | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return classifyV4(v4ToNumber(bare));
  if (version === 6) return classifyV6(bare);
  return 'invalid';
}

function classifyV4(n: number): AddressRefusal | undefined {
  if (METADATA_V4.has(numberToV4(n))) return 'metadata';
  for (const [first, prefix, reason] of V4_RANGES) {
    const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
    if ((n & mask) >>> 0 === v4ToNumber(first)) return reason;
  }
  return undefined;
}

function classifyV6(text: string): AddressRefusal | undefined {
  const g = v6Groups(text);
  if (!g) return 'invalid';
  if (METADATA_V6.includes(g.map((x) => x.toString(16)).join(':'))) return 'metadata';
  const embeddedV4 = (hi: number, lo: number) => ((g[hi]! << 16) | g[lo]!) >>> 0;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return 'unspecified';
  if (zeros(0, 7) && g[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (deprecated compatible) reach the IPv4 address.
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return classifyV4(embeddedV4(6, 7));
  // 64:ff9b::/96 (NAT64) translates to the IPv4 address it ends with.
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return classifyV4(embeddedV4(6, 7));
  // 2002::/16 (6to4) carries the IPv4 address in its second and third groups.
  if (g[0] === 0x2002) return classifyV4(embeddedV4(1, 2));
  if (g[0]! >= 0xff00) return 'multicast';
  if ((g[0]! & 0xffc0) === 0xfe80) return 'linkLocal';
  if ((g[0]! & 0xffc0) === 0xfec0) return 'private'; // site-local, deprecated
  if ((g[0]! & 0xfe00) === 0xfc00) return 'uniqueLocal';
  // Only global unicast (2000::/3) is public; inside it, the IETF, Teredo, benchmarking, ORCHID and
  // documentation blocks are not.
  if ((g[0]! & 0xe000) !== 0x2000) return 'reserved';
  if (g[0] === 0x2001 && g[1]! < 0x200) return 'reserved';
  if (g[0] === 0x2001 && g[1] === 0xdb8) return 'reserved';
  if (g[0] === 0x3fff && g[1]! < 0x1000) return 'reserved'; // documentation (RFC 9637)
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (which `isIP` already accepted), or undefined. */
function v6Groups(text: string): number[] | undefined {
  let body = text.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted) {
    const n = v4ToNumber(dotted[1]!);
    body = `${body.slice(0, -dotted[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = body.split('::') as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(':').map((x) => Number.parseInt(x, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...new Array<number>(Math.max(0, fill)).fill(0), ...right];
  return groups.length === 8 && groups.every((x) => Number.isInteger(x) && x >= 0 && x <= 0xffff)
    ? groups
    : undefined;
}

function v4ToNumber(text: string): number {
  return text.split('.').reduce((n, octet) => ((n << 8) | Number(octet)) >>> 0, 0);
}

function numberToV4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/**
 * Checks a hook URL before anything is resolved: an absolute `https` URL (or `http` to a loopback
 * name when loopback is allowed), without credentials, whose host, when it is an IP literal, is
 * allowed. Returns the parsed URL or why it is refused. Host names are checked again once resolved
 * (`refusedAddress` on each address).
 */
export function checkHookUrl(raw: string, policy: WebhookUrlPolicy): URL | UrlRefusal {
  let url: URL;
  if (raw.length > MAX_URL_LENGTH) {
    return { code: 'invalidUrl', message: `A webhook URL is at most ${MAX_URL_LENGTH} characters.` };
  }
  try {
    url = new URL(raw);
  } catch {
    return { code: 'invalidUrl', message: 'Not an absolute URL.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { code: 'unsupportedScheme', message: `The scheme ${url.protocol} is not allowed; use https.` };
  }
  if (url.username || url.password) {
    return {
      code: 'credentialsInUrl',
      message: 'A webhook URL may not carry credentials; use the hook’s secret to authenticate deliveries.',
    };
  }
  if (url.protocol === 'http:' && !(policy.allowLoopback && LOOPBACK_HOSTS.has(url.hostname))) {
    return {
      code: 'insecureScheme',
      message: policy.allowLoopback
        ? 'Use https; plain http is only allowed to localhost, 127.0.0.1 or [::1].'
        : 'Use https.',
    };
  }
  const literal = hostLiteral(url);
  if (literal !== undefined) {
    const reason = refusedAddress(literal, policy);
    if (reason) return forbidden(url.hostname, reason);
  }
  return url;
}

/** The IP address a URL's host is written as, or `undefined` when the host is a name. */
export function hostLiteral(url: URL): string | undefined {
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) ? bare : undefined;
}

/** The refusal for a host that is (or resolves to) a forbidden address. */
export function forbidden(host: string, reason: AddressRefusal): UrlRefusal {
  const what: Record<AddressRefusal, string> = {
    loopback: 'a loopback address',
    private: 'a private address',
    linkLocal: 'a link-local address',
    sharedAddressSpace: 'a shared (carrier-grade NAT) address',
    uniqueLocal: 'a unique-local address',
    multicast: 'a multicast address',
    unspecified: 'an unspecified address',
    metadata: 'a cloud metadata endpoint',
    reserved: 'a reserved address',
    invalid: 'an address that is not valid',
  };
  return {
    code: 'forbiddenAddress',
    message: `The host ${host} is ${what[reason]}; webhooks only reach public addresses.`,
  };
}

/** True when `value` is a refusal rather than a checked URL. */
export function isRefusal(value: URL | UrlRefusal): value is UrlRefusal {
  return !(value instanceof URL);
}

/** The part of a hook URL that is safe to show in logs and audit records (no path or query, which may hold tokens). */
export function urlOrigin(raw: string): string {
  try {
    return new URL(raw).origin;
  } catch {
    return '(invalid URL)';
  }
}
