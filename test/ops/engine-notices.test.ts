/**
 * oidc-provider writes its own warnings to the console as bare text (lib/helpers/attention.js).
 * The server sends them to its JSON log instead (`event: "engine_notice"`,
 * src/engine/oidc-provider.ts `routeEngineNotices`), and the one it emits by design (the body step
 * of DESIGN D7 reads every body before the provider: "already parsed request body detected") at
 * `debug`: an operator's stderr no longer shows a warning that reads as a misconfiguration.
 * Run as operators run it: the server in its own process, stdout and stderr read apart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/ports.js';

let child: ChildProcess | undefined;
let dir: string;
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

test('the provider\'s "already parsed request body" warning goes to the JSON log at debug, not to stderr', async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'cg-engine-notices-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'development',
      LOG_LEVEL: 'debug',
      BASE_URL: base,
      PORT: String(port),
      DATA_DIR: dir,
      DEMO_PASSWORD: 'engine-notices-password',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  for (let i = 0; i < 600 && !out.includes('listening on port'); i++) await new Promise((r) => setTimeout(r, 100));
  expect(out).toContain('listening on port');

  // Two form posts to the provider: the first makes it warn (once per process).
  for (let i = 0; i < 2; i++) {
    const res = await fetch(`${base}/api/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'not-a-token', client_id: 'demo-member-cli' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ active: false });
  }
  const lines = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; event?: string; engine?: string; msg?: string });
  for (let i = 0; i < 50 && !lines().some((l) => l.event === 'engine_notice'); i++)
    await new Promise((r) => setTimeout(r, 100));
  const notices = lines().filter((l) => l.event === 'engine_notice');
  expect(notices).toEqual([
    expect.objectContaining({
      level: 20,
      engine: 'oidc-provider',
      msg: expect.stringMatching(/^already parsed request body detected/),
    }),
  ]);
  expect(err).not.toContain('oidc-provider WARNING');
  expect(err).not.toContain('already parsed request body');
});
