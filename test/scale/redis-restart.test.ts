/**
 * Redis restarted under a running server (a private redis-server with `--appendonly yes
 * --appendfsync always`, started by this test): the server reports not-ready while Redis is down,
 * recovers by itself when it is back, and every grant confirmed to a client before the outage
 * still works afterwards.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { describeWith } from '../helpers/services.js';
import { startPrivateRedis, findBinary, type PrivateService } from '../services/global-setup.js';
import { authorizeMember, redeemCode, refresh, viewerStatus } from '../helpers/flows.js';

const d = findBinary('redis-server') ? describeWith('redis') : describe.skip;

async function readyStatus(origin: string): Promise<number> {
  const res = await fetch(`${origin}/readyz`);
  await res.arrayBuffer();
  return res.status;
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

d('Redis restart during a run', () => {
  let redis: PrivateService;
  let server: TestServer;
  beforeAll(async () => {
    redis = await startPrivateRedis({ appendonly: true });
    server = await startTestServer({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
  });

  test('not ready while Redis is down, recovers alone, no confirmed grant lost', async () => {
    const origin = server.baseUrl;
    expect(await readyStatus(origin)).toBe(200);
    // Grants confirmed to the client (tokens received) before the outage.
    const confirmed = [];
    for (let i = 0; i < 3; i++) confirmed.push((await redeemCode(origin, origin, await authorizeMember(origin, origin))).body);

    await redis.stop({ keepDir: true });
    await until('readyz 503', async () => (await readyStatus(origin)) === 503);
    const down = await (await fetch(`${origin}/readyz`)).json();
    expect(down.status).toBe('unavailable');
    expect(down.checks.redis).toMatch(/^down/);
    // During the outage the token endpoint fails without a stack trace.
    const during = await refresh(origin, String(confirmed[0]!.refresh_token));
    expect(during.status).toBe(503);
    expect(during.body.error).toBe('temporarily_unavailable');
    expect(during.headers.get('retry-after')).toBe('5');
    expect(await viewerStatus(origin, String(confirmed[0]!.access_token))).toBe(503);
    expect(JSON.stringify(during.body)).not.toMatch(/at .*\.(js|ts):\d+/);

    redis = await startPrivateRedis({ appendonly: true, port: redis.port, dir: redis.dir });
    await until('readyz 200', async () => (await readyStatus(origin)) === 200);

    for (const tokens of confirmed) {
      expect(await viewerStatus(origin, String(tokens.access_token))).toBe(200);
      const rotated = await refresh(origin, String(tokens.refresh_token));
      expect(rotated.status).toBe(200);
    }
  }, 60_000);
});
