/**
 * CPU cost of the refresh-rotation step on the embedded store (adapters/sqlite.ts
 * `rotateRefreshToken`, DESIGN D3), in µs of CPU time per call, without HTTP: BENCH_CHAINS (40) grants are
 * rotated round-robin BENCH_REFRESHES (20,000) times, each rotation followed by the access-token
 * save the refresh grant makes (so each grant collects access tokens, as under `npm run bench`).
 * Grace window 30 s (the default): every tombstone stays full-size, the worst case.
 * Usage: node scripts/on-lts.mjs tsx bench/rotation-cost.ts (BENCH_ALONG=1: the access token saved in the
 * rotation's transaction, as the refresh grant does since issue #15)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AdapterPayload } from 'oidc-provider';
import { openEmbeddedStore } from '../src/store/database.js';
import { sqliteAdapterFactory } from '../adapters/sqlite.js';
import { DEFAULT_KEEP_TOMBSTONES } from '../adapters/rotation.js';

const CHAINS = Number(process.env.BENCH_CHAINS ?? 40);
const REFRESHES = Number(process.env.BENCH_REFRESHES ?? 20_000);
/** BENCH_ALONG=1: the access token saved in the rotation's transaction (as the refresh grant does). */
const ALONG = process.env.BENCH_ALONG === '1';
const policy = { graceSeconds: 30, tombstoneSeconds: 7 * 24 * 3600, keepTombstones: DEFAULT_KEEP_TOMBSTONES };
const id = () => randomBytes(32).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
const payload = (kind: string, jti: string, grantId: string) =>
  ({
    iat: now(),
    exp: now() + 3600,
    jti,
    kind,
    clientId: 'demo-member-cli',
    accountId: 'usr_0123456789abcdef',
    grantId,
    scope: 'openid account:read',
    resource: 'http://127.0.0.1',
  }) as AdapterPayload;

const dir = mkdtempSync(path.join(os.tmpdir(), 'rotation-cost-'));
const store = await openEmbeddedStore(dir);
const Adapter = sqliteAdapterFactory(store.sqlite);
const rt = new Adapter('RefreshToken');
const at = new Adapter('AccessToken');
const chains = await Promise.all(
  Array.from({ length: CHAINS }, async () => {
    const grantId = id();
    const jti = id();
    await rt.upsert(jti, payload('RefreshToken', jti, grantId), 30 * 24 * 3600);
    return { grantId, jti };
  }),
);
// CPU time (user + system, process.cpuUsage), not wall time: on a shared machine the wall clock
// counts the time other processes ran.
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
let rotateUs = 0;
let accessUs = 0;
for (let i = 0; i < REFRESHES; i++) {
  const chain = chains[i % CHAINS]!;
  const next = id();
  const body = payload('RefreshToken', next, chain.grantId);
  const access = id();
  const accessBody = payload('AccessToken', access, chain.grantId);
  const t0 = cpu();
  let result: unknown;
  if (ALONG) {
    result = (
      await rt.rotateRefreshToken(chain.jti, next, body, 30 * 24 * 3600, policy, {
        model: 'AccessToken',
        id: access,
        payload: accessBody,
        expiresIn: 3600,
      })
    ).result;
    rotateUs += cpu() - t0;
  } else {
    result = (await rt.rotateRefreshToken(chain.jti, next, body, 30 * 24 * 3600, policy)).result;
    const t1 = cpu();
    await at.upsert(access, accessBody, 3600);
    accessUs += cpu() - t1;
    rotateUs += t1 - t0;
  }
  if (result !== 'rotated') throw new Error(`rotation ${i}: ${result}`);
  chain.jti = next;
}
const us = (total: number) => (total / REFRESHES).toFixed(1);
process.stdout.write(
  ALONG
    ? `${REFRESHES} rotations of ${CHAINS} chains (SQLite): rotateRefreshToken with the access token along ${us(rotateUs)} µs of CPU per refresh\n`
    : `${REFRESHES} rotations of ${CHAINS} chains (SQLite): rotateRefreshToken ${us(rotateUs)} µs, access-token upsert ${us(accessUs)} µs of CPU per refresh\n`,
);
await store.close();
rmSync(dir, { recursive: true, force: true });
