/**
 * CPU time per request of coursegate's token-path scenarios of issue #15 alone (no bare run):
 * the refresh_token grant (rotating chains), introspection and UserInfo, as `npm run bench` drives
 * them, on SQLite or (BENCH_REDIS_URL) Redis for the OIDC state. For quick A/B while changing the
 * token path: BENCH_AB=<another checkout of coursegate, e.g. `git archive <commit> | tar -x -C dir`
 * with node_modules linked; several, comma-separated> starts those too and measures all in turns
 * (A B A B …), so that the load of other processes on a shared machine falls on all alike; the
 * medians are printed. The load generator runs off CPU 0 (`pinLoadGeneratorOffCpu0`).
 * Usage: flock /tmp/bench.lock node scripts/on-lts.mjs node --import tsx bench/token-cost.ts
 * env: BENCH_ONLY=refresh,introspection,userinfo,mcp,mcp2026 (default: the first two; `mcp` is a
 * `tools/call my_enrollments` on the MCP 2025-11-25 wire, `mcp2026` the same call on 2026-07-28,
 * with its `_meta` envelope and `Mcp-Method`/`Mcp-Name` headers; a checkout that does not serve
 * 2026-07-28 shows it as non-2xx), BENCH_DURATION (5) s per
 * turn after a 2 s warm-up, BENCH_REPEAT (1) turns per scenario, BENCH_CONNECTIONS (16), BENCH_CPU_PROF=<dir>,
 * BENCH_NODE_FLAGS="--trace-gc …" (more flags for the servers' node), BENCH_KEEP_LOG=<dir> (copies
 * each server's stdout there before its data directory is removed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { freePort } from '../test/helpers/ports.js';
import { deleteRedisPrefix } from '../test/helpers/services.js';
import { authorizeMember, redeemCode, MEMBER_CLIENT } from '../test/helpers/flows.js';
import { DEMO_PASSWORD } from '../test/helpers/server.js';
import { cpuMs, pinLoadGeneratorOffCpu0, stop, waitReady } from './processes.js';

pinLoadGeneratorOffCpu0(); // the servers are pinned to CPU 0

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 1);
const REDIS = process.env.BENCH_REDIS_URL;
const ONLY = new Set((process.env.BENCH_ONLY ?? 'refresh,introspection').split(','));
const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const roots = [
  here,
  ...(process.env.BENCH_AB ?? '')
    .split(',')
    .filter(Boolean)
    .map((p) => path.resolve(p)),
];

interface Target {
  name: string;
  origin: string;
  child: ChildProcess;
  dir: string;
  prefix: string;
  pool: string[];
  access: string;
}

async function start(root: string, name: string): Promise<Target> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-token-'));
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const high = '100000000/1';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    BASE_URL: origin,
    DATA_DIR: dir,
    DEMO_PASSWORD,
    RATE_LIMIT_TOKEN: high,
    RATE_LIMIT_INTROSPECTION: high,
    RATE_LIMIT_REVOCATION: high,
    ...(REDIS ? { REDIS_URL: REDIS, REDIS_KEY_PREFIX: prefix } : {}),
  };
  delete env.LOG_LEVEL;
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  prof.push(...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean));
  const log = openSync(path.join(dir, 'coursegate.log'), 'a');
  const child = spawn('taskset', ['-c', '0', process.execPath, ...prof, '--import', 'tsx', 'src/main.ts'], {
    env,
    stdio: ['ignore', log, 'inherit'],
    cwd: root,
  });
  closeSync(log);
  await waitReady(origin, child);
  const pool: string[] = [];
  let access = '';
  // Each turn's end drops the answers in flight (their successors are lost): mint for every turn.
  for (let i = 0; i < CONNECTIONS * (REPEAT + 1) + 24; i++) {
    const t = (await redeemCode(origin, origin, await authorizeMember(origin, origin, 'openid account:read'))).body;
    pool.push(String(t.refresh_token));
    access = String(t.access_token);
  }
  return { name, origin, child, dir, prefix, pool, access };
}

type Req = NonNullable<autocannon.Options['requests']>[number];
const scenarios: Record<string, (t: Target) => Req> = {
  refresh: (t) => ({
    method: 'POST',
    path: '/api/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    setupRequest: (req) => ({
      ...req,
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: t.pool.shift() ?? 'pool-exhausted',
        client_id: MEMBER_CLIENT,
      }).toString(),
    }),
    onResponse: (status, body) => {
      if (status === 200) t.pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
    },
  }),
  introspection: (t) => ({
    method: 'POST',
    path: '/api/oauth/introspect',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: t.access, client_id: MEMBER_CLIENT }).toString(),
  }),
  userinfo: (t) => ({
    method: 'GET',
    path: '/api/oauth/userinfo',
    headers: { authorization: `Bearer ${t.access}` },
  }),
  mcp: (t) => mcpCall(t, '2025-11-25'),
  mcp2026: (t) => mcpCall(t, '2026-07-28'),
};

/**
 * A stateless MCP `tools/call` of the member's enrollments on one revision's wire: 2025-11-25 as
 * SDK 1.32 clients send it, or 2026-07-28 with the per-request envelope and standard headers.
 */
function mcpCall(t: Target, revision: '2025-11-25' | '2026-07-28'): Req {
  const modern = revision === '2026-07-28';
  const params = { name: 'my_enrollments', arguments: { first: 10 } };
  return {
    method: 'POST',
    path: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${t.access}`,
      'mcp-protocol-version': revision,
      ...(modern ? { 'mcp-method': 'tools/call', 'mcp-name': params.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: modern
        ? {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': revision,
              'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          }
        : params,
    }),
  };
}

const targets: Target[] = [];
try {
  for (const [i, root] of roots.entries()) targets.push(await start(root, i === 0 ? 'this' : root));
  for (const [name, request] of Object.entries(scenarios)) {
    if (!ONLY.has(name)) continue;
    const results = new Map<Target, number[]>(targets.map((t) => [t, []]));
    const run = (t: Target, duration: number) =>
      autocannon({ url: t.origin, connections: CONNECTIONS, duration, requests: [request(t)] });
    for (const t of targets) await run(t, 2);
    for (let i = 0; i < REPEAT; i++) {
      for (const t of targets) {
        const before = cpuMs(t.child.pid!);
        const r = await run(t, DURATION);
        const us = Math.round(((cpuMs(t.child.pid!) - before) * 1000) / Math.max(1, r.requests.total));
        results.get(t)!.push(us);
        console.log(
          `${name}${REDIS ? ' (redis)' : ''} ${t.name}: ${us} µs/req CPU, ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`,
        );
      }
    }
    if (REPEAT > 1) {
      for (const [t, v] of results)
        console.log(
          `${name}${REDIS ? ' (redis)' : ''} ${t.name}: median ${[...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]} µs/req of ${v.join(' ')}`,
        );
    }
  }
} finally {
  for (const t of targets) {
    await stop(t.child);
    if (process.env.BENCH_KEEP_LOG)
      copyFileSync(
        path.join(t.dir, 'coursegate.log'),
        path.join(process.env.BENCH_KEEP_LOG, `${path.basename(t.dir)}.log`),
      );
    rmSync(t.dir, { recursive: true, force: true });
    if (REDIS) await deleteRedisPrefix(REDIS, t.prefix);
  }
}
