/**
 * jest globalSetup: makes Redis and PostgreSQL available to the storage tests.
 *
 * - Redis: `TEST_REDIS_URL` when set; else whatever answers on 127.0.0.1:6379; else a private
 *   `redis-server --port <free> --save "" --appendonly no` (Debian's redis-server package).
 * - PostgreSQL: `TEST_DATABASE_URL` when set; else whatever answers on 127.0.0.1:5432 (user
 *   `postgres`, trust auth); else a private cluster (`initdb` + `pg_ctl` in a temp dir).
 *
 * The URLs are exported as TEST_REDIS_URL / TEST_DATABASE_URL (tests never read REDIS_URL, so a
 * developer's own settings do not leak in). A missing binary is reported loudly and the tests
 * that need it skip. `TEST_SERVICES=private` always starts private servers (what CI does on a
 * machine without them).
 *
 * Self-contained (no relative imports): jest loads globalSetup outside its module mapper. Tests
 * import the helpers below from here too.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** A server started by the tests. */
export interface PrivateService {
  url: string;
  port: number;
  /** Data directory (kept across `restart`). */
  dir: string;
  /** Stops the server (SIGTERM, waits for exit) and, unless `keepDir`, deletes its directory. */
  stop(options?: { keepDir?: boolean }): Promise<void>;
  /** Redis only: the server's process id (a test's `kill -9`). */
  pid?: number;
  /** PostgreSQL only: `pg_ctl restart -m fast -w` (every connection is terminated, 57P01). */
  restart?(): Promise<void>;
}

