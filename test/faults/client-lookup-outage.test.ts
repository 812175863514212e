/**
 * DESIGN D12: a platform-store outage is a 503 with `Retry-After` on every path that needs the
 * store, client lookup included, never an authentication failure. Client registrations are
 * durable in PostgreSQL; Redis keeps a copy that answers while PostgreSQL is unreachable. That copy
 * is written again when a lookup finds it missing (after Redis was emptied), and a lookup that
 * finds neither answers 503, not 401 `invalid_client` (which a public client reads as "my
 * registration is gone").
 *
 * The server reaches PostgreSQL (a fresh database on the test server) through a TCP proxy that the
 * test cuts; Redis is the shared test server under this run's own key prefix (deleted, never FLUSHALL).
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  createTestDatabase,
  deleteRedisPrefix,
  describeWith,
  randomPrefix,
  type TestDatabase,
} from '../helpers/services.js';
import { Redis } from 'ioredis';
import { MEMBER_CLIENT, authorizeMember, redeemCode, refresh } from '../helpers/flows.js';
import { COPY_CHECK_MS } from '../../src/store/durable-clients.js';
import { startCuttableProxy, type CuttableProxy } from '../helpers/tcp-proxy.js';

const CHAINS = 4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeWith('redis', 'postgres')('client lookup during a PostgreSQL outage (after Redis was emptied)', () => {
  let database: TestDatabase;
  let proxy: CuttableProxy;
  let server: TestServer;
  const prefix = randomPrefix();
  let chains: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const target = new URL(TEST_DATABASE_URL!);
    proxy = await startCuttableProxy(target.hostname, Number(target.port || 5432));
    const url = new URL(database.url);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    server = await startTestServer({
      DATABASE_URL: url.href,
      REDIS_URL: TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_TOKEN: '100000/60',
    });
  }, 60_000);
  afterAll(async () => {
    await proxy?.restore().catch(() => undefined);
    await server?.close();
    await proxy?.close();
    await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
    await database?.drop();
  });

  const signIn = async () => {
    const res = await redeemCode(server.baseUrl, server.baseUrl, await authorizeMember(server.baseUrl, server.baseUrl));
    expect(res.status).toBe(200);
    return String(res.body.refresh_token);
  };

  /** Every chain refreshes for `ms` (resending its token after a 503); answers by status. */
  async function refreshUnderOutage(ms: number): Promise<Record<string, number>> {
    const seen: Record<string, number> = {};
    const until = Date.now() + ms;
    await Promise.all(
      chains.map(async (_, i) => {
        while (Date.now() < until) {
          const res = await refresh(server.baseUrl, chains[i]!);
          const key =
            res.status === 503
              ? `503${res.headers.get('retry-after') ? ' + Retry-After' : ''}`
              : `${res.status}${res.body.error ? ` ${String(res.body.error)}` : ''}`;
          seen[key] = (seen[key] ?? 0) + 1;
          if (res.status === 200) chains[i] = String(res.body.refresh_token);
          await sleep(100);
        }
      }),
    );
    return seen;
  }

  test('Redis emptied, members sign in again, PostgreSQL cut: 0 × 401, only successes and 503 + Retry-After', async () => {
    chains = await Promise.all(Array.from({ length: CHAINS }, signIn));
    // Redis loses everything (the run's keys): members sign in again; the client copy is rebuilt on the way.
    await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
    await sleep(COPY_CHECK_MS + 500); // each process checks a client's copy at most this often
    chains = await Promise.all(Array.from({ length: CHAINS }, signIn));
    const redis = new Redis(TEST_REDIS_URL!);
    try {
      expect(await redis.exists(`${prefix}:Client:{${MEMBER_CLIENT}}`)).toBe(1);
    } finally {
      redis.disconnect();
    }
    await proxy.cut();
    let seen: Record<string, number>;
    try {
      seen = await refreshUnderOutage(3000);
    } finally {
      await proxy.restore();
    }
    process.stderr.write(`client lookup, PostgreSQL cut: ${JSON.stringify(seen)}\n`);
    expect(Object.keys(seen).filter((k) => k !== '200' && k !== '503 + Retry-After')).toEqual([]);
  }, 60_000);

  test('no client copy in Redis and PostgreSQL cut: the token endpoint answers 503 + Retry-After, never invalid_client', async () => {
    await deleteRedisPrefix(TEST_REDIS_URL!, `${prefix}:Client`);
    await proxy.cut();
    let seen: Record<string, number>;
    try {
      seen = await refreshUnderOutage(2000);
    } finally {
      await proxy.restore();
    }
    process.stderr.write(`client lookup without a copy, PostgreSQL cut: ${JSON.stringify(seen)}\n`);
    expect(Object.keys(seen)).toEqual(['503 + Retry-After']);
    // PostgreSQL back: every chain refreshes (resending its token: the 503s rotated nothing).
    for (const [i, token] of chains.entries()) {
      let res = await refresh(server.baseUrl, token);
      for (const until = Date.now() + 15_000; res.status === 503 && Date.now() < until; await sleep(250))
        res = await refresh(server.baseUrl, token);
      expect([res.status, res.body.error]).toEqual([200, undefined]);
      chains[i] = String(res.body.refresh_token);
    }
  }, 60_000);
});
