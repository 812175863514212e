/**
 * DESIGN D3 + D12: no length of replica outage signs a member out. With `REDIS_MIN_REPLICAS_ACKED=1`
 * a refresh rotation lands on the primary, `WAIT` gets no acknowledgment and the answer is 503; the
 * client resends the same refresh token after each 503 (RFC 6749 clients after
 * `temporarily_unavailable`). A rotation never acknowledged has not started the reuse clock: the
 * resends, however late, get the same successor once the replica is back, and the chain goes on.
 * Once a rotation is acknowledged, the window runs as before (a stale token after it is reuse).
 *
 * A private primary and a private replica (redis-server processes of this file); the replica is
 * stopped with SIGSTOP (its link stays open, it acknowledges nothing) for 3 × the grace window
 * (REFRESH_GRACE_SECONDS=2, so the test does not wait 30 s), then continued with SIGCONT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizeMember, redeemCode, refresh, viewerStatus } from '../helpers/flows.js';
import {
  findBinary,
  freeTcpPort,
  pingRedis,
  startPrivateRedis,
  type PrivateService,
} from '../services/global-setup.js';
import { nodeCommand } from '../helpers/sentinel.js';

const REDIS_SERVER = findBinary('redis-server');
if (!REDIS_SERVER) process.stderr.write('\n*** SKIPPED: redis-server not installed: unacknowledged rotation ***\n');
const d = REDIS_SERVER ? describe : describe.skip;
const GRACE = 2;
const CHAINS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

d('a refresh rotation no replica acknowledged never turns into reuse (REDIS_MIN_REPLICAS_ACKED=1)', () => {
  let primary: PrivateService;
  let replica: ChildProcess;
  let replicaDir: string;
  let server: TestServer;

  async function replicaInSync(): Promise<void> {
    for (const until = Date.now() + 20_000; Date.now() < until; await sleep(100)) {
      const info = String(await nodeCommand(primary.port, 'INFO', 'replication'));
      if (/^slave0:.*state=online/m.test(info) && Number(await nodeCommand(primary.port, 'WAIT', 1, 200)) >= 1) return;
    }
    throw new Error('replica not in sync within 20 s');
  }

  beforeAll(async () => {
    primary = await startPrivateRedis();
    const port = await freeTcpPort();
    replicaDir = mkdtempSync(path.join(os.tmpdir(), 'cg-replica-'));
    replica = spawn(
      REDIS_SERVER!,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', replicaDir, '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100 && !(await pingRedis(`redis://127.0.0.1:${port}`)); i++) await sleep(100);
    await nodeCommand(port, 'REPLICAOF', '127.0.0.1', primary.port);
    await replicaInSync();
    server = await startTestServer({
      REDIS_URL: primary.url,
      REDIS_MIN_REPLICAS_ACKED: '1',
      REFRESH_GRACE_SECONDS: String(GRACE),
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    if (replica && replica.exitCode === null) {
      replica.kill('SIGCONT');
      replica.kill('SIGKILL');
      await new Promise((r) => replica.once('exit', r));
    }
    rmSync(replicaDir, { recursive: true, force: true });
    await primary?.stop();
  });

  const newChain = async () => {
    const res = await redeemCode(server.baseUrl, server.baseUrl, await authorizeMember(server.baseUrl, server.baseUrl));
    expect(res.status).toBe(200);
    return { refreshToken: String(res.body.refresh_token), accessToken: String(res.body.access_token) };
  };

  test('resends after 503s for 3 × the grace window: 0 grants revoked, every chain refreshes afterwards', async () => {
    const chains = await Promise.all(Array.from({ length: CHAINS }, newChain));
    replica.kill('SIGSTOP');
    const seen = new Map<string, number>();
    try {
      // Every chain refreshes (503: not acknowledged) and resends the same token until well past the window.
      const until = Date.now() + 3 * GRACE * 1000 + 500;
      await Promise.all(
        chains.map(async (chain) => {
          while (Date.now() < until) {
            const res = await refresh(server.baseUrl, chain.refreshToken);
            const key = `${res.status}${res.status === 503 && res.headers.get('retry-after') ? ' + Retry-After' : ''}`;
            seen.set(key, (seen.get(key) ?? 0) + 1);
            if (res.status !== 503) break;
            await sleep(250);
          }
        }),
      );
    } finally {
      replica.kill('SIGCONT');
    }
    expect(Object.fromEntries(seen)).toEqual({ '503 + Retry-After': expect.any(Number) });
    await replicaInSync();
    for (const chain of chains) {
      // The resend now gets the successor the first rotation saved; the chain goes on from it.
      const again = await refresh(server.baseUrl, chain.refreshToken);
      expect([again.status, again.body.error]).toEqual([200, undefined]);
      const next = await refresh(server.baseUrl, String(again.body.refresh_token));
      expect([next.status, next.body.error]).toEqual([200, undefined]);
      expect(await viewerStatus(server.baseUrl, String(next.body.access_token))).toBe(200);
    }
  }, 60_000);

  test('an acknowledged rotation starts the window: its stale token after the window is reuse (grant revoked)', async () => {
    const chain = await newChain();
    const rotated = await refresh(server.baseUrl, chain.refreshToken);
    expect(rotated.status).toBe(200);
    await sleep((GRACE + 1.5) * 1000);
    const stale = await refresh(server.baseUrl, chain.refreshToken);
    expect([stale.status, stale.body.error]).toEqual([400, 'invalid_grant']);
    const successor = await refresh(server.baseUrl, String(rotated.body.refresh_token));
    expect(successor.status).toBe(400); // the grant was revoked
  }, 30_000);
});
