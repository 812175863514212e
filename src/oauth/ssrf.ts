/**
 * The one outbound-request guard (SPEC §5.4; draft-ietf-oauth-client-id-metadata-document §6
 * "Server-Side Request Forgery"; docs/security.md "Outbound requests"). The server fetches URLs
 * chosen by clients (Client ID Metadata Documents and what they point to), so it must never reach
 * private, loopback, link-local or any other special-purpose address.
 *
 * - `isForbiddenAddress`: every address that ipaddr.js does not classify as plain `unicast`
 *   (its range table follows the IANA IPv4/IPv6 Special-Purpose Address Registries), plus our own
 *   copy of those registries as a second list, plus the deprecated IPv4-compatible form `::a.b.c.d`
 *   (`::/96`, RFC 4291 §2.5.5.1) and IPv4-mapped `::ffff:a.b.c.d`, judged as the IPv4 address.
 * - `guardedLookup`: the DNS `lookup` given to the socket: it resolves, checks every address and
 *   hands the connection only the checked ones, so the address connected to is the address checked
 *   (no DNS-rebinding gap, and no TCP connect at all towards a forbidden address).
 * - `assertPublicHost`: the same check ahead of a fetch, for a clear error message.
 */
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * IANA special-purpose ranges (RFC 6890 and successors), kept here as a second list beside
 * ipaddr.js's classification. Two lists: node's BlockList also matches IPv4 addresses against
 * IPv4-mapped IPv6 rules, so the families are kept apart.
 */
const SPECIAL_V4 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  SPECIAL_V4.addSubnet(net, bits, 'ipv4');
const SPECIAL_V6 = new BlockList();
for (const [net, bits] of [
  // `::/96` covers `::`, `::1` and every deprecated IPv4-compatible address (RFC 4291 §2.5.5.1).
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['2620:4f:8000::', 48],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  SPECIAL_V6.addSubnet(net, bits, 'ipv6');
/** IPv4-mapped IPv6 (`::ffff:a.b.c.d`): judged as the IPv4 address. */
const MAPPED = new BlockList();
MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

/** Options of the guard. */
export interface SsrfOptions {
  /** Test-only: loopback addresses (127/8, ::1) are reachable. Never true in production. */
  allowLoopback: boolean;
}

/** Raised when a host is, or resolves to, a forbidden address; `message` says which. */
export class ForbiddenTargetError extends Error {
  override name = 'ForbiddenTargetError';
}

function isForbiddenV4(address: string, options: SsrfOptions): boolean {
  if (options.allowLoopback && address.startsWith('127.')) return false;
  return SPECIAL_V4.check(address, 'ipv4') || ipaddr.IPv4.parse(address).range() !== 'unicast';
}

/**
 * True when `ip` (IPv4 or IPv6 literal, with or without brackets) may not be fetched from.
 * Non-IP input counts as forbidden. (Node parses the literal; ipaddr.js only classifies, as it
 * reads `::a.b.c.d` as IPv4-mapped.)
 */
export function isForbiddenAddress(ip: string, options: SsrfOptions): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(bare);
  if (family === 4) return isForbiddenV4(bare, options);
  if (family !== 6) return true;
  if (MAPPED.check(bare, 'ipv6')) return isForbiddenV4(ipaddr.IPv6.parse(bare).toIPv4Address().toString(), options);
  if (options.allowLoopback && bare === '::1') return false;
  return SPECIAL_V6.check(bare, 'ipv6') || ipaddr.IPv6.parse(bare).range() !== 'unicast';
}

function lookupAll(hostname: string, timeoutMs: number): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new ForbiddenTargetError(`DNS lookup of ${hostname} timed out`)), timeoutMs);
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(new ForbiddenTargetError(`host ${hostname} does not resolve`));
      else resolve(addresses);
    });
  });
}

/**
 * Checks that a host (name or IP literal, as in `URL.hostname`) is a public address.
 * @param timeoutMs upper bound of the DNS lookup, in milliseconds
 * @throws ForbiddenTargetError when the host is, or resolves to, a special-use address, or does not resolve
 */
export async function assertPublicHost(hostname: string, options: SsrfOptions, timeoutMs = 2000): Promise<void> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [bare] : (await lookupAll(bare, timeoutMs)).map((a) => a.address);
  const bad = addresses.find((a) => isForbiddenAddress(a, options));
  if (bad !== undefined || addresses.length === 0) {
    throw new ForbiddenTargetError(
      `host ${hostname} resolves to a private, loopback, link-local or other special-use address`,
    );
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect` / `tls.connect` / `https.request`: resolves the name, refuses when
 * any resolved address is forbidden, and hands the socket the checked addresses only, so the
 * connection goes to an address that was checked (pinned).
 */
export function guardedLookup(options: SsrfOptions) {
  return (hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (addresses.length === 0 || addresses.some((a) => isForbiddenAddress(a.address, options))) {
        return callback(new ForbiddenTargetError(`host ${hostname} resolves to a special-use address`), []);
      }
      if (lookupOptions.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
