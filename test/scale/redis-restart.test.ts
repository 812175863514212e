/**
 * Redis restarted under a running server (a private redis-server with `--appendonly yes
 * --appendfsync always`, started by this test): while Redis is down the process stays in rotation
 * (issue #28: a shared store's outage is reported in `/readyz` checks and answered per request
 * with 503; discovery and JWKS are still served), recovers by itself when it is back, and every
 * grant confirmed to a client before the outage still works afterwards.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { describeWith } from '../helpers/services.js';
import { startPrivateRedis, findBinary, type PrivateService } from '../services/global-setup.js';
import { authorizeMember, redeemCode, refresh, viewerStatus } from '../helpers/flows.js';

const d = findBinary('redis-server') ? describeWith('redis') : describe.skip;

async function redisCheck(origin: string): Promise<string> {
  const res = await fetch(`${origin}/readyz`);
  const body = (await res.json()) as { checks: Record<string, string> };
  return `${res.status} ${body.checks.redis}`;
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

  test('ready but reporting Redis down during the outage, 503 per request, recovers alone, no confirmed grant lost', async () => {
    const origin = server.baseUrl;
    expect(await redisCheck(origin)).toBe('200 up');
    // Grants confirmed to the client (tokens received) before the outage.
    const confirmed = [];
    for (let i = 0; i < 3; i++)
      confirmed.push((await redeemCode(origin, origin, await authorizeMember(origin, origin))).body);

    await redis.stop({ keepDir: true });
    await until('redis reported down', async () => (await redisCheck(origin)).startsWith('200 down'));
    const down = await (await fetch(`${origin}/readyz`)).json();
    expect(down.status).toBe('ready');
    expect(down.checks.redis).toMatch(/^down/);
    // What needs no Redis is still served: the process must stay in rotation.
    expect((await fetch(`${origin}/.well-known/openid-configuration`)).status).toBe(200);
    expect((await fetch(`${origin}/.well-known/jwks.json`)).status).toBe(200);
    // During the outage the token endpoint fails without a stack trace.
    const during = await refresh(origin, String(confirmed[0]!.refresh_token));
    expect(during.status).toBe(503);
    expect(during.body.error).toBe('temporarily_unavailable');
    expect(during.headers.get('retry-after')).toBe('5');
    expect(await viewerStatus(origin, String(confirmed[0]!.access_token))).toBe(503);
    expect(JSON.stringify(during.body)).not.toMatch(/at .*\.(js|ts):\d+/);
    // Issue #28: the outage's 503s are counted apart from server errors.
    const metrics = await (await fetch(`${origin}/metrics`)).text();
    expect(metrics).toMatch(/coursegate_errors_total\{kind="http_503_unavailable"\} [1-9]/);
    expect(metrics).not.toMatch(/coursegate_errors_total\{kind="(http_5xx|oidc_server_error)"\}/);

    redis = await startPrivateRedis({ appendonly: true, port: redis.port, dir: redis.dir });
    await until('redis reported up', async () => (await redisCheck(origin)) === '200 up');

    for (const tokens of confirmed) {
      expect(await viewerStatus(origin, String(tokens.access_token))).toBe(200);
      const rotated = await refresh(origin, String(tokens.refresh_token));
      expect(rotated.status).toBe(200);
    }
  }, 60_000);
});
