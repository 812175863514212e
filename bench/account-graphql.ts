/**
 * Benchmark of the member Account API (`npm run bench:account`): authenticated `viewer` queries
 * per second and p99 latency, for the full member document (every field, 20 rows per connection)
 * against a trivial authenticated query (`{ viewer { id } }`) on the same server, printed with
 * their ratio. The load generator (autocannon) runs in a worker thread so that it does not share
 * the server's event loop; loopback only, bounded in time.
 *
 * Env: BENCH_SECONDS (default 10 per scenario), BENCH_CONNECTIONS (default 10).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { freePort, DEMO_PASSWORD } from '../test/helpers/server.js';
import { graphql, memberToken } from '../test/helpers/member-token.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const TRIVIAL = '{ viewer { id } }';
const FULL = `{ viewer { id email name site { id name } roles
  enrolledCourses(first: 20) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { slug title expireDate hasLifetimeAccess progress completedLectureCount lectureCount lastWatchedLecture { lectureId positionSeconds updatedAt } } } }
  orders(first: 20) { totalCount pageInfo { hasNextPage endCursor } nodes { id number status total { amountMinor currency } createdAt items { id title courseSlug quantity unitPrice { amountMinor currency } total { amountMinor currency } } } }
  eventRegistrations(first: 20) { totalCount pageInfo { hasNextPage endCursor } nodes { id status createdAt event { id title startsAt endsAt location } } } } }`;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}

async function load(url: string, token: string, query: string, seconds: number): Promise<Figures> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    connections: CONNECTIONS,
    duration: seconds,
    workers: 1,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

async function main(): Promise<void> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-bench-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DEMO_PASSWORD,
    LOG_LEVEL: 'silent',
  });
  const server = await startServer(config, pino({ level: 'silent' }));
  try {
    const token = await memberToken({
      baseUrl: config.baseUrl,
      email: 'student@demo.test',
      scope: 'openid account:read',
    });
    for (const query of [TRIVIAL, FULL]) {
      const check = await graphql(config.baseUrl, token, query);
      if (check.status !== 200 || check.body.errors)
        throw new Error(`bench query failed: ${JSON.stringify(check.body)}`);
    }
    const url = `${config.baseUrl}/account/graphql`;
    await load(url, token, FULL, 2); // warm-up: JIT, SQLite page cache, yoga document caches
    const trivial = await load(url, token, TRIVIAL, SECONDS);
    const full = await load(url, token, FULL, SECONDS);
    const row = (name: string, f: Figures) =>
      `${name.padEnd(28)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ${String(f.p99).padStart(4)} ms   (${f.requests} requests, ${f.errors} errors)`;
    console.log(
      `Account API benchmark: ${CONNECTIONS} connections, ${SECONDS} s per scenario, node ${process.version}, ${os.cpus().length} CPUs`,
    );
    console.log(row('trivial { viewer { id } }', trivial));
    console.log(row('full viewer (20 rows/conn)', full));
    console.log(
      `ratio full/trivial: throughput ${(full.rps / trivial.rps).toFixed(2)}×, p99 latency ${(full.p99 / Math.max(trivial.p99, 1)).toFixed(2)}×`,
    );
    if (trivial.errors + full.errors > 0) process.exitCode = 1;
  } finally {
    await server.stop(1000);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
