/**
 * coursegate in its own process, as operators run `npm start` (`node --import tsx src/main.ts`,
 * development mode, a fresh data directory): for tests that read what only a process shows (its
 * stdout and stderr apart, its threads in /proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';

/** A running server process. */
export interface SpawnedServer {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` (BASE_URL). */
  baseUrl: string;
  /** Everything it wrote to stdout (JSON log lines) so far. */
  stdout(): string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, waits for the exit, deletes the data directory. */
  stop(): Promise<void>;
}

/**
 * Starts the server and waits for its "listening on port" line (at most 60 s).
 * @param env more environment (e.g. `LOG_LEVEL`); PATH and HOME are passed on, nothing else
 * @throws Error when the process exits or does not listen within 60 s (its stderr in the message)
 */
export async function spawnServer(env: Record<string, string> = {}): Promise<SpawnedServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-spawned-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'development',
      BASE_URL: baseUrl,
      PORT: String(port),
      DATA_DIR: dir,
      DEMO_PASSWORD: 'spawned-server-password',
      // Nothing balances in front of a test's server: stop at SIGTERM without the default delay.
      SHUTDOWN_DELAY_SECONDS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 600 && !out.includes('listening on port'); i++) {
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!out.includes('listening on port')) {
    await stop();
    throw new Error(`the server did not start: ${err.slice(-2000)}`);
  }
  return { child, baseUrl, stdout: () => out, stderr: () => err, stop };
}
