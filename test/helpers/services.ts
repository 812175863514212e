/**
 * Per-test-file handles on the shared Redis and PostgreSQL (see test/services/global-setup.ts):
 * a random Redis key prefix and a fresh PostgreSQL database, so tests of parallel runs on one
 * machine never see each other's data.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { startTestServer, type TestServer } from './server.js';

/** The Redis URL the tests use, or undefined when none is available (tests skip). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL;
/** A PostgreSQL admin URL (database `postgres`), or undefined when none is available. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/** `describe`, or `describe.skip` with a loud message when a service is missing. */
export function describeWith(...services: Array<'redis' | 'postgres'>): jest.Describe {
  const missing = services.filter((s) => !(s === 'redis' ? TEST_REDIS_URL : TEST_DATABASE_URL));
  if (missing.length === 0) return describe;
  process.stderr.write(
    `\n*** SKIPPED: ${missing.join(' and ')} not available (see test/services/global-setup.ts) ***\n`,
  );
  return describe.skip;
}

/** One run of a suite per OIDC store: its name and the environment a test server needs for it. */
export interface OidcStoreRun {
  store: 'sqlite' | 'redis';
  /** Settings for `startTestServer` (a fresh key prefix on Redis, under REDIS_KEY_PREFIX). */
  env: () => Record<string, string>;
}

/**
 * The OIDC stores a suite runs on, for `describe.each`: the embedded SQLite file, and Redis when
 * one is available (otherwise a loud line on stderr names the skipped run).
 * @param suite the suite's name, for that line
 */
export function oidcStoreRuns(suite: string): OidcStoreRun[] {
  if (!TEST_REDIS_URL) process.stderr.write(`\n*** SKIPPED the Redis run of ${suite}: Redis not available ***\n`);
  return [
    { store: 'sqlite', env: () => ({}) },
    ...(TEST_REDIS_URL
      ? [{ store: 'redis' as const, env: () => ({ REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: randomPrefix() }) }]
      : []),
  ];
}

/**
 * Starts a test server on `run`'s OIDC store. Its `close()` also deletes the run's Redis keys
 * (`deleteRedisPrefix`), so a per-store suite needs only `beforeAll(start)` and `afterAll(close)`.
 * @param run one entry of {@link oidcStoreRuns}
 * @param env more settings for `startTestServer`
 */
export async function startOnStore(run: OidcStoreRun, env: Record<string, string> = {}): Promise<TestServer> {
  const settings = { ...run.env(), ...env };
  const server = await startTestServer(settings);
  const prefix = settings.REDIS_KEY_PREFIX;
  const close = server.close.bind(server);
  server.close = async (options) => {
    await close(options);
    if (prefix) await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
  };
  return server;
}

/** A random key prefix such as `cgtest-3f9a0c1b` (no braces). */
export function randomPrefix(): string {
  return `cgtest-${randomBytes(4).toString('hex')}`;
}

/**
 * Deletes every key under `prefix:` (SCAN + UNLINK), so tests leave nothing on a shared Redis
 * (refresh tokens live 30 days, clients forever).
 */
export async function deleteRedisPrefix(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url);
  let deleted = 0;
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 1000 })) {
      if ((keys as string[]).length) deleted += await redis.unlink(...(keys as string[]));
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/** A freshly created PostgreSQL database: its URL and a function that drops it. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Creates `cgtest_<random>` on the test PostgreSQL server. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) throw new Error('no TEST_DATABASE_URL');
  const name = `cgtest_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
