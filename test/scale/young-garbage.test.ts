/**
 * Issue #15, memory (docs/deployment.md §2 "Memory"): a finished request's objects die in the young
 * generation instead of being promoted to the old one, where they stayed until the next full
 * collection and, under load, grew the RSS by ~150 MB.
 *
 * Measured the way V8 sees it: after a warm-up and a full collection, N requests, then two
 * scavenges (`gc({ type: 'minor' })`: what is still reachable then is promoted); the growth of the
 * old space divided by N is what a request left there. The causes were closures that V8 reaches from
 * old space (a per-instance getter defined with `Object.defineProperty`: oidc-provider's `ctx.oidc`,
 * ioredis's Pipeline `length`); before the fixes a discovery request left ~10 KB and a Redis upsert of a
 * grant-bound token ~13 KB; after, ~1.8 KB and ~3.6 KB (the test client's own objects included).
 */
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Redis } from 'ioredis';
import { connectRedis, redisAdapterFactory } from '../../adapters/redis.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { TEST_REDIS_URL, deleteRedisPrefix, describeWith, randomPrefix } from '../helpers/services.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
const oldSpaceUsed = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;

/** Old-space bytes left per call of `one` (8 at a time), after a warm-up of the same size. */
async function promotedPerCall(n: number, one: () => Promise<unknown>): Promise<number> {
  const run = async () => {
    for (let i = 0; i < n; i += 8) await Promise.all(Array.from({ length: 8 }, one));
  };
  await run();
  gc({ type: 'major' });
  const before = oldSpaceUsed();
  await run();
  gc({ type: 'minor' });
  gc({ type: 'minor' });
  return (oldSpaceUsed() - before) / n;
}

describe('a finished HTTP request is young garbage', () => {
  let server: TestServer;
  let agent: http.Agent;
  beforeAll(async () => {
    server = await startTestServer();
    agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  }, 60_000);
  afterAll(async () => {
    agent?.destroy();
    await server?.close();
  });

  test('an oidc-provider route (discovery) leaves < 5 KB per request in the old space (src/http/release.ts)', async () => {
    const get = () =>
      new Promise<void>((resolve, reject) => {
        http
          .get(`${server.baseUrl}/.well-known/openid-configuration`, { agent }, (res) => {
            res.resume();
            res.on('end', resolve);
          })
          .on('error', reject);
      });
    // Background work of the server (the audit purge's first batch 5 s after start, key-ring
    // refreshes) can promote objects during one window; it only ever adds, so the least of three
    // windows is what a request leaves (a real leak shows in every window).
    const windows = [await promotedPerCall(800, get), await promotedPerCall(800, get), await promotedPerCall(800, get)];
    expect(Math.min(...windows)).toBeLessThan(5_000);
    // Three windows of 800 requests, each with forced collections: ~10 s on a quiet 2-vCPU machine,
    // past jest's default 30 s when another process shares the cores.
  }, 120_000);
});

describeWith('redis')('a Redis write does not keep its caller alive', () => {
  let redis: Redis;
  const prefix = randomPrefix();
  beforeAll(() => {
    redis = connectRedis({ url: TEST_REDIS_URL! }) as Redis;
  });
  afterAll(async () => {
    redis.disconnect();
    await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
  });

  test('a grant-bound upsert (locator script, no auto-pipelining) leaves < 8 KB per call in the old space', async () => {
    const Adapter = redisAdapterFactory(redis, { prefix });
    const adapter = new Adapter('AccessToken');
    let i = 0;
    const upsert = async () => {
      // What a request holds while it waits for the store (~6 KB).
      const request = { objects: Array.from({ length: 200 }, (_, k) => ({ k })) };
      const id = `at${i++ % 64}`;
      await adapter.upsert(id, { jti: id, grantId: 'G1', kind: 'AccessToken' }, 600);
      return request.objects.length;
    };
    expect(await promotedPerCall(400, upsert)).toBeLessThan(8_000);
  });
});
