/**
 * `npm run bench:refresh-storage`: what the OIDC store holds after many refreshes (issue #14).
 *
 * Drives the adapters' atomic rotation primitive (adapters/rotation.ts, the very call the token
 * endpoint makes through src/oauth/refresh-rotation.ts) for BENCH_CHAINS (100) grants and
 * BENCH_REFRESHES (100,000) refreshes in total, with payloads shaped like oidc-provider's, and
 * saves one access token (TTL 3600 s) per refresh as the grant does. Then prints, per store
 * (SQLite file; Redis when BENCH_REDIS_URL is set), the refresh-token records (live, tombstones),
 * the access-token records and their bytes.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { sqliteAdapterFactory } from '../adapters/sqlite.js';
import { connectRedis, redisAdapterFactory } from '../adapters/redis.js';
import type { Redis } from 'ioredis';
import { DEFAULT_KEEP_TOMBSTONES, type RefreshRotation, type RotationPolicy } from '../adapters/rotation.js';

const CHAINS = Number(process.env.BENCH_CHAINS ?? 100);
const REFRESHES = Number(process.env.BENCH_REFRESHES ?? 100_000);
const RT_TTL = 30 * 24 * 3600;
const AT_TTL = 3600;
// The run squeezes a chain's refreshes ~150 ms apart (in life: minutes to hours), so every
// tombstone would still sit inside a 30 s grace window; BENCH_GRACE (0) shows the steady state in
// which tombstones are past it (shrunk). BENCH_GRACE=30 shows the worst case (all full-size).
const policy: RotationPolicy = {
  graceSeconds: Number(process.env.BENCH_GRACE ?? 0),
  tombstoneSeconds: 7 * 24 * 3600,
  keepTombstones: DEFAULT_KEEP_TOMBSTONES,
};
const id = () => randomBytes(32).toString('base64url');

/** A refresh-token payload as oidc-provider 9 stores it for demo-member-cli. */
function refreshPayload(jti: string, grantId: string, rotations: number): AdapterPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    iat: now,
    exp: now + RT_TTL,
    jti,
    kind: 'RefreshToken',
    clientId: 'demo-member-cli',
    accountId: 'usr_0123456789abcdef',
    amr: ['pwd'],
    authTime: now - 60,
    expiresWithSession: false,
    iiat: now - 60,
    grantId,
    gty: 'authorization_code refresh_token',
    resource: 'https://learn.example.com',
    rotations,
    scope: 'openid profile email account:read account:write',
    sessionUid: id().slice(0, 21),
    sid: id().slice(0, 21),
  } as AdapterPayload;
}

function accessPayload(jti: string, grantId: string): AdapterPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    iat: now,
    exp: now + AT_TTL,
    jti,
    kind: 'AccessToken',
    clientId: 'demo-member-cli',
    accountId: 'usr_0123456789abcdef',
    grantId,
    gty: 'authorization_code refresh_token',
    aud: 'https://learn.example.com',
    scope: 'account:read account:write',
    extra: { org_id: 'demo' },
    sessionUid: id().slice(0, 21),
    sid: id().slice(0, 21),
    'x5t#S256': undefined,
  } as AdapterPayload;
}

async function drive(Adapter: new (name: string) => Adapter & RefreshRotation): Promise<number> {
  const rt = new Adapter('RefreshToken');
  const at = new Adapter('AccessToken');
  const chains = await Promise.all(
    Array.from({ length: CHAINS }, async () => {
      const grantId = id();
      const jti = id();
      await rt.upsert(jti, refreshPayload(jti, grantId, 0), RT_TTL);
      return { grantId, jti, rotations: 0 };
    }),
  );
  const started = Date.now();
  for (let done = 0; done < REFRESHES; done += CHAINS) {
    await Promise.all(
      chains.map(async (c) => {
        const next = id();
        c.rotations += 1;
        const { result } = await rt.rotateRefreshToken(
          c.jti,
          next,
          refreshPayload(next, c.grantId, c.rotations),
          RT_TTL,
          policy,
        );
        if (result !== 'rotated') throw new Error(`rotation ${result}`);
        c.jti = next;
        const atId = id();
        await at.upsert(atId, accessPayload(atId, c.grantId), AT_TTL);
      }),
    );
  }
  return Date.now() - started;
}

