/**
 * DESIGN D12: a shared store's outage is reported in `/healthz` details and in metrics, while
 * `/healthz` keeps answering 200 (liveness: an outage must not restart every process).
 *
 * The server reaches the real PostgreSQL and the real Redis through TCP relays this file runs;
 * cutting a relay (every connection closed, new ones refused) is the outage. `/healthz` names the
 * store as `down` with its last error, `coursegate_dependency_up` says 0, and both recover when the
 * relay comes back. The scrape-time gauges are there too: the build's version, the PostgreSQL pool
 * and the Redis client's ioredis state.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startRelay, type Relay } from '../helpers/relay.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  createTestDatabase,
  deleteRedisPrefix,
  describeWith,
  randomPrefix,
  TEST_REDIS_URL,
  type TestDatabase,
} from '../helpers/services.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Health {
  status: string;
  dependencies: Record<string, { state: string; since: string; lastError?: { message: string; at: string } }>;
}

/** Polls `/healthz` until `until` holds (always 200), within `ms`. */
async function healthUntil(server: TestServer, until: (h: Health) => boolean, ms = 15_000): Promise<Health> {
  const deadline = Date.now() + ms;
  let last: Health | undefined;
  while (Date.now() < deadline) {
    const res = await fetch(`${server.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    last = (await res.json()) as Health;
    if (until(last)) return last;
    await sleep(200);
  }
  throw new Error(`/healthz never matched: ${JSON.stringify(last)}`);
}

const metricsText = async (server: TestServer) => (await fetch(`${server.baseUrl}/metrics`)).text();

describeWith('postgres', 'redis')('/healthz details and dependency metrics (DESIGN D12)', () => {
  let database: TestDatabase;
  let pgRelay: Relay;
  let redisRelay: Relay;
  let server: TestServer;
  const prefix = randomPrefix();

  beforeAll(async () => {
    database = await createTestDatabase();
    const pgUrl = new URL(database.url);
    pgRelay = await startRelay({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
    pgUrl.port = String(pgRelay.port);
    const redisUrl = new URL(TEST_REDIS_URL!);
    redisRelay = await startRelay({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    redisUrl.port = String(redisRelay.port);
    server = await startTestServer({
      DATABASE_URL: pgUrl.href,
      REDIS_URL: redisUrl.href,
      REDIS_KEY_PREFIX: prefix,
      HEALTH_PROBE_SECONDS: '1',
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await pgRelay?.close();
    await redisRelay?.close();
    await database?.drop();
    await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
  });

  test('every dependency is named, up once probed; mail unknown until a message is sent', async () => {
    const health = await healthUntil(server, (h) => h.dependencies.postgres?.state === 'up');
    expect(health.status).toBe('ok');
    expect(Object.keys(health.dependencies).sort()).toEqual(['mail', 'postgres', 'redis']);
    expect(health.dependencies.redis?.state).toBe('up');
    expect(health.dependencies.mail?.state).toBe('unknown');
    const text = await metricsText(server);
    expect(text).toMatch(/coursegate_dependency_up\{dependency="postgres"\} 1/);
    expect(text).toMatch(/coursegate_dependency_up\{dependency="redis"\} 1/);
    expect(text).toMatch(/coursegate_dependency_up\{dependency="mail"\} 0/);
  });

  test('build version, PostgreSQL pool and Redis client state are gauges', async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const text = await metricsText(server);
    expect(text).toContain(`coursegate_build_info{version="${version}",node="${process.versions.node}"} 1`);
    expect(text).toMatch(/coursegate_pg_pool_connections\{state="in_use"\} \d+/);
    expect(text).toMatch(/coursegate_pg_pool_connections\{state="idle"\} [1-9]/);
    expect(text).toMatch(/coursegate_pg_pool_connections\{state="waiting"\} 0/);
    expect(text).toMatch(/coursegate_redis_client_state\{client="oidc",state="ready"\} 1/);
    expect(text).toMatch(/coursegate_redis_client_state\{client="oidc",state="end"\} 0/);
  });

  test('a PostgreSQL outage: /healthz 200 naming postgres down with its error, the gauge 0; then up again', async () => {
    await pgRelay.cut();
    try {
      const down = await healthUntil(server, (h) => h.dependencies.postgres?.state === 'down');
      expect(down.status).toBe('ok');
      expect(down.dependencies.postgres?.lastError?.message).toBeTruthy();
      expect(down.dependencies.postgres?.lastError?.message).not.toContain(database.url);
      expect(down.dependencies.redis?.state).toBe('up');
      expect(await metricsText(server)).toMatch(/coursegate_dependency_up\{dependency="postgres"\} 0/);
    } finally {
      await pgRelay.restore();
    }
    const up = await healthUntil(server, (h) => h.dependencies.postgres?.state === 'up');
    // The last error stays for the operator after recovery.
    expect(up.dependencies.postgres?.lastError).toBeDefined();
    expect(await metricsText(server)).toMatch(/coursegate_dependency_up\{dependency="postgres"\} 1/);
  }, 60_000);

  test('a Redis outage: /healthz names redis down; the client state leaves ready; then up again', async () => {
    await redisRelay.cut();
    try {
      const down = await healthUntil(server, (h) => h.dependencies.redis?.state === 'down');
      expect(down.dependencies.postgres?.state).toBe('up');
      const text = await metricsText(server);
      expect(text).toMatch(/coursegate_dependency_up\{dependency="redis"\} 0/);
      expect(text).toMatch(/coursegate_redis_client_state\{client="oidc",state="ready"\} 0/);
    } finally {
      await redisRelay.restore();
    }
    await healthUntil(server, (h) => h.dependencies.redis?.state === 'up', 30_000);
    expect(await metricsText(server)).toMatch(/coursegate_redis_client_state\{client="oidc",state="ready"\} 1/);
  }, 60_000);
});
