/**
 * Issue #14 fault suite: store outages without crashes or sign-outs. Two real coursegate
 * processes (`node --import tsx src/main.ts`) share a PRIVATE Redis (AOF, appendfsync always) and
 * a PRIVATE PostgreSQL started by this file (never the machine's own). Clients refresh their
 * tokens and call /account/graphql in a loop and, as real clients do, resend the same refresh
 * token after a 503 (waiting 250 ms rather than the full Retry-After, to keep the run short) and
 * go to the other process when one does not answer.
 *
 * "Broken chain" = a refresh answered anything but 200/503: the member would be signed out.
 * FAULT_ROUNDS (default 5) sets the number of PostgreSQL restarts and process kills.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/server.js';
import { authorizeMember, redeemCode, MEMBER_CLIENT } from '../helpers/flows.js';
import { findBinary, startPrivatePostgres, startPrivateRedis, type PrivateService } from '../services/global-setup.js';

const ROUNDS = Number(process.env.FAULT_ROUNDS ?? 5);
const CHAINS = 8;
const DEMO_PASSWORD = 'demo-password-for-tests';
const ROOT = process.cwd();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const can = findBinary('redis-server') && findBinary('pg_ctl') && findBinary('initdb');
const d = can ? describe : describe.skip;
if (!can) process.stderr.write('\n*** SKIPPED fault suite: redis-server / PostgreSQL binaries not installed ***\n');

/** One coursegate process. */
interface Proc {
  port: number;
  child: ChildProcess;
  exit?: number | string | null;
  stderr: string;
}

