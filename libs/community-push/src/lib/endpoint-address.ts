import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';

/**
 * Addresses a push endpoint must not reach (SSRF, docs/security.md): unspecified, loopback, RFC 1918 and other
 * private ranges, carrier-grade NAT, link-local (cloud metadata at 169.254.169.254), benchmarking, multicast,
 * reserved; IPv6 loopback, unique-local, link-local, multicast, and IPv4-mapped forms of the above.
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** True for an address on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  return !BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A host name that can only mean this machine or the local network, whatever DNS says. */
export function isLocalHostName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal') ||
    !host.includes('.')
  );
}

/** The URL's host as written, brackets of an IPv6 literal removed. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Refusal reason for an endpoint whose host is plainly not public, checked at registration; undefined when fine. */
export function privateEndpointReason(url: URL): string | undefined {
  const host = hostOf(url);
  if (isIP(host))
    return isPublicAddress(host) ? undefined : 'must not point to a loopback, private or link-local address';
  return isLocalHostName(host) ? 'must name a public host' : undefined;
}

export class PrivateAddressError extends Error {
  readonly code = 'EPRIVATEADDRESS';
}

/**
 * A DNS lookup for the push request's socket that refuses private answers, so a name that resolves (or
 * re-resolves, DNS rebinding) to an internal address is never connected to.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as { address: string; family: number }[];
    const blocked = list.find((entry) => !isPublicAddress(entry.address));
    if (blocked || list.length === 0)
      return callback(new PrivateAddressError(`${hostname} resolves to a non-public address`), '', 0);
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};
