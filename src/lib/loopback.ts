import { isIPv4 } from 'node:net';

/**
 * Whether a socket's peer address is this machine: 127.0.0.0/8, `::1`, or an IPv4 loopback
 * address mapped into IPv6 (`::ffff:127.0.0.1`, as a dual-stack listener reports it).
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  if (isIPv4(v4)) return v4.startsWith('127.');
  return address === '::1';
}
