/**
 * Outbound-request guard for Client ID Metadata Documents (SPEC §5.4; draft-ietf-oauth-client-id-
 * metadata-document §6 "Server-Side Request Forgery"): the server fetches URLs chosen by clients,
 * so it must never reach private, loopback, link-local or other special-use addresses.
 *
 * Two layers: `assertPublicHost` resolves the host before the fetch and gives a clear error; at
 * connect time oidc-provider's own dispatcher (or, in test mode, `guardedLookup`) re-checks the
 * address actually connected to, which closes the DNS-rebinding gap.
 */
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Special-use ranges (RFC 6890 and successors) that a document fetch may never reach. */
const SPECIAL_USE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16],
  ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) SPECIAL_USE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23],
  ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) SPECIAL_USE.addSubnet(net, bits, 'ipv6');

/** Options of the guard. */
export interface SsrfOptions {
  /** Test-only: loopback addresses (127/8, ::1) are reachable. Never true in production. */
  allowLoopback: boolean;
}

/** Raised when a host is, or resolves to, a forbidden address; `message` says which. */
export class ForbiddenTargetError extends Error {
  override name = 'ForbiddenTargetError';
}

/**
 * True when `ip` (IPv4 or IPv6 literal, IPv4-mapped IPv6 included) may not be fetched from.
 * Non-IP input counts as forbidden.
 */
export function isForbiddenAddress(ip: string, options: SsrfOptions): boolean {
  let address = ip.replace(/^\[|\]$/g, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) address = mapped[1]!;
  const family = isIP(address);
  if (family === 0) return true;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (options.allowLoopback && LOOPBACK.check(address, type)) return false;
  return SPECIAL_USE.check(address, type);
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
    throw new ForbiddenTargetError(`host ${hostname} resolves to a private, loopback, link-local or other special-use address`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect` / `tls.connect` that refuses forbidden addresses at connect time
 * (used by the test-mode dispatcher, which replaces oidc-provider's own guard).
 */
export function guardedLookup(options: SsrfOptions) {
  return (hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const allowed = addresses.filter((a) => !isForbiddenAddress(a.address, options));
      if (allowed.length === 0) {
        return callback(new ForbiddenTargetError(`host ${hostname} resolves to a special-use address`), []);
      }
      if (lookupOptions.all) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
