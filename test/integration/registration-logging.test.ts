/**
 * Every registration decision is logged with the DESIGN D1 row that fired, and never with a secret.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { DEMO_PASSWORD, freePort } from '../helpers/server.js';

const lines: Record<string, unknown>[] = [];
let raw = '';
let running: RunningServer;
let base: string;
let dataDir: string;

beforeAll(async () => {
  const port = await freePort();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-log-'));
  base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    BASE_URL: base,
    DATA_DIR: dataDir,
    DEMO_PASSWORD,
    LOG_LEVEL: 'info',
  });
  const sink = new Writable({
    write(chunk, _enc, cb) {
      raw += chunk.toString();
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      cb();
    },
  });
  running = await startServer(config, pino({ level: 'info' }, sink));
});
afterAll(async () => {
  await running.stop(1000);
  rmSync(dataDir, { recursive: true, force: true });
});

const register = (body: unknown) =>
  fetch(`${base}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

test('decisions are logged with d1_row and outcome; the confidential client secret is not', async () => {
  const loopback = await register({
    redirect_uris: ['http://127.0.0.1/cb'],
    token_endpoint_auth_method: 'client_secret_post',
  });
  expect(loopback.status).toBe(201);
  await register({ client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] });
  await register({ client_name: 'Evil', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] });
  await register({ redirect_uris: ['https://evil.example/cb'] });
  await new Promise((r) => setTimeout(r, 50));
  const decisions = lines.filter((l) => l.event === 'registration');
  expect(decisions.map((d) => [d.d1_row, d.outcome])).toEqual([
    [2, 'create_loopback'],
    [3, 'vendor'],
    [4, 'reject'],
    [5, 'reject'],
  ]);
  expect(decisions[0]!.client_id).toBe(loopback.body.client_id);
  expect(decisions[1]!.client_id).toBe('vendor-claude');
  expect(loopback.body.client_secret).toEqual(expect.any(String));
  expect(raw).not.toContain(loopback.body.client_secret);
});