async function spawnProc(port: number, env: Record<string, string>): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const proc: Proc = { port, child, stderr: '' };
  child.stderr!.on('data', (b: Buffer) => (proc.stderr = (proc.stderr + b.toString()).slice(-4000)));
  child.once('exit', (code, signal) => (proc.exit = code ?? signal));
  // Generous: six processes start side by side on a loaded 2-core machine.
  for (let i = 0; i < 1200; i++) {
    if (proc.exit !== undefined) throw new Error(`coursegate exited at start: ${proc.stderr}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return proc;
    } catch {
      /* not listening yet */
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`coursegate did not start: ${proc.stderr}`);
}

/** What the clients saw. */
interface Stats {
  ok: number;
  s503: number;
  s500: number;
  /** /account/graphql answers 200 whose body carries `errors`. */
  okWithError: number;
  /** Any other status (not 200, 503): a broken chain or a wrong answer. */
  unexpected: string[];
  /** Slowest answer in ms. */
  maxMs: number;
  /** Answers without 503 + Retry-After during an outage. */
  missingRetryAfter: number;
}
const newStats = (): Stats => ({
  ok: 0,
  s503: 0,
  s500: 0,
  okWithError: 0,
  unexpected: [],
  maxMs: 0,
  missingRetryAfter: 0,
});

interface Chain {
  refreshToken: string;
  accessToken: string;
}

d('issue #14: store outages under load, two processes, private Redis + PostgreSQL', () => {
  let redis: PrivateService;
  let postgres: PrivateService;
  let dataDir: string;
  let env: Record<string, string>;
  const procs: Proc[] = [];
  /** Replacements for the kill -9 rounds, started early so that no round waits for a start-up. */
  let spares: Promise<Proc>[] = [];
  let issuer = '';
  const chains: Chain[] = [];

  const origins = () => procs.map((p) => `http://127.0.0.1:${p.port}`);

  /** POSTs to process `i`; when it does not answer (killed), to the other one. */
  async function post(i: number, p: string, body: string, headers: Record<string, string>, stats: Stats) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const origin = origins()[(i + attempt) % procs.length]!;
      const started = Date.now();
      try {
        const res = await fetch(origin + p, { method: 'POST', headers, body });
        const text = await res.text();
        stats.maxMs = Math.max(stats.maxMs, Date.now() - started);
        return { status: res.status, text, retryAfter: res.headers.get('retry-after') };
      } catch {
        await sleep(50); // connection refused / reset: the process is gone; try the other one
      }
    }
    throw new Error('no process answered');
  }

  function record(stats: Stats, what: string, r: { status: number; text: string; retryAfter: string | null }): void {
    if (r.status === 200) {
      if (/"errors"\s*:/.test(r.text)) stats.okWithError++;
      else stats.ok++;
    } else if (r.status === 503) {
      stats.s503++;
      if (!r.retryAfter) stats.missingRetryAfter++;
    } else if (r.status >= 500) {
      stats.s500++;
    } else {
      stats.unexpected.push(`${what} ${r.status} ${r.text.slice(0, 200)}`);
    }
  }

  /** Refreshes chain `c` until it gets a pair (resending the same token after a 503). */
  async function refreshChain(c: number, stats: Stats): Promise<void> {
    const chain = chains[c]!;
    for (;;) {
      const form = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: chain.refreshToken,
        client_id: MEMBER_CLIENT,
      }).toString();
      const r = await post(c, '/api/oauth/token', form, { 'content-type': 'application/x-www-form-urlencoded' }, stats);
      record(stats, 'refresh', r);
      if (r.status === 200) {
        const body = JSON.parse(r.text) as { refresh_token: string; access_token: string };
        chain.refreshToken = body.refresh_token;
        chain.accessToken = body.access_token;
        return;
      }
      if (r.status !== 503) return; // broken (recorded as unexpected)
      await sleep(250);
    }
  }

  async function viewer(c: number, stats: Stats): Promise<number> {
    const r = await post(
      c + 1,
      '/account/graphql',
      JSON.stringify({ query: '{ viewer { id } }' }),
      { authorization: `Bearer ${chains[c]!.accessToken}`, 'content-type': 'application/json' },
      stats,
    );
    record(stats, 'graphql', r);
    return r.status;
  }

  /** Runs refresh (+ graphql) loops on every chain until `stop()` resolves. */
  async function underLoad(stats: Stats, withGraphql: boolean, fault: () => Promise<void>): Promise<void> {
    let running = true;
    const workers = chains.map(async (_, c) => {
      while (running) {
        await refreshChain(c, stats);
        if (withGraphql) await viewer(c, stats);
        await sleep(20);
      }
    });
    try {
      await fault();
    } finally {
      running = false;
      await Promise.all(workers);
    }
  }

  /** ms until every process answers /account/graphql 200 again. */
  async function timeToRecovery(): Promise<number> {
    const started = Date.now();
    for (;;) {
      const statuses = await Promise.all(procs.map((_, i) => viewer(0 + i, newStats())));
      if (statuses.every((s) => s === 200)) return Date.now() - started;
      if (Date.now() - started > 10_000) throw new Error(`no recovery: ${statuses}`);
      await sleep(50);
    }
  }

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([startPrivateRedis({ appendonly: true }), startPrivatePostgres()]);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'cg-faults-'));
    const [portA, portB] = [await freePort(), await freePort()];
    issuer = `http://127.0.0.1:${portA}`;
    env = {
      NODE_ENV: 'test',
      BASE_URL: issuer,
      DATA_DIR: dataDir,
      DEMO_PASSWORD,
      LOG_LEVEL: 'error',
      REDIS_URL: redis.url,
      DATABASE_URL: postgres.url.replace(/\/postgres$/, '/coursegate'),
      RATE_LIMIT_TOKEN: '1000000/60',
    };
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE coursegate');
    await admin.end();
    // A first (it migrates and seeds PostgreSQL), then B and the spares side by side; all are up
    // before any load runs (a process starting meanwhile would slow the measured answers).
    procs.push(await spawnProc(portA, env));
    const ports = await Promise.all(Array.from({ length: ROUNDS }, () => freePort()));
    spares = ports.map((port) => spawnProc(port, env));
    for (const spare of spares) spare.catch(() => undefined);
    procs.push(await spawnProc(portB, env));
    await Promise.all(spares);
    for (let c = 0; c < CHAINS; c++) {
      const issued = await authorizeMember(origins()[c % 2]!, issuer);
      const { body } = await redeemCode(origins()[(c + 1) % 2]!, issuer, issued);
      chains.push({ refreshToken: String(body.refresh_token), accessToken: String(body.access_token) });
    }
  }, 300_000);

  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGKILL');
    for (const p of await Promise.allSettled(spares)) if (p.status === 'fulfilled') p.value.child.kill('SIGKILL');
    await redis?.stop();
    await postgres?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test(`PostgreSQL restarted ${ROUNDS}× under /account/graphql + refresh load: both processes alive, 0×500, 0×200-with-error, only 503 meanwhile, back within 2 s`, async () => {
    const stats = newStats();
    const recoveries: number[] = [];
    await underLoad(stats, true, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        await sleep(400);
        await postgres.restart!();
        recoveries.push(await timeToRecovery());
      }
    });
    process.stderr.write(
      `postgres restarts: ${JSON.stringify({ ...stats, unexpected: stats.unexpected.length, recoveries })}\n`,
    );
    expect(procs.map((p) => p.exit)).toEqual([undefined, undefined]);
    expect(stats.s500).toBe(0);
    expect(stats.okWithError).toBe(0);
    expect(stats.unexpected).toEqual([]);
    expect(stats.missingRetryAfter).toBe(0);
    expect(stats.ok).toBeGreaterThan(0);
    for (const ms of recoveries) expect(ms).toBeLessThanOrEqual(2000);
  }, 120_000);

  test('Redis down 5 s under refresh load: no request waits > 1.5 s, 0 chains broken, 0 confirmed tokens lost', async () => {
    const stats = newStats();
    await underLoad(stats, false, async () => {
      await sleep(500);
      await redis.stop({ keepDir: true });
      await sleep(5000);
      redis = await startPrivateRedis({ appendonly: true, port: redis.port, dir: redis.dir });
      await sleep(1500);
    });
    process.stderr.write(`redis down 5 s: ${JSON.stringify({ ...stats, unexpected: stats.unexpected.length })}\n`);
    expect(stats.maxMs).toBeLessThanOrEqual(1500);
    expect(stats.s503).toBeGreaterThan(0);
    expect(stats.s500).toBe(0);
    expect(stats.unexpected).toEqual([]);
    // Every chain's last confirmed pair works after recovery (nothing confirmed was lost).
    const after = newStats();
    for (let c = 0; c < CHAINS; c++) expect(await viewer(c, after)).toBe(200);
    for (let c = 0; c < CHAINS; c++) await refreshChain(c, after);
    expect(after.unexpected).toEqual([]);
  }, 60_000);

  test(`kill -9 of one process during refresh load, ${ROUNDS}×: 0 chains broken`, async () => {
    const stats = newStats();
    await underLoad(stats, false, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        await sleep(300);
        const victim = round % 2;
        const dead = procs[victim]!;
        dead.child.kill('SIGKILL');
        await new Promise((r) => (dead.exit !== undefined ? r(undefined) : dead.child.once('exit', r)));
        // The load balancer's pool now holds a fresh process in the victim's place.
        procs[victim] = await spares[round]!;
      }
    });
    process.stderr.write(`kill -9: ${JSON.stringify({ ...stats, unexpected: stats.unexpected.length })}\n`);
    expect(stats.unexpected).toEqual([]);
    expect(stats.s500).toBe(0);
    const after = newStats();
    for (let c = 0; c < CHAINS; c++) await refreshChain(c, after);
    expect(after.unexpected).toEqual([]);
  }, 120_000);
});
