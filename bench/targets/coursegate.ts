/**
 * Bench target: coursegate itself (startServer, development mode with demo data), rate limits
 * raised out of the way. Prints `{"port":…}` on stdout when listening.
 *
 * env: PORT, DATA_DIR, BENCH_REDIS_URL (optional: OIDC state on Redis)
 */
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { DEMO_PASSWORD } from '../../test/helpers/server.js';

const high = '100000000/1';
const config = loadConfig({
  NODE_ENV: 'development',
  PORT: process.env.PORT,
  BASE_URL: `http://127.0.0.1:${process.env.PORT}`,
  DATA_DIR: process.env.DATA_DIR,
  DEMO_PASSWORD,
  LOG_LEVEL: 'silent',
  ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL, REDIS_KEY_PREFIX: process.env.BENCH_PREFIX ?? 'bench-cg' } : {}),
  RATE_LIMIT_TOKEN: high,
  RATE_LIMIT_INTROSPECTION: high,
  RATE_LIMIT_REVOCATION: high,
});
const running = await startServer(config, pino({ level: 'silent' }));
process.stdout.write(`${JSON.stringify({ port: running.port })}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void running.stop(1000).then(() => process.exit(0)));