async function sqliteRun(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-bench-storage-'));
  const file = path.join(dir, 'oidc.db');
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  const ms = await drive(sqliteAdapterFactory(sqlite));
  const rows = sqlite
    .prepare(
      `SELECT model, consumed_at IS NOT NULL AS tomb, count(*) AS n, sum(length(payload) + length(id) + length(coalesce(grant_id, ''))) AS bytes
       FROM oidc_models GROUP BY model, tomb ORDER BY model, tomb`,
    )
    .all() as { model: string; tomb: number; n: number; bytes: number }[];
  sqlite.exec("DELETE FROM oidc_models WHERE model = 'AccessToken'; VACUUM;");
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const rtFile = statSync(file).size;
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
  report('sqlite', ms, rows, rtFile);
}

async function redisRun(url: string): Promise<void> {
  const prefix = `bench-storage-${randomBytes(3).toString('hex')}`;
  const client = connectRedis({ url }) as Redis;
  try {
    const ms = await drive(redisAdapterFactory(client, { prefix }));
    const totals = new Map<string, { n: number; bytes: number }>();
    for await (const keys of client.scanStream({ match: `${prefix}:*`, count: 1000 })) {
      const batch = keys as string[];
      const usage = await Promise.all(batch.map((k) => client.memory('USAGE', k)));
      batch.forEach((k, i) => {
        const kind = k.includes('AccessToken')
          ? 'AccessToken keys'
          : k.endsWith(':rot') || k.endsWith(':idx')
            ? 'RefreshToken indexes'
            : 'RefreshToken keys';
        const t = totals.get(kind) ?? { n: 0, bytes: 0 };
        t.n += 1;
        t.bytes += Number(usage[i] ?? 0);
        totals.set(kind, t);
      });
    }
    const rows = [...totals].map(([model, t]) => ({ model, tomb: 0, n: t.n, bytes: t.bytes }));
    report('redis', ms, rows);
    for await (const keys of client.scanStream({ match: `${prefix}:*`, count: 1000 }))
      if ((keys as string[]).length) await client.unlink(...(keys as string[]));
  } finally {
    client.disconnect();
  }
}

function report(
  store: string,
  ms: number,
  rows: { model: string; tomb: number; n: number; bytes: number }[],
  fileBytes?: number,
): void {
  console.log(
    `\n${store}: grace ${policy.graceSeconds} s, ${REFRESHES.toLocaleString('en')} refreshes of ${CHAINS} chains in ${(ms / 1000).toFixed(1)} s (${Math.round(REFRESHES / (ms / 1000))}/s)`,
  );
  console.log('| records | count | bytes | bytes per chain |');
  console.log('|---|---:|---:|---:|');
  for (const r of rows) {
    const name =
      store === 'sqlite'
        ? `${r.model}${r.model === 'RefreshToken' ? (r.tomb ? ' tombstones' : ' live') : ''} (payload+id)`
        : r.model;
    console.log(
      `| ${name} | ${r.n.toLocaleString('en')} | ${r.bytes.toLocaleString('en')} | ${Math.round(r.bytes / CHAINS).toLocaleString('en')} |`,
    );
  }
  if (fileBytes !== undefined)
    console.log(
      `| SQLite file without access tokens (VACUUM) | | ${fileBytes.toLocaleString('en')} | ${Math.round(fileBytes / CHAINS).toLocaleString('en')} |`,
    );
}

await sqliteRun();
if (process.env.BENCH_REDIS_URL) await redisRun(process.env.BENCH_REDIS_URL);
