/**
 * Operations surface (docs/deployment.md): /healthz liveness, /readyz readiness, Prometheus
 * metrics at /metrics, and graceful shutdown that drains requests in flight.
 */
import http from 'node:http';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizeMember, redeemCode } from '../helpers/flows.js';

describe('health, readiness and metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  test("/healthz is 200 {status: ok} with each dependency's state; /readyz checks the stores", async () => {
    const live = await fetch(`${server.baseUrl}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toMatchObject({
      status: 'ok',
      dependencies: { sqlite: { state: 'up' }, mail: { state: 'unknown' } },
    });
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { sqlite: 'up' } });
  });

  test('/metrics exposes requests, token issuance, errors and store latency without secrets', async () => {
    const tokens = (
      await redeemCode(server.baseUrl, server.baseUrl, await authorizeMember(server.baseUrl, server.baseUrl))
    ).body;
    await fetch(`${server.baseUrl}/api/oauth/token`, {
      method: 'POST',
      body: 'grant_type=nope',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const res = await fetch(`${server.baseUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/coursegate_http_requests_total\{method="POST",route="token",status="200"\} 1/);
    expect(text).toMatch(/coursegate_http_request_duration_seconds_bucket\{le="[^"]+",method="POST",route="token"\}/);
    expect(text).toMatch(/coursegate_tokens_issued_total\{type="access_token"\} [1-9]/);
    expect(text).toMatch(/coursegate_tokens_issued_total\{type="authorization_code"\} [1-9]/);
    expect(text).toMatch(/coursegate_errors_total\{kind="token_endpoint"\} [1-9]/);
    expect(text).toMatch(
      /coursegate_store_operation_duration_seconds_count\{store="sqlite",model="AuthorizationCode",op="consume"\} [1-9]/,
    );
    expect(text).toMatch(
      /coursegate_store_operation_duration_seconds_count\{store="sqlite",model="platform",op="query"\} [1-9]/,
    );
    expect(text).toMatch(/process_cpu_user_seconds_total/);
    expect(text).not.toContain(String(tokens.access_token));
    expect(text).not.toContain(String(tokens.refresh_token));
    expect(text).not.toMatch(/\/interaction\/[A-Za-z0-9_-]{10,}/);
  });

  test('every platform read is timed, those run on the cached statement directly too (the member check of each UserInfo call)', async () => {
    const tokens = (
      await redeemCode(server.baseUrl, server.baseUrl, await authorizeMember(server.baseUrl, server.baseUrl))
    ).body;
    const platformReads = async () => {
      const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
      return Number(
        /coursegate_store_operation_duration_seconds_count\{store="sqlite",model="platform",op="query"\} (\d+)/.exec(
          text,
        )?.[1],
      );
    };
    const before = await platformReads();
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.baseUrl}/api/oauth/userinfo`, {
        headers: { authorization: `Bearer ${String(tokens.access_token)}` },
      });
      expect(res.status).toBe(200);
    }
    expect(await platformReads()).toBeGreaterThanOrEqual(before + 5);
  });

  test('an error thrown to the edge is counted with the status it is answered with, not 404', async () => {
    // The interaction page throws InvalidRequest (400); the edge renders it outside the metrics step.
    expect((await fetch(`${server.baseUrl}/interaction/no-such-interaction`)).status).toBe(400);
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    expect(text).toMatch(/coursegate_http_requests_total\{method="GET",route="interaction",status="400"\} 1/);
    expect(text).not.toMatch(/coursegate_http_requests_total\{method="GET",route="interaction",status="404"\}/);
  });
});

describe('graceful shutdown', () => {
  test('stop() turns /readyz to 503, refuses new connections and lets requests in flight finish', async () => {
    const server = await startTestServer();
    const { port } = server;
    // A request in flight: its body arrives slowly, so it is still running when stop() begins.
    const inflight = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/oauth/token',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('grant_type=authorization_code&');
      setTimeout(
        () => req.end('client_id=demo-member-cli&code=x&code_verifier=y&redirect_uri=http://127.0.0.1:53682/callback'),
        400,
      );
    });
    await new Promise((r) => setTimeout(r, 100));
    const stopping = server.close();
    expect(server.readiness.draining).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    const done = await inflight;
    expect(done.status).toBe(400);
    expect(JSON.parse(done.body).error).toBe('invalid_grant');
    await stopping;
  });
});
