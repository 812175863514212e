/**
 * What an operator's log collector reads (docs/deployment.md "Logs"): JSON lines only.
 *
 * - A client that resets its connection while its request is read leaves one JSON line on stdout
 *   (the stack trace as one field), and nothing on stderr: Koa's default error handler printed the
 *   stack as several plain-text lines there.
 * - An engine (oidc-provider) `server_error` line carries the `req_id` of its request, the same
 *   as the access log line and the `X-Request-Id` answer header.
 *
 * Run as operators run it: the server in its own process, stdout and stderr read apart.
 */
import net from 'node:net';
import { startRelay, type Relay } from '../helpers/relay.js';
import { deleteRedisPrefix, describeWith, randomPrefix, TEST_REDIS_URL } from '../helpers/services.js';
import { spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Line = { level: number; msg?: string; event?: string; req_id?: string; err?: Record<string, unknown> };
const jsonLines = (text: string): Line[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);

describe('a client that resets its connection', () => {
  let server: SpawnedServer | undefined;
  afterAll(() => server?.stop());

  test('leaves JSON on stdout and nothing on stderr', async () => {
    server = await spawnServer({ LOG_LEVEL: 'info' });
    const { port } = new URL(server.baseUrl);
    // Half a form body, then a TCP reset while the server waits for the rest.
    for (let i = 0; i < 3; i++) {
      const socket = net.connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        'POST /api/oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
          'Content-Length: 1000\r\n\r\ngrant_type=refresh_token&refresh_token=',
      );
      await sleep(200);
      socket.resetAndDestroy();
    }
    // The server still answers, and has had time to write whatever it writes.
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    await sleep(500);
    expect(server.stderr()).toBe('');
    const stdout = server.stdout();
    const nonJson = stdout.split('\n').filter((l) => l.trim() && !l.startsWith('{') && !/^\s{2}\S/.test(l));
    // The start banner is plain text by design; nothing else is.
    expect(nonJson.filter((l) => !/^coursegate listening|^\s/.test(l))).toEqual([]);
    expect(stdout).not.toMatch(/^\s+at /m);
    const resets = jsonLines(stdout).filter((l) => l.event === 'client_connection_reset');
    expect(resets.length).toBeGreaterThanOrEqual(1);
    expect(resets[0]?.err).toMatchObject({ code: 'ECONNRESET', stack: expect.stringContaining('ECONNRESET') });
  }, 60_000);
});

describeWith('redis')('an engine server_error line', () => {
  let server: SpawnedServer | undefined;
  let relay: Relay | undefined;
  const prefix = randomPrefix();
  afterAll(async () => {
    await server?.stop();
    await relay?.close();
    await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
  });

  test('carries the req_id of its request', async () => {
    const redisUrl = new URL(TEST_REDIS_URL!);
    relay = await startRelay({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    redisUrl.port = String(relay.port);
    server = await spawnServer({ LOG_LEVEL: 'info', REDIS_URL: redisUrl.href, REDIS_KEY_PREFIX: prefix });
    await relay.cut();
    const res = await fetch(`${server.baseUrl}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: 'x'.repeat(43),
        client_id: 'demo-member-cli',
      }).toString(),
    });
    expect(res.status).toBe(503);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toBeTruthy();
    let engine: Line | undefined;
    for (let i = 0; i < 50 && !engine; i++) {
      engine = jsonLines(server.stdout()).find((l) => l.msg === 'oidc-provider server_error');
      if (!engine) await sleep(100);
    }
    expect(engine).toMatchObject({ level: 50, req_id: requestId });
    await relay.restore();
  }, 60_000);
});
