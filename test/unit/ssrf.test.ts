/**
 * The one outbound-request guard (src/oauth/ssrf.ts; issue #13 finding 1): every IANA
 * special-purpose range, IPv4-mapped and IPv4-compatible forms included, and a fetch whose name
 * resolves to a forbidden address never opens a connection (the DNS answer is checked, then used).
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { isForbiddenAddress } from '../../src/oauth/ssrf.js';
import { CimdFailures, documentFetch } from '../../src/oauth/cimd.js';

const strict = { allowLoopback: false };

describe('isForbiddenAddress', () => {
  test.each([
    '0.0.0.0',
    '10.1.2.3',
    '100.64.0.1',
    '127.0.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '192.0.0.8',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.51.100.1',
    '203.0.113.1',
    '224.0.0.1',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::127.0.0.1',
    '[::127.0.0.1]',
    '::7f00:1',
    '::a00:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '64:ff9b:1::1',
    '100::1',
    '2001::1',
    '2001:db8::1',
    '2002:7f00:1::1',
    'fc00::1',
    'fd12::1',
    'fe80::1',
    'fec0::1',
    'ff02::1',
    'not-an-ip',
    '',
  ])('%s is forbidden', (ip) => {
    expect(isForbiddenAddress(ip, strict)).toBe(true);
  });

  test.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    '%s is allowed',
    (ip) => {
      expect(isForbiddenAddress(ip, strict)).toBe(false);
    },
  );

  test('the test-only loopback switch opens loopback and nothing else', () => {
    expect(isForbiddenAddress('127.0.0.1', { allowLoopback: true })).toBe(false);
    expect(isForbiddenAddress('::1', { allowLoopback: true })).toBe(false);
    expect(isForbiddenAddress('10.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isForbiddenAddress('::127.0.0.1', { allowLoopback: true })).toBe(true);
  });
});

describe('the outbound fetch resolves, checks, then connects to the checked address only', () => {
  test('a name resolving to loopback: refused with the cause recorded, and no connection at all', async () => {
    let connections = 0;
    const sockets: Socket[] = [];
    const listener = createServer((s) => {
      connections += 1;
      sockets.push(s);
      s.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
    const port = (listener.address() as AddressInfo).port;
    const failures = new CimdFailures(30);
    const fetch = documentFetch(
      {
        allowedHosts: [],
        reviewed: [],
        open: true,
        negativeCacheSeconds: 30,
        allowLoopback: false,
        testCaFile: undefined,
        testResolve: new Map(),
      },
      failures,
    );
    for (const url of [
      `https://localhost:${port}/doc.json`,
      `https://127.0.0.1:${port}/doc.json`,
      `https://[::127.0.0.1]:${port}/doc.json`,
    ]) {
      await expect(fetch(url, { method: 'GET' } as never)).rejects.toThrow(/special-use/);
      expect(failures.get(new URL(url).href)?.cause).toMatch(/^refused: /);
    }
    expect(connections).toBe(0);
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });
});
