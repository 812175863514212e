/**
 * DESIGN D12: a Redis client always comes back. ioredis 6 ends a client for good (status `end`,
 * every command "Connection is closed") when a connection attempt rejects; through Sentinel that
 * happens when the failover detector of the lost connection sees `+switch-master` while the next
 * attempt is asking a sentinel for the primary. A scripted sentinel (test/helpers/scripted-sentinel.ts)
 * in front of a private redis-server puts the client in exactly that state, every time: the
 * primary is killed (`kill -9`), and the sentinel publishes `+switch-master` as the reconnection
 * asks it for the primary. The primary comes back a second later on its port.
 *
 * Asserted: the client (and a whole coursegate process built on it) connects again and serves;
 * `/readyz` reports Redis up again, never 200 with the client ended once Redis is back.
 */
import { connectRedis, closeRedis, redisEnded } from '../../adapters/redis.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startScriptedSentinel, type ScriptedSentinel } from '../helpers/scripted-sentinel.js';
import { findBinary, startPrivateRedis, type PrivateService } from '../services/global-setup.js';
import { memberToken } from '../helpers/member-token.js';

const REDIS_SERVER = findBinary('redis-server');
if (!REDIS_SERVER) process.stderr.write('\n*** SKIPPED: redis-server not installed: ended-client test ***\n');
const d = REDIS_SERVER ? describe : describe.skip;
const NAME = 'cgscripted';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await sleep(50);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

/** `kill -9` of the primary (no AOF: it comes back empty, as a restarted node may). */
async function killPrimary(primary: PrivateService): Promise<void> {
  process.kill(primary.pid!, 'SIGKILL');
  await until(
    'primary gone',
    () => {
      try {
        process.kill(primary.pid!, 0);
        return false;
      } catch {
        return true;
      }
    },
    5000,
  );
}

d('a Redis client that gave up connecting (status end) connects again', () => {
  let primary: PrivateService;
  let sentinel: ScriptedSentinel;

  beforeEach(async () => {
    primary = await startPrivateRedis();
    sentinel = await startScriptedSentinel(NAME, primary.port);
  });
  afterEach(async () => {
    await sentinel?.close();
    await primary?.stop().catch(() => undefined);
  });

  /** Kills the primary while the sentinel switches on the reconnection's lookup; restarts it 1 s later. */
  async function failoverThatEndsTheClient(watch: () => string[]): Promise<void> {
    sentinel.switchOnNextLookup(200);
    const lookupsBefore = sentinel.lookups();
    await killPrimary(primary);
    await until('the reconnection asked the sentinel', () => sentinel.lookups() > lookupsBefore, 10_000);
    await sleep(1000);
    primary = await startPrivateRedis({ port: primary.port, dir: primary.dir });
    expect(watch()).toContain('end'); // the state ioredis gives up in was reached
  }

  test('connectRedis through Sentinel: ended by +switch-master during a reconnection, it is ready again', async () => {
    const client = connectRedis({ sentinel: { sentinels: [sentinel.address], name: NAME } });
    client.on('error', () => undefined);
    const statuses: string[] = [];
    for (const s of ['end', 'ready', 'reconnecting', 'connecting'] as const) client.on(s, () => statuses.push(s));
    try {
      await until('client ready', () => client.status === 'ready', 10_000);
      await until('failover detector subscribed', () => sentinel.subscribers() > 0, 10_000);
      await failoverThatEndsTheClient(() => statuses);
      await until('client ready again', () => client.status === 'ready', 10_000);
      expect(redisEnded(client)).toBe(false);
      expect(await client.set('cg-ended-probe', '1')).toBe('OK');
    } finally {
      await closeRedis(client);
    }
    // Closing for good is final: it ends and stays ended.
    await until('client closed', () => client.status === 'end', 5000);
    await sleep(1000);
    expect(client.status).toBe('end');
  }, 40_000);

  describe('a coursegate process on that Sentinel', () => {
    let server: TestServer;
    afterEach(async () => {
      await server?.close();
    });

    test('serves again and /readyz says Redis is up once the primary is back', async () => {
      server = await startTestServer({
        REDIS_SENTINELS: sentinel.address,
        REDIS_SENTINEL_NAME: NAME,
        REDIS_MIN_REPLICAS_ACKED: '0',
      });
      const origin = server.baseUrl;
      const client = server.store.redis!;
      const statuses: string[] = [];
      client.on('end', () => statuses.push('end'));
      await until('failover detector subscribed', () => sentinel.subscribers() > 0, 10_000);
      await failoverThatEndsTheClient(() => statuses);
      // Redis is back: within a few seconds the process serves again and says so.
      let last: { status: number; body: { checks?: Record<string, string> } } | undefined;
      await until(
        '/readyz 200 with redis up',
        async () => {
          const res = await fetch(`${origin}/readyz`);
          last = { status: res.status, body: (await res.json()) as { checks?: Record<string, string> } };
          // Never "ready" while this process's client has given up.
          if (redisEnded(client)) expect(last.status).toBe(503);
          return last.status === 200 && last.body.checks?.redis === 'up' && client.status === 'ready';
        },
        15_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; last /readyz ${JSON.stringify(last)}; client ${client.status}`);
      });
      // The member flow works again (the demo member client is stored durably; its tokens in Redis).
      expect(await memberToken({ baseUrl: origin, email: 'student@demo.test' })).toEqual(expect.any(String));
    }, 60_000);
  });
});
