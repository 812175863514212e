/**
 * Issue #28 (DESIGN D12): a connection left on a node that a failover made read-only. Two private
 * redis-servers X and Y, and in front of them what HA setups put there without Sentinel support in
 * the client: a TCP proxy that sends each NEW connection to the current primary (haproxy with a
 * `role:master` check; here a few lines of node:net). coursegate reaches Redis through the proxy
 * (`REDIS_URL`). Then the roles swap (Y promoted, X a replica of Y): coursegate's open connection
 * still goes to X, whose writes answer `READONLY`.
 *
 * Asserted: the refresh that meets `READONLY` answers 503 + Retry-After (never 500); the client
 * drops the connection and makes it again (through the proxy, to Y); `/readyz` is not "ready" while
 * the process is connected to a read-only node; the member's same refresh token then works.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizeMember, redeemCode, refresh, viewerStatus } from '../helpers/flows.js';
import { findBinary, freeTcpPort, startPrivateRedis, type PrivateService } from '../services/global-setup.js';
import { nodeCommand } from '../helpers/sentinel.js';

const REDIS_SERVER = findBinary('redis-server');
if (!REDIS_SERVER) {
  if (process.env.COURSEGATE_REQUIRE_SERVICES === '1')
    throw new Error('COURSEGATE_REQUIRE_SERVICES=1 but redis-server is missing');
  process.stderr.write(
    '\n*** SKIPPED: redis-server not installed: read-only node test (apt-get install redis-server) ***\n',
  );
}

/** A TCP proxy whose new connections go to `target.port`; open ones stay where they are. */
function primaryProxy(port: number, target: { port: number }): Promise<{ server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((inbound) => {
    const outbound = connect(target.port, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, sockets })));
}

(REDIS_SERVER ? describe : describe.skip)('a Redis connection left on a read-only node (issue #28)', () => {
  let x: PrivateService;
  let y: PrivateService;
  let proxy: { server: Server; sockets: Set<Socket> };
  const target = { port: 0 };
  let server: TestServer;

  beforeAll(async () => {
    x = await startPrivateRedis({ appendonly: true });
    y = await startPrivateRedis({ appendonly: true });
    await nodeCommand(y.port, 'REPLICAOF', '127.0.0.1', x.port);
    target.port = x.port;
    const proxyPort = await freeTcpPort();
    proxy = await primaryProxy(proxyPort, target);
    server = await startTestServer({ REDIS_URL: `redis://127.0.0.1:${proxyPort}` });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    for (const s of proxy?.sockets ?? []) s.destroy();
    proxy?.server.close();
    await x?.stop();
    await y?.stop();
  });

  test('READONLY answers 503, /readyz leaves rotation, the client reconnects to the new primary', async () => {
    const origin = server.baseUrl;
    const tokens = (await redeemCode(origin, origin, await authorizeMember(origin, origin))).body;
    expect(typeof tokens.refresh_token).toBe('string');
    expect((await fetch(`${origin}/readyz`)).status).toBe(200);
    // Y has everything X has, then the roles swap; the proxy sends new connections to Y.
    await waitUntil(async () => /master_link_status:up/.test(String(await nodeCommand(y.port, 'INFO', 'replication'))));
    await nodeCommand(y.port, 'REPLICAOF', 'NO', 'ONE');
    await nodeCommand(x.port, 'REPLICAOF', '127.0.0.1', y.port);
    target.port = y.port;

    // The first write on the stale connection meets READONLY: 503 + Retry-After, not 500.
    const statuses: number[] = [];
    let rotated: Awaited<ReturnType<typeof refresh>> | undefined;
    for (let i = 0; i < 50 && !rotated; i++) {
      const res = await refresh(origin, String(tokens.refresh_token));
      statuses.push(res.status);
      if (res.status === 503) {
        expect(res.headers.get('retry-after')).toBeTruthy();
        expect(res.body.error).toBe('temporarily_unavailable');
        await new Promise((r) => setTimeout(r, 100));
      } else rotated = res;
    }
    expect(statuses[0]).toBe(503);
    expect(statuses).not.toContain(500);
    // The connection was made again, through the proxy, to Y: the same refresh token works now.
    expect(rotated?.status).toBe(200);
    expect(await viewerStatus(origin, String(rotated!.body.access_token))).toBe(200);
    expect((await fetch(`${origin}/readyz`)).status).toBe(200);
  }, 60_000);

  test('/readyz is 503 while the process is connected to a read-only node, and recovers', async () => {
    const origin = server.baseUrl;
    // Swap back: coursegate's connection (to Y) is now on a replica, the proxy points at X.
    await waitUntil(async () => /master_link_status:up/.test(String(await nodeCommand(x.port, 'INFO', 'replication'))));
    await nodeCommand(x.port, 'REPLICAOF', 'NO', 'ONE');
    await nodeCommand(y.port, 'REPLICAOF', '127.0.0.1', x.port);
    target.port = x.port;
    // The background check (every second; /readyz answers from its last result) finds the
    // connection on a replica: 503, naming it.
    let answer: { status: number; redis?: string } = { status: 0 };
    await waitUntil(async () => {
      const res = await fetch(`${origin}/readyz`);
      answer = { status: res.status, redis: (await res.json()).checks.redis };
      return answer.status === 503;
    }, 5000);
    expect(answer.redis).toMatch(/read-only/);
    // The readiness check itself made the connection again: a later poll is ready.
    await waitUntil(async () => {
      const res = await fetch(`${origin}/readyz`);
      return res.status === 200 && (await res.json()).checks.redis === 'up';
    });
    // And reads and writes work (a new sign-in's code redemption writes tokens).
    const tokens = (await redeemCode(origin, origin, await authorizeMember(origin, origin))).body;
    expect(await viewerStatus(origin, String(tokens.access_token))).toBe(200);
  }, 60_000);
});

async function waitUntil(probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}
