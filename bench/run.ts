/**
 * `npm run bench`: autocannon scenarios against coursegate and, for the refresh grant and
 * introspection, against a bare oidc-provider on the same adapter and store (bench/targets/).
 * Prints one table: requests/s, p50/p99 latency (ms), non-2xx answers, coursegate ÷ bare.
 *
 * Each server runs in its own process pinned to CPU 0 (`taskset`, when present); the load
 * generator runs here. Closed loop, keep-alive, BENCH_CONNECTIONS (16) connections, 2 s warm-up,
 * BENCH_DURATION (8) s measured. BENCH_REDIS_URL=redis://… puts both servers' OIDC state on Redis.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { freePort } from '../test/helpers/server.js';
import { deleteRedisPrefix } from '../test/helpers/services.js';
import { authorizeMember, redeemCode, MEMBER_CLIENT } from '../test/helpers/flows.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const POOL = CONNECTIONS + 24;
const here = path.dirname(new URL(import.meta.url).pathname);
const pin = spawnSync('sh', ['-c', 'command -v taskset'], { encoding: 'utf8' }).status === 0;

interface Target {
  origin: string;
  child: ChildProcess;
  info: { port: number; refreshTokens?: string[]; accessToken?: string };
  dir: string;
  /** Redis key prefix of this target (deleted at stop). */
  prefix: string;
}

async function startTarget(script: string): Promise<Target> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-bench-'));
  // BENCH_CPU_PROF=<dir>: write a V8 CPU profile of each target (inspect with bench/profile-summary.ts).
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const args = [...prof, '--import', 'tsx', path.join(here, 'targets', script)];
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const env = { ...process.env, PORT: String(port), DATA_DIR: dir, BENCH_TOKENS: String(POOL), BENCH_PREFIX: prefix };
  const child = pin ? spawn('taskset', ['-c', '0', process.execPath, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] }) : spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { origin: `http://127.0.0.1:${port}`, child, info: JSON.parse(line), dir, prefix };
}

async function stopTarget(t: Target): Promise<void> {
  t.child.kill('SIGTERM');
  await new Promise((r) => t.child.once('exit', r));
  rmSync(t.dir, { recursive: true, force: true });
  // Rotated refresh chains leave ~10^5 keys with 30-day TTLs: remove them.
  if (process.env.BENCH_REDIS_URL) await deleteRedisPrefix(process.env.BENCH_REDIS_URL, t.prefix);
}

type Req = NonNullable<autocannon.Options['requests']>[number];

interface Row {
  scenario: string;
  target: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function measure(scenario: string, target: string, origin: string, request: () => Req): Promise<Row> {
  const run = (duration: number) => autocannon({ url: origin, connections: CONNECTIONS, duration, requests: [request()] });
  await run(2);
  const r = await run(DURATION);
  return { scenario, target, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

/** A rotating refresh chain per in-flight request: each answer's new token goes back to the pool. */
function refreshRequest(pool: string[], clientId: string): () => Req {
  let reported = false;
  return () => ({
    method: 'POST',
    path: '/api/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    setupRequest: (req) => {
      // An empty pool (failed answers) sends a dummy token: counted as non-2xx, no side effect.
      const token = pool.shift() ?? 'pool-exhausted';
      return { ...req, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: clientId }).toString() };
    },
    onResponse: (status, body) => {
      if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
      else if (!reported) {
        reported = true;
        process.stderr.write(`bench: refresh answered ${status}: ${body.slice(0, 300)}\n`);
      }
    },
  });
}

const introspectRequest = (token: string, clientId: string) => (): Req => ({
  method: 'POST',
  path: '/api/oauth/introspect',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ token, client_id: clientId }).toString(),
});

const viewerRequest = (token: string) => (): Req => ({
  method: 'POST',
  path: '/account/graphql',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  body: JSON.stringify({ query: '{ viewer { id email enrolledCourses(first: 10) { nodes { slug expireDate hasLifetimeAccess } } } }' }),
});

// A stateless MCP tool call (no initialize needed, src/resource/mcp): the member's enrollments.
const mcpRequest = (token: string) => (): Req => ({
  method: 'POST',
  path: '/mcp',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'my_enrollments', arguments: { first: 10 } } }),
});

async function main(): Promise<void> {
  const rows: Row[] = [];
  const cg = await startTarget('coursegate.ts');
  try {
    const pool: string[] = [];
    let accessToken = '';
    for (let i = 0; i < POOL; i++) {
      const tokens = (await redeemCode(cg.origin, cg.origin, await authorizeMember(cg.origin, cg.origin, 'openid account:read'))).body;
      pool.push(String(tokens.refresh_token));
      accessToken = String(tokens.access_token);
    }
    rows.push(await measure('refresh_token grant', 'coursegate', cg.origin, refreshRequest(pool, MEMBER_CLIENT)));
    rows.push(await measure('introspection', 'coursegate', cg.origin, introspectRequest(accessToken, MEMBER_CLIENT)));
    rows.push(await measure('/account/graphql viewer', 'coursegate', cg.origin, viewerRequest(accessToken)));
    rows.push(await measure('MCP tool call (my_enrollments)', 'coursegate', cg.origin, mcpRequest(accessToken)));
  } finally {
    await stopTarget(cg);
  }
  const bare = await startTarget('bare.ts');
  try {
    rows.push(await measure('refresh_token grant', 'bare oidc-provider', bare.origin, refreshRequest([...bare.info.refreshTokens!], 'bench')));
    rows.push(await measure('introspection', 'bare oidc-provider', bare.origin, introspectRequest(bare.info.accessToken!, 'bench')));
  } finally {
    await stopTarget(bare);
  }

  const ratio = (row: Row) => {
    if (row.target !== 'coursegate') return '';
    const b = rows.find((r) => r.scenario === row.scenario && r.target !== 'coursegate');
    return b ? (row.rps / b.rps).toFixed(2) : 'n/a';
  };
  const store = process.env.BENCH_REDIS_URL ? 'Redis' : 'SQLite (WAL, synchronous=NORMAL)';
  const lines = [
    `coursegate bench: ${CONNECTIONS} connections, ${DURATION} s measured after 2 s warm-up, OIDC state on ${store}, server ${pin ? 'pinned to CPU 0' : 'not pinned'}`,
    '| scenario | target | req/s | p50 ms | p99 ms | non-2xx | coursegate ÷ bare |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.scenario} | ${r.target} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${ratio(r)} |`),
  ];
  process.stdout.write(`\n${lines.join('\n')}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
