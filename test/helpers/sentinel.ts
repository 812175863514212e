/**
 * A private Redis Sentinel topology on loopback for the failover tests (issue #28): one primary,
 * one replica (both AOF `appendfsync always`) and three sentinels (`redis-server <conf> --sentinel`,
 * quorum 2, `down-after-milliseconds` 2000), each on a free port, all in one temp directory.
 * Uses the machine's `redis-server` (Debian package redis-server / redis-sentinel).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { findBinary, freeTcpPort, pingRedis } from '../services/global-setup.js';

/** The monitored primary's name. */
export const MASTER_NAME = 'cgmaster';

/** One data node (primary or replica). */
export interface DataNode {
  port: number;
  dir: string;
  process: ChildProcess;
}

/** A running topology. */
export interface SentinelTopology {
  /** Data nodes by their start order: [0] started as primary, [1] as its replica. */
  nodes: DataNode[];
  /** `127.0.0.1:port` of each sentinel (the `REDIS_SENTINELS` value, comma-joined). */
  sentinels: string[];
  /** Port of the node the sentinels currently name as primary. */
  primaryPort(): Promise<number>;
  /** Waits until the sentinels name a primary other than `port`, and it has a replica in sync. */
  awaitSwitch(fromPort: number, timeoutMs?: number): Promise<number>;
  /** Waits until the primary at `port` has `n` replicas online (initial sync done, lag ≤ 1 s). */
  awaitReplicasInSync(port: number, n?: number, timeoutMs?: number): Promise<void>;
  /** Starts a killed data node again on its port and directory (it comes back as a replica). */
  restartNode(index: number): Promise<void>;
  stop(): Promise<void>;
}

/** The redis-server binary, or undefined when it is not installed. */
export const REDIS_SERVER = findBinary('redis-server');

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v as T;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${String(last)})` : ''}`);
}

/** Runs one command on a throwaway connection. */
async function command(port: number, ...args: (string | number)[]): Promise<unknown> {
  const r = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1000,
  });
  r.on('error', () => undefined);
  try {
    await r.connect();
    return await r.call(String(args[0]), ...args.slice(1).map(String));
  } finally {
    r.disconnect();
  }
}

/** Starts the topology; waits until every sentinel knows the replica and the other sentinels. */
export async function startSentinelTopology(): Promise<SentinelTopology> {
  if (!REDIS_SERVER) throw new Error('redis-server not installed');
  const root = mkdtempSync(path.join(os.tmpdir(), 'cg-sentinel-'));
  const children: ChildProcess[] = [];
  const startData = (port: number, dir: string, replicaOf?: number) => {
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
    ];
    if (replicaOf) args.push('--replicaof', '127.0.0.1', String(replicaOf));
    const child = spawn(REDIS_SERVER, args, { stdio: 'ignore' });
    children.push(child);
    return child;
  };
  const nodes: DataNode[] = [];
  for (let i = 0; i < 2; i++) {
    const port = await freeTcpPort();
    const dir = path.join(root, `node${i}`);
    mkdirSync(dir);
    nodes.push({ port, dir, process: startData(port, dir, i === 0 ? undefined : nodes[0]!.port) });
    await until(`redis-server on ${port}`, () => pingRedis(`redis://127.0.0.1:${port}`), 10_000);
  }
  const sentinels: string[] = [];
  for (let i = 0; i < 3; i++) {
    const port = await freeTcpPort();
    const dir = path.join(root, `sentinel${i}`);
    mkdirSync(dir);
    const conf = path.join(dir, 'sentinel.conf');
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${nodes[0]!.port} 2`,
        `sentinel down-after-milliseconds ${MASTER_NAME} 2000`,
        `sentinel failover-timeout ${MASTER_NAME} 10000`,
        `sentinel parallel-syncs ${MASTER_NAME} 1`,
        '',
      ].join('\n'),
    );
    children.push(spawn(REDIS_SERVER, [conf, '--sentinel'], { stdio: 'ignore' }));
    sentinels.push(`127.0.0.1:${port}`);
  }
  const sentinelPorts = sentinels.map((s) => Number(s.split(':')[1]));

  const topology: SentinelTopology = {
    nodes,
    sentinels,
    async primaryPort() {
      const addr = (await command(sentinelPorts[0]!, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME)) as string[];
      return Number(addr[1]);
    },
    async awaitReplicasInSync(port, n = 1, timeoutMs = 30_000) {
      await until(
        `${n} replica(s) in sync with ${port}`,
        async () => {
          // `slaveN:ip=…,port=…,state=online,offset=…,lag=0`: the initial sync is done and the link is up.
          const info = String(await command(port, 'INFO', 'replication'));
          if (!/role:master/.test(info)) return false;
          return (info.match(/^slave\d+:.*state=online.*lag=[01]\b/gm) ?? []).length >= n;
        },
        timeoutMs,
      );
    },
    async awaitSwitch(fromPort, timeoutMs = 40_000) {
      // Every sentinel names the new primary, and it has its replica back in sync.
      const to = await until(
        `failover away from ${fromPort}`,
        async () => {
          const ports = await Promise.all(
            sentinelPorts.map(async (p) =>
              Number(((await command(p, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME)) as string[])[1]),
            ),
          );
          return ports.every((p) => p === ports[0] && p !== fromPort) ? ports[0] : false;
        },
        timeoutMs,
      );
      return to!;
    },
    async restartNode(index) {
      const node = nodes[index]!;
      // It comes back with its old configuration; the sentinels turn it into a replica of the current primary.
      node.process = startData(node.port, node.dir);
      await until(`redis-server on ${node.port} again`, () => pingRedis(`redis://127.0.0.1:${node.port}`), 10_000);
    },
    async stop() {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await Promise.all(
        children.map((c) =>
          c.exitCode !== null || c.signalCode !== null ? undefined : new Promise((r) => c.once('exit', r)),
        ),
      );
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await topology.awaitReplicasInSync(nodes[0]!.port);
    // Each sentinel has discovered the replica and the two other sentinels (needed for a failover).
    for (const p of sentinelPorts) {
      await until(
        `sentinel ${p} sees the topology`,
        async () => {
          const master = (await command(p, 'SENTINEL', 'MASTER', MASTER_NAME)) as string[];
          const field = (k: string) => Number(master[master.indexOf(k) + 1]);
          return field('num-slaves') >= 1 && field('num-other-sentinels') >= 2;
        },
        30_000,
      );
    }
  } catch (err) {
    await topology.stop();
    throw err;
  }
  return topology;
}

/** Runs `SENTINEL FAILOVER <name>` on the first sentinel (a planned switch). */
export async function sentinelFailover(topology: SentinelTopology): Promise<void> {
  await command(Number(topology.sentinels[0]!.split(':')[1]), 'SENTINEL', 'FAILOVER', MASTER_NAME);
}

/** Runs one command on the data node at `port` (FLUSHALL, ROLE, …). */
export const nodeCommand = command;
