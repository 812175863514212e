/**
 * Per-middleware cost of one endpoint: wraps every middleware of the app, sends N sequential
 * introspection requests and prints each middleware's own wall time (its time minus downstream)
 * in µs per request. Sequential requests, so socket waits of body readers are included.
 * Usage: npx tsx bench/middleware-cost.ts
 */
import { createServer } from 'node:http';
import pino from 'pino';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { freePort } from '../test/helpers/ports.js';
import { authorizeMember, redeemCode, MEMBER_CLIENT } from '../test/helpers/flows.js';
const port = await freePort();
const config = loadConfig({
  NODE_ENV: 'development',
  PORT: String(port),
  BASE_URL: `http://127.0.0.1:${port}`,
  DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'mw-')),
  DEMO_PASSWORD: 'demo-password-for-tests',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_INTROSPECTION: '100000000/1',
});
const running = await startServer(config, pino({ level: 'silent' }));
const origin = `http://127.0.0.1:${port}`;
const stats = new Map<string, number>();
const mws = running.app.middleware as Array<(ctx: unknown, next: () => Promise<unknown>) => Promise<unknown>>;
mws.forEach((mw, i) => {
  const name = `${i}:${mw.name || 'anon'}`;
  mws[i] = async (ctx, next) => {
    const t0 = process.hrtime.bigint();
    let down = 0n;
    const r = await mw(ctx, async () => {
      const a = process.hrtime.bigint();
      try {
        return await next();
      } finally {
        down += process.hrtime.bigint() - a;
      }
    });
    stats.set(name, (stats.get(name) ?? 0) + Number(process.hrtime.bigint() - t0 - down));
    return r;
  };
});
// The running server captured the old chain: serve the wrapped chain on a second port.
const port2 = await freePort();
const srv = createServer(running.app.callback()).listen(port2);
const t = (await redeemCode(origin, origin, await authorizeMember(origin, origin, 'openid account:read'))).body;
stats.clear();
const N = 3000;
const body = new URLSearchParams({ token: String(t.access_token), client_id: MEMBER_CLIENT }).toString();
for (let i = 0; i < N; i++) {
  const r = await fetch(`http://127.0.0.1:${port2}/api/oauth/introspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  await r.text();
}
for (const [k, v] of [...stats].sort((a, b) => b[1] - a[1])) console.log(k.padEnd(30), (v / N / 1000).toFixed(1), 'µs');
srv.close();
await running.stop(100);
process.exit(0);
