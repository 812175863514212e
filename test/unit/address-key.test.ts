/**
 * DESIGN D7: the per-address rate-limit key (src/http/rate-limits.ts `addressKey`). A canonical
 * IPv4 address is its own key without a parse (issue #29); every other spelling goes through
 * ipaddr.js as before, so the fast path must agree with it.
 */
import ipaddr from 'ipaddr.js';
import { addressKey } from '../../src/http/rate-limits.js';

test('a canonical IPv4 address is its own key, as ipaddr.js would make it', () => {
  for (const ip of ['127.0.0.1', '0.0.0.0', '255.255.255.255', '203.0.113.9', '10.20.30.40', '192.0.2.199']) {
    expect(addressKey(ip)).toBe(ip);
    expect(ipaddr.process(ip).toString()).toBe(ip);
  }
});

test('an IPv4-mapped IPv6 address as a dual-stack listener reports it is keyed as its IPv4 address', () => {
  for (const ip of ['127.0.0.1', '203.0.113.9', '0.0.0.0', '255.255.255.255']) {
    expect(addressKey(`::ffff:${ip}`)).toBe(ip);
    expect(ipaddr.process(`::ffff:${ip}`).toString()).toBe(ip);
  }
  // Not a dotted quad after the prefix: ipaddr.js decides, as before.
  expect(addressKey('::ffff:7f00:1')).toBe(ipaddr.process('::ffff:7f00:1').toString());
  expect(addressKey('::ffff:010.0.0.1')).toBe(
    ipaddr.isValid('::ffff:010.0.0.1') ? ipaddr.process('::ffff:010.0.0.1').toString() : '::ffff:010.0.0.1',
  );
});

test('other spellings are still parsed: IPv4-mapped IPv6, IPv6 /64 prefixes, odd IPv4 forms, junk', () => {
  expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
  expect(addressKey('2001:db8:1:2::7')).toBe('2001:db8:1:2::/64');
  expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
  // Not dotted quads: leading zeros, too few parts, out-of-range octets go to ipaddr.js.
  for (const odd of ['010.0.0.1', '127.1', '256.1.1.1', '1.2.3.4.5']) {
    expect(addressKey(odd)).toBe(ipaddr.isValid(odd) ? ipaddr.process(odd).toString() : odd);
  }
  expect(addressKey('not an address')).toBe('not an address');
});