/** Absolute path of a server binary on PATH or under /usr/lib/postgresql/<v>/bin, or undefined. */
export function findBinary(name: string): string | undefined {
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  const pgRoot = '/usr/lib/postgresql';
  if (existsSync(pgRoot)) {
    for (const v of readdirSync(pgRoot).sort().reverse()) {
      const candidate = path.join(pgRoot, v, 'bin', name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** A free TCP port on 127.0.0.1. (Same as test/helpers/ports.ts: globalSetup loads as CommonJS
 * outside jest's module mapping, so it cannot import the ESM helper.) */
export function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** True when a Redis server answers PING at `url` within `timeoutMs`. */
export function pingRedis(url: string, timeoutMs = 500): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

/** True when PostgreSQL accepts a connection at `url` within `timeoutMs`. */
export async function pingPostgres(url: string, timeoutMs = 1000): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function waitFor(probe: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up within ${timeoutMs} ms`);
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

/**
 * Starts a private redis-server.
 * @param options.appendonly AOF persistence with `appendfsync always` (restart tests)
 * @param options.port / options.dir reuse a port and data directory (a restart)
 */
export async function startPrivateRedis(
  options: { appendonly?: boolean; port?: number; dir?: string } = {},
): Promise<PrivateService> {
  const binary = findBinary('redis-server');
  if (!binary) throw new Error('redis-server not installed');
  const port = options.port ?? (await freeTcpPort());
  const dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), 'cg-redis-'));
  const persistence = options.appendonly ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, ...persistence],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  await waitFor(() => pingRedis(url), `redis-server on port ${port}`);
  return {
    url,
    port,
    dir,
    pid: child.pid,
    async stop({ keepDir = false } = {}) {
      child.kill('SIGTERM');
      await exited(child);
      if (!keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A private Redis Cluster: its seed nodes (`host:port`) and a stop function. */
export interface PrivateRedisCluster {
  nodes: string[];
  stop(): Promise<void>;
}

/**
 * Starts a 3-master Redis Cluster (no replicas) on free ports with `redis-cli --cluster create`.
 * @throws when redis-server or redis-cli is missing or the cluster does not reach `cluster_state:ok`
 */
export async function startPrivateRedisCluster(): Promise<PrivateRedisCluster> {
  const binary = findBinary('redis-server');
  const cli = findBinary('redis-cli');
  if (!binary || !cli) throw new Error('redis-server / redis-cli not installed');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-redis-cluster-'));
  const ports = [await freeTcpPort(), await freeTcpPort(), await freeTcpPort()];
  const children = ports.map((port) =>
    spawn(
      binary,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { stdio: 'ignore' },
    ),
  );
  const stop = async () => {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map(exited));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) await waitFor(() => pingRedis(`redis://127.0.0.1:${port}`), `cluster node ${port}`);
    const nodes = ports.map((p) => `127.0.0.1:${p}`);
    const created = spawnSync(cli, ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    await waitFor(
      async () =>
        ports.every((p) =>
          spawnSync(cli, ['-p', String(p), 'cluster', 'info'], { encoding: 'utf8' }).stdout.includes(
            'cluster_state:ok',
          ),
        ),
      'cluster_state:ok',
    );
    return { nodes, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Starts a private PostgreSQL cluster (initdb + pg_ctl) with trust auth for user `postgres`.
 * @param settings extra server settings (`name=value`, e.g. `shared_buffers=2GB` for bench:volume)
 */
export async function startPrivatePostgres(settings: string[] = []): Promise<PrivateService> {
  const initdb = findBinary('initdb');
  const pgCtl = findBinary('pg_ctl');
  if (!initdb || !pgCtl) throw new Error('initdb / pg_ctl not installed');
  const port = await freeTcpPort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-pg-'));
  const data = path.join(dir, 'data');
  // initdb refuses to run as root: run the cluster as the `postgres` system user then.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gids = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(ids.stdout.trim()), Number(gids.stdout.trim()));
  }
  const run = (cmd: string, args: string[]) => {
    const [c, a] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
    const r = spawnSync(c, a, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  };
  run(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  run(pgCtl, [
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off${settings.map((x) => ` -c ${x}`).join('')}`,
    'start',
  ]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await waitFor(() => pingPostgres(url), `PostgreSQL on port ${port}`);
  return {
    url,
    port,
    dir,
    async restart() {
      // Asynchronous, so that the test's own load keeps running while the server is down.
      const args = ['-D', data, '-l', path.join(dir, 'log'), '-m', 'fast', '-w', 'restart'];
      const child = asRoot
        ? spawn('runuser', ['-u', 'postgres', '--', pgCtl, ...args], { stdio: 'ignore' })
        : spawn(pgCtl, args, { stdio: 'ignore' });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      if (code !== 0) throw new Error(`pg_ctl restart exited ${code}`);
    },
    async stop({ keepDir = false } = {}) {
      try {
        run(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        if (!keepDir) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

declare global {
  var __coursegateServices: PrivateService[] | undefined;
}

const loud = (message: string) => process.stderr.write(`\n\x1b[33m*** coursegate tests: ${message} ***\x1b[0m\n`);

export default async function globalSetup(): Promise<void> {
  const started: PrivateService[] = [];
  globalThis.__coursegateServices = started;
  // TEST_SERVICES=private ignores the machine's servers (exercises the CI fallback path).
  const forcePrivate = process.env.TEST_SERVICES === 'private';

  if (!process.env.TEST_REDIS_URL) {
    const local = 'redis://127.0.0.1:6379';
    if (!forcePrivate && (await pingRedis(local))) process.env.TEST_REDIS_URL = local;
    else if (findBinary('redis-server')) {
      const svc = await startPrivateRedis();
      started.push(svc);
      process.stderr.write(`coursegate tests: started a private redis-server at ${svc.url}\n`);
      process.env.TEST_REDIS_URL = svc.url;
    } else
      loud(
        'no Redis on 127.0.0.1:6379 and no redis-server binary: Redis tests are SKIPPED (apt-get install redis-server)',
      );
  }

  if (!process.env.TEST_DATABASE_URL) {
    const local = 'postgres://postgres@127.0.0.1:5432/postgres';
    if (!forcePrivate && (await pingPostgres(local))) process.env.TEST_DATABASE_URL = local;
    else if (findBinary('initdb')) {
      const svc = await startPrivatePostgres();
      started.push(svc);
      process.stderr.write(`coursegate tests: started a private PostgreSQL at ${svc.url}\n`);
      process.env.TEST_DATABASE_URL = svc.url;
    } else
      loud(
        'no PostgreSQL on 127.0.0.1:5432 and no initdb binary: PostgreSQL tests are SKIPPED (apt-get install postgresql)',
      );
  }

  // CI (`.ci/run` sets COURSEGATE_REQUIRE_SERVICES=1) must not pass by skipping the storage suites.
  if (
    process.env.COURSEGATE_REQUIRE_SERVICES === '1' &&
    (!process.env.TEST_REDIS_URL || !process.env.TEST_DATABASE_URL)
  ) {
    throw new Error(
      'COURSEGATE_REQUIRE_SERVICES=1 but Redis or PostgreSQL could not be made available: the storage suites would be skipped',
    );
  }
}
