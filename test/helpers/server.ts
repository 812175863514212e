/**
 * Starts the real coursegate server on a free port with a fresh embedded store, for one test file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { freePort } from './ports.js';

export const DEMO_PASSWORD = 'demo-password-for-tests';

export { freePort };

export interface TestServer extends RunningServer {
  baseUrl: string;
  config: Config;
  dataDir: string;
  /** Stops the server and deletes its data directory (unless `keepData`). */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/** Starts a server; `env` overrides the environment used by `loadConfig`. */
export async function startTestServer(
  env: Record<string, string> = {},
  existingDataDir?: string,
  existingPort?: number,
): Promise<TestServer> {
  const port = existingPort ?? (await freePort());
  const dataDir = existingDataDir ?? mkdtempSync(path.join(os.tmpdir(), 'coursegate-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DEMO_PASSWORD,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const logger = pino({ level: config.logLevel });
  const running = await startServer(config, logger);
  return Object.assign(running, {
    baseUrl: config.baseUrl,
    config,
    dataDir,
    async close(options: { keepData?: boolean } = {}) {
      await running.stop(1000);
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
