/**
 * A "reload" signal on the real entry point (`src/main.ts`, one process: `node --import tsx`, as the
 * image runs `node dist/src/main.js`): settings are read at start only (docs/operator-guide.md), so
 * SIGHUP must neither stop the process nor change anything; it is answered with a line saying to
 * restart. Node.js exits on an unhandled SIGHUP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/ports.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let child: ChildProcess;
let dataDir: string;
let stderr = '';

afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('SIGHUP is ignored with a line saying to restart; the process keeps serving', async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cg-sighup-'));
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: origin,
      DATA_DIR: dataDir,
      DEMO_PASSWORD: 'demo-password-for-tests',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const deadline = Date.now() + 60_000;
  while (
    !(await fetch(`${origin}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) throw new Error('the server did not become ready');
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGHUP');
  const until = Date.now() + 5_000;
  while (!stderr.includes('SIGHUP ignored') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  expect(stderr).toContain('SIGHUP ignored: settings are read at start only; restart the process to apply a change');
  expect(child.exitCode).toBeNull();
  expect((await fetch(`${origin}/readyz`)).status).toBe(200);
}, 90_000);
