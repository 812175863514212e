/**
 * `npm run bench:volume` (issue #29): the cost of the token path and of the operator reads as the
 * platform grows, on the embedded store (SQLite) and on PostgreSQL + Redis.
 *
 * For each store setup and each size (BENCH_SIZES, default 10,000, 100,000 and 1,000,000 members;
 * sizes above BENCH_MEMBERS_MAX, default 1,000,000, are left out: `BENCH_SIZES=10000,100000` for a
 * quick run) it starts a coursegate (`npm start`'s development start, or with BENCH_PROD=1 the
 * production start: the compiled build with the Dockerfile's CMD and runtime ENV, `npm run build`
 * first; DESIGN D7 limits raised, its own process pinned to CPU 0 with `taskset`),
 * mints real tokens through the login and consent pages, then seeds through the project's own
 * store code (`openStores`: the platform store's Kysely handle, multi-row INSERTs in transactions;
 * the OIDC adapter's `upsert` for Grant, RefreshToken and AccessToken, on SQLite one transaction per
 * chunk of 2,000 members): BENCH_SITES sites (100), the
 * measured site `demo` holding BENCH_SITE_SHARE of the members, each member with a membership,
 * an enrollment, an order with one item, a connected grant, an OIDC grant with a live refresh
 * chain (its refresh and access token), and BENCH_AUDIT_PER_MEMBER audit rows (a code exchange
 * and refresh counter rows, DESIGN D10) spread over the last 91 days.
 *
 * Then, with every size's server running, it measures:
 * - hot paths (refresh, introspection, UserInfo, the Account API viewer, an MCP tool call): the
 *   server's CPU µs per answered request (/proc/<pid>/stat) under autocannon, the sizes in
 *   alternating turns (A B, B A) so a busier moment of the shared machine falls on all alike;
 * - operator reads, one at a time, p95: over /api/v1 with a real operator token, members (first
 *   and a deep page), students, orders, connected apps, the audit trail of a client, analytics;
 *   the `/admin` pages (overview, people, connected apps, audit of a client) with the owner's
 *   session signed in through the real form (bench/admin-session.ts);
 * - UserInfo req/s alone and while one operator pages every list (members, students, orders,
 *   connected grants, audit, analytics) from a **separate process** (`--walk`, pinned to CPU 1),
 *   alternating turns, and their ratio;
 * - after the server stops: one retention purge of a day of audit rows (total and the longest
 *   statement), and the store size per member: SQLite file (after a checkpoint), PostgreSQL
 *   `pg_total_relation_size` of every table, Redis `used_memory` added by the seeded OIDC state
 *   (the refresh chain, the access token and one access-token tombstone apart, and the tombstones
 *   a member refreshing hourly keeps: token lifetime + TOMBSTONE_MARGIN_SECONDS).
 *
 * It prints one table per store setup with the ratio largest ÷ smallest size per row, and with
 * BENCH_WRITE_DOCS=1 writes them into docs/deployment.md between the `bench:volume` markers.
 * PostgreSQL and Redis are private instances (test/services/global-setup.ts: `initdb`/`pg_ctl`
 * with fsync off, `redis-server` without persistence), one Redis per size so `used_memory` is the
 * size's own. Figures on a shared machine are indicative; CPU µs per request and the in-turn
 * ratios are the ones to read.
 *
 * Env: BENCH_SIZES, BENCH_MEMBERS_MAX, BENCH_STORES (sqlite,postgres), BENCH_SITES (100),
 * BENCH_SITE_SHARE (0.1: the biggest site of a million holds 100,000), BENCH_PROD, BENCH_AUDIT_PER_MEMBER (10), BENCH_SAMPLES (20 per read),
 * BENCH_DURATION (6 s per size and scenario, split into BENCH_TURNS, 2), BENCH_CONNECTIONS (8),
 * BENCH_WRITE_DOCS.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { hash, randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openStores, type Stores } from '../src/store/stores.js';
import { TOMBSTONE_MARGIN_SECONDS, TOMBSTONE_MODEL } from '../src/oauth/token-tombstones.js';
import { AUDIT_COLUMNS, AuditTrail, refreshCounterId, type AuditRow } from '../src/platform/audit.js';
import { encodeCursor } from '../src/platform/paging.js';
import { freePort } from '../test/helpers/ports.js';
import { authorizeMember, redeemCode, MEMBER_CLIENT } from '../test/helpers/flows.js';
import { DEMO_PASSWORD } from '../test/helpers/server.js';
import { memberToken, registerLoopbackClient } from '../test/helpers/member-token.js';
import { startPrivatePostgres, startPrivateRedis, type PrivateService } from '../test/services/global-setup.js';
import { adminSession } from './admin-session.js';
import { cpuMs, productionCommand, productionEnv, rssMb, stop, waitReady } from './processes.js';

const MAX = Number(process.env.BENCH_MEMBERS_MAX ?? 1_000_000);
const SIZES = (process.env.BENCH_SIZES ?? '10000,100000,1000000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0 && n <= MAX);
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const SITES = Math.max(2, Number(process.env.BENCH_SITES ?? 100));
const SHARE = Number(process.env.BENCH_SITE_SHARE ?? 0.1);
const PROD = process.env.BENCH_PROD === '1';
const AUDIT_PER_MEMBER = Math.max(1, Number(process.env.BENCH_AUDIT_PER_MEMBER ?? 10));
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);
const DURATION = Number(process.env.BENCH_DURATION ?? 6);
const TURNS = Math.max(1, Number(process.env.BENCH_TURNS ?? 2));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const WARMUP = 2;
/** Refresh tokens per server: autocannon drops the rotated tokens in flight when a run stops. */
const POOL = CONNECTIONS * (2 * TURNS + 4) + 8;
/** Server retention: nothing seeded (SPAN_DAYS) is due while it runs; the purge measured keeps SPAN_DAYS − 1 days. */
const RETENTION = 92;
const SPAN_DAYS = 91;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pin = spawnSync('sh', ['-c', 'command -v taskset'], { encoding: 'utf8' }).status === 0;
const OPERATOR_SCOPE = 'openid students:read orders:read members:read school:read analytics:read';
const pad = (i: number) => String(i).padStart(8, '0');
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Spawns `node <args>` on one CPU (`taskset`, when present). */
function spawnNode(args: string[], env: NodeJS.ProcessEnv, stdout: number | 'pipe', cpu: number): ChildProcess {
  const stdio: ['ignore', number | 'pipe', 'inherit'] = ['ignore', stdout, 'inherit'];
  return pin
    ? spawn('taskset', ['-c', String(cpu), process.execPath, ...args], { env, stdio, cwd: root })
    : spawn(process.execPath, args, { env, stdio, cwd: root });
}

/** One size's server and what the bench holds for it. */
interface Target {
  members: number;
  origin: string;
  dir: string;
  env: NodeJS.ProcessEnv;
  child?: ChildProcess;
  redis?: PrivateService;
  databaseUrl?: string;
  refreshTokens: string[];
  accessToken: string;
  operator: string;
  /** Cookie header of the owner's `/admin` session (bench/admin-session.ts). */
  adminCookie: string;
  rareClient: string;
  results: Map<string, number>;
}

/** `/metrics` is read (operator charge) with this token, in the production start too. */
const METRICS_TOKEN = randomBytes(16).toString('hex');

/** Seconds of event-loop time charged to operator requests so far (`coursegate_operator_charged_seconds_total`). */
async function operatorCharged(t: Target): Promise<number> {
  const res = await fetch(`${t.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const m = /^coursegate_operator_charged_seconds_total (\S+)$/m.exec(await res.text());
  return m ? Number(m[1]) : Number.NaN;
}

function coursegateEnv(port: number, dir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const high = '100000000/1';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(PROD ? productionEnv() : {}),
    NODE_ENV: PROD ? 'production' : 'development',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dir,
    DEMO_PASSWORD,
    RATE_LIMIT_TOKEN: high,
    RATE_LIMIT_INTROSPECTION: high,
    RATE_LIMIT_REVOCATION: high,
    RATE_LIMIT_REGISTRATION: high,
    AUDIT_RETENTION_DAYS: String(RETENTION),
    LOG_LEVEL: 'warn',
    METRICS_TOKEN,
    ...extra,
  };
  return env;
}

async function startServer(t: Target, logName: string): Promise<ChildProcess> {
  const log = openSync(path.join(t.dir, logName), 'a');
  const child = spawnNode(PROD ? productionCommand() : ['--import', 'tsx', 'src/main.ts'], t.env, log, 0);
  closeSync(log);
  await waitReady(t.origin, child);
  return child;
}

/** Mints the measured tokens through the real pages (a first process; the store keeps them). */
async function mint(t: Target): Promise<void> {
  const setup = await startServer(t, 'setup.log');
  try {
    for (let i = 0; i < POOL; i++) {
      const tokens = (
        await redeemCode(t.origin, t.origin, await authorizeMember(t.origin, t.origin, 'openid account:read'))
      ).body;
      if (!tokens.refresh_token) throw new Error(`no refresh token: ${JSON.stringify(tokens)}`);
      t.refreshTokens.push(String(tokens.refresh_token));
      t.accessToken = String(tokens.access_token);
    }
    const clientId = await registerLoopbackClient(t.origin, 'volume operator');
    t.operator = await memberToken({
      baseUrl: t.origin,
      email: 'owner@demo.test',
      clientId,
      scope: OPERATOR_SCOPE,
      site: 'demo',
    });
  } finally {
    await stop(setup);
  }
}

const usedMemory = async (url: string) => {
  const r = new Redis(url);
  try {
    return Number(/used_memory:(\d+)/.exec(await r.info('memory'))![1]);
  } finally {
    r.disconnect();
  }
};

/**
 * The bulk path for audit rows, on the store's own connection: on SQLite one prepared INSERT run
 * per row in one transaction; on PostgreSQL one INSERT … SELECT FROM unnest() of column arrays.
 */
async function insertAudit(stores: Stores, rows: AuditRow[]): Promise<void> {
  if (stores.sqlite) {
    const insert = stores.sqlite.prepare(
      `INSERT INTO audit_events (${AUDIT_COLUMNS.join(', ')}) VALUES (${AUDIT_COLUMNS.map(() => '?').join(', ')})`,
    );
    stores.sqlite.transaction(() => {
      for (const r of rows) insert.run(...AUDIT_COLUMNS.map((c) => r[c] ?? null));
    })();
    return;
  }
  // One array parameter per column of the trail's own column list (`count` is the only integer).
  const arrays = AUDIT_COLUMNS.map(
    (c) => sql`${rows.map((r) => r[c] ?? null)}::${sql.raw(c === 'count' ? 'int' : 'text')}[]`,
  );
  await sql`INSERT INTO audit_events (${sql.raw(AUDIT_COLUMNS.join(', '))})
    SELECT * FROM unnest(${sql.join(arrays)})`.execute(stores.db);
}

/** What seeding took: seconds, and on Redis the bytes of `used_memory` it added, in all and by part. */
interface Seeded {
  seconds: number;
  redisBytes?: number;
  chainBytes?: number;
  accessBytes?: number;
  /** Redis bytes of one access-token tombstone per member. */
  tombstoneBytes?: number;
}

/**
 * Seeds `t.members` members through the project's store code (see the module comment).
 * @returns seconds taken and the Redis bytes the OIDC state added (undefined on SQLite)
 */
async function seed(t: Target): Promise<Seeded> {
  const started = performance.now();
  const stores = await openStores(loadConfig(t.env as Record<string, string>));
  // The bulk load's own connection keeps the growing indexes in memory (2 GiB page cache); the
  // measured server runs with its configured cache.
  stores.sqlite?.pragma('cache_size = -2097152');
  const redisBefore = t.redis ? await usedMemory(t.redis.url) : 0;
  try {
    const db = stores.db;
    const demoCourse = (
      await db
        .selectFrom('courses')
        .select('id')
        .where('site_id', '=', 'demo')
        .where('slug', '=', 'sql-basics')
        .executeTakeFirstOrThrow()
    ).id;
    const siteIds = ['demo', ...Array.from({ length: SITES - 1 }, (_, s) => `vol-${s}`)];
    const courseOf = new Map([['demo', demoCourse]]);
    const at0 = '2026-01-01T00:00:00.000Z';
    for (const site of siteIds.slice(1)) {
      await db
        .insertInto('sites')
        .values({ id: site, name: `Volume ${site}`, mcp_connections_enabled: 0, created_at: at0 } as never)
        .execute();
      await db
        .insertInto('courses')
        .values({
          id: `crs_${site}`,
          site_id: site,
          slug: 'course',
          title: 'Course',
          description: '',
          is_public: 1,
          created_at: at0,
        } as never)
        .execute();
      courseOf.set(site, `crs_${site}`);
    }
    const demoMembers = Math.round(t.members * SHARE);
    const now = Date.now();
    const siteOf = (i: number) => (i < demoMembers ? 'demo' : siteIds[1 + ((i - demoMembers) % (SITES - 1))]!);
    const clientOf = (i: number) => `client-${i % 20}`;
    const emailOf = (i: number) => `m${pad((i * 7919) % t.members)}-${i}@volume.test`;
    const CHUNK = 2000;
    let oidcMs = 0;
    let chainBytes = 0;
    let accessBytes = 0;
    let tombstoneBytes = 0;
    for (let from = 0; from < t.members; from += CHUNK) {
      const ids = Array.from({ length: Math.min(CHUNK, t.members - from) }, (_, k) => from + k);
      const created = (i: number) => new Date(now - 400 * 86_400_000 + i * 100).toISOString();
      await db.transaction().execute(async (tx) => {
        await tx
          .insertInto('users')
          .values(
            ids.map((i) => ({
              id: `usr_${pad(i)}`,
              email: emailOf(i),
              name: `Member ${i}`,
              password_hash: 'x',
              created_at: created(i),
            })) as never,
          )
          .execute();
        await tx
          .insertInto('memberships')
          // The sort keys the insert triggers would copy from users and courses (migration 0023), given.
          .values(
            ids.map((i) => ({
              site_id: siteOf(i),
              user_id: `usr_${pad(i)}`,
              role: 'student',
              email: emailOf(i),
            })) as never,
          )
          .execute();
        await tx
          .insertInto('enrollments')
          .values(
            ids.map((i) => ({
              id: `enr_${pad(i)}`,
              site_id: siteOf(i),
              user_id: `usr_${pad(i)}`,
              course_id: courseOf.get(siteOf(i))!,
              email: emailOf(i),
              course_slug: siteOf(i) === 'demo' ? 'sql-basics' : 'course',
              expires_at: i % 3 === 0 ? new Date(now - 86_400_000).toISOString() : null,
              lifetime_access: i % 3 === 1 ? 1 : 0,
              created_at: created(i),
            })) as never,
          )
          .execute();
        await tx
          .insertInto('orders')
          .values(
            ids.map((i) => ({
              id: `ord_${pad(i)}`,
              site_id: siteOf(i),
              user_id: `usr_${pad(i)}`,
              number: `VO-${pad(i)}`,
              status: i % 5 === 0 ? 'pending' : 'paid',
              total_minor: 4900,
              currency: 'EUR',
              created_at: created(i),
            })) as never,
          )
          .execute();
        await tx
          .insertInto('order_items')
          .values(
            ids.map((i) => ({
              id: `itm_${pad(i)}`,
              order_id: `ord_${pad(i)}`,
              title: 'Course',
              course_id: courseOf.get(siteOf(i))!,
              quantity: 1,
              unit_price_minor: 4900,
            })) as never,
          )
          .execute();
        await tx
          .insertInto('connected_grants')
          .values(
            ids.map((i) => ({
              grant_id: `grt_${pad(i)}`,
              site_id: siteOf(i),
              client_id: clientOf(i),
              user_id: `usr_${pad(i)}`,
              scope: 'openid offline_access account:read',
              created_at: created(i),
              last_used_at: created(i),
            })) as never,
          )
          .execute();
      });
      const platformDone = performance.now();
      // The refresh chains (grant + live refresh token), then the access tokens, each measured apart on Redis.
      const m0 = t.redis ? await usedMemory(t.redis.url) : 0;
      await seedOidc(stores, ids, t.origin, now, 'chain');
      const m1 = t.redis ? await usedMemory(t.redis.url) : 0;
      await seedOidc(stores, ids, t.origin, now, 'access');
      const m2 = t.redis ? await usedMemory(t.redis.url) : 0;
      await seedOidc(stores, ids, t.origin, now, 'tombstone');
      if (t.redis) {
        chainBytes += m1 - m0;
        accessBytes += m2 - m1;
        tombstoneBytes += (await usedMemory(t.redis.url)) - m2;
      }
      oidcMs += performance.now() - platformDone;
    }
    // The audit trail, written in time order as it grows in life (each index gets its rows at a
    // few insertion points instead of at random): AUDIT_PER_MEMBER rounds over all members across
    // the SPAN_DAYS, the first a code exchange each, the others hourly refresh counters (DESIGN D10).
    const auditStarted = performance.now();
    const total = t.members * AUDIT_PER_MEMBER;
    const step = (SPAN_DAYS * 86_400_000) / total;
    const start = now - SPAN_DAYS * 86_400_000;
    // One transaction (SQLite) or statement (PostgreSQL, under the pool's 5 s statement timeout) per chunk.
    const auditChunk = stores.sqlite ? 20_000 : 5_000;
    for (let from = 0; from < total; from += auditChunk) {
      const rows: AuditRow[] = [];
      for (let k = from; k < Math.min(total, from + auditChunk); k++) {
        const i = k % t.members;
        const refresh = k >= t.members;
        const when = new Date(start + k * step);
        rows.push({
          id: refresh ? refreshCounterId(`grt_${pad(i)}`, when) : `evt_${pad(i)}`,
          site_id: siteOf(i),
          at: when.toISOString(),
          kind: refresh ? 'refresh' : 'token_issued',
          client_id: clientOf(i),
          user_id: `usr_${pad(i)}`,
          detail: `grant_type=${refresh ? 'refresh_token' : 'authorization_code'}; scope=openid offline_access account:read`,
          count: refresh ? 1 + (i % 12) : 1,
          last_at: when.toISOString(),
          grant_id: `grt_${pad(i)}`,
        });
      }
      await insertAudit(stores, rows);
    }
    const auditMs = performance.now() - auditStarted;
    process.stderr.write(
      `bench: seeded ${t.members} members: audit trail ${(auditMs / 1000).toFixed(0)} s, OIDC state ${(oidcMs / 1000).toFixed(0)} s, platform rows ${((auditStarted - started - oidcMs) / 1000).toFixed(0)} s\n`,
    );
    // A rare client: 50 events at the measured site.
    await db
      .insertInto('audit_events')
      .values(
        Array.from({ length: 50 }, (_, e) => ({
          id: `evt_rare_${e}`,
          site_id: 'demo',
          at: new Date(now - e * 3_600_000).toISOString(),
          kind: 'refresh',
          client_id: t.rareClient,
          user_id: null,
          detail: '',
          count: 1,
          last_at: new Date(now - e * 3_600_000).toISOString(),
        })) as never,
      )
      .execute();
    if (stores.sqlite) stores.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    if (t.databaseUrl) {
      // On its own connection: ANALYZE of a million members' tables outlasts the pool's 5 s
      // statement timeout (a 1 M run failed there after 35 min of seeding).
      const admin = new pg.Client({ connectionString: t.databaseUrl });
      await admin.connect();
      try {
        await admin.query('ANALYZE');
      } finally {
        await admin.end();
      }
    } else await sql`ANALYZE`.execute(db);
    const redisBytes = t.redis ? (await usedMemory(t.redis.url)) - redisBefore : undefined;
    return {
      seconds: (performance.now() - started) / 1000,
      redisBytes,
      ...(t.redis ? { chainBytes, accessBytes, tombstoneBytes } : {}),
    };
  } finally {
    await stores.close();
  }
}

/**
 * A member's OIDC state through the configured adapter: `chain` writes the grant and its live
 * refresh token (the refresh chain), `access` the access token the last refresh issued. The
 * embedded adapter writes synchronously on the platform store's connection, so a chunk is one
 * transaction there instead of one per row (the bulk path; the rows are the adapter's own).
 */
async function seedOidc(
  stores: Stores,
  ids: number[],
  origin: string,
  now: number,
  part: 'chain' | 'access' | 'tombstone',
): Promise<void> {
  stores.sqlite?.exec('BEGIN');
  try {
    await seedOidcRows(stores, ids, origin, now, part);
    stores.sqlite?.exec('COMMIT');
  } catch (err) {
    if (stores.sqlite?.inTransaction) stores.sqlite.exec('ROLLBACK');
    throw err;
  }
}

/** The rows of {@link seedOidc}. */
async function seedOidcRows(...[stores, ids, origin, now, part]: Parameters<typeof seedOidc>): Promise<void> {
  const grants = new stores.adapter('Grant');
  const refresh = new stores.adapter('RefreshToken');
  const access = new stores.adapter('AccessToken');
  const tombstones = new stores.adapter(TOMBSTONE_MODEL);
  const iat = Math.floor(now / 1000) - 3600;
  await Promise.all(
    ids.map(async (i) => {
      const accountId = `usr_${pad(i)}`;
      const grantId = `grt_${pad(i)}`;
      const rt = `rt${randomBytes(21).toString('base64url')}`;
      const at = `at${randomBytes(21).toString('base64url')}`;
      if (part === 'tombstone') {
        // As src/oauth/token-tombstones.ts writes it: the client id under the token's SHA-256.
        const id = hash('sha256', at, 'base64url');
        await tombstones.upsert(id, { clientId: MEMBER_CLIENT } as never, 4200 + TOMBSTONE_MARGIN_SECONDS);
        return;
      }
      if (part === 'access') {
        await access.upsert(
          at,
          {
            iat,
            exp: iat + 3600 + 600,
            accountId,
            clientId: MEMBER_CLIENT,
            grantId,
            gty: 'refresh_token',
            jti: at,
            kind: 'AccessToken',
            scope: 'account:read',
            aud: origin,
            extra: { org_id: 'demo' },
          } as never,
          4200,
        );
        return;
      }
      await grants.upsert(
        grantId,
        {
          iat,
          exp: iat + 14 * 86_400,
          accountId,
          clientId: MEMBER_CLIENT,
          kind: 'Grant',
          jti: grantId,
          openid: { scope: 'openid offline_access' },
          resources: { [origin]: 'account:read' },
        } as never,
        14 * 86_400,
      );
      await refresh.upsert(
        rt,
        {
          iat,
          exp: iat + 14 * 86_400,
          accountId,
          clientId: MEMBER_CLIENT,
          grantId,
          gty: 'authorization_code refresh_token',
          iiat: iat - 86_400,
          jti: rt,
          kind: 'RefreshToken',
          rotations: 3,
          scope: 'openid offline_access account:read',
          sessionUid: randomBytes(12).toString('base64url'),
          resource: origin,
        } as never,
        14 * 86_400,
      );
    }),
  );
}

type Req = NonNullable<autocannon.Options['requests']>[number];

function refreshRequest(pool: string[]): () => Req {
  return () => ({
    method: 'POST',
    path: '/api/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    setupRequest: (req) => ({
      ...req,
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: pool.shift() ?? 'pool-exhausted',
        client_id: MEMBER_CLIENT,
      }).toString(),
    }),
    onResponse: (status, body) => {
      if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
    },
  });
}

const HOT: Array<{ name: string; request: (t: Target) => () => Req }> = [
  { name: 'refresh (CPU µs/request)', request: (t) => refreshRequest(t.refreshTokens) },
  {
    name: 'introspection (CPU µs/request)',
    request: (t) => () => ({
      method: 'POST',
      path: '/api/oauth/introspect',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: t.accessToken, client_id: MEMBER_CLIENT }).toString(),
    }),
  },
  {
    name: 'UserInfo (CPU µs/request)',
    request: (t) => () => ({
      method: 'GET',
      path: '/api/oauth/userinfo',
      headers: { authorization: `Bearer ${t.accessToken}` },
    }),
  },
  {
    name: 'viewer (CPU µs/request)',
    request: (t) => () => ({
      method: 'POST',
      path: '/account/graphql',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.accessToken}` },
      body: JSON.stringify({
        query: '{ viewer { id email enrolledCourses(first: 10) { nodes { slug expireDate hasLifetimeAccess } } } }',
      }),
    }),
  },
  {
    name: 'MCP tools/call (CPU µs/request)',
    request: (t) => () => ({
      method: 'POST',
      path: '/mcp',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${t.accessToken}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'my_enrollments', arguments: { first: 10 } },
      }),
    }),
  },
];

/** CPU µs per answered request of each target, in alternating turns. */
async function hotPath(targets: Target[], name: string, request: (t: Target) => () => Req): Promise<void> {
  const run = (t: Target, duration: number) =>
    autocannon({ url: t.origin, connections: CONNECTIONS, duration, requests: [request(t)()] });
  const sums = targets.map(() => ({ requests: 0, cpu: 0, non2xx: 0 }));
  for (const t of targets) await run(t, WARMUP);
  for (let turn = 0; turn < TURNS; turn++) {
    const order = turn % 2 === 0 ? targets.map((_, i) => i) : targets.map((_, i) => targets.length - 1 - i);
    for (const i of order) {
      const t = targets[i]!;
      const before = cpuMs(t.child!.pid!);
      const r = await run(t, DURATION / TURNS);
      sums[i]!.cpu += cpuMs(t.child!.pid!) - before;
      sums[i]!.requests += r.requests.total - r.non2xx;
      sums[i]!.non2xx += r.non2xx;
    }
  }
  targets.forEach((t, i) => {
    t.results.set(name, Math.round((sums[i]!.cpu * 1000) / Math.max(1, sums[i]!.requests)));
    if (sums[i]!.non2xx) process.stderr.write(`bench: ${name} at ${t.members}: ${sums[i]!.non2xx} non-2xx answers\n`);
  });
}

async function get(t: Target, p: string): Promise<Record<string, unknown>> {
  // `/admin` pages with the operator's web session, `/api/v1` with the operator's token.
  const headers: Record<string, string> = p.startsWith('/admin')
    ? { cookie: t.adminCookie }
    : { authorization: `Bearer ${t.operator}` };
  const res = await fetch(`${t.origin}${p}`, { headers, redirect: 'manual' });
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return p.startsWith('/admin') ? { html: await res.text() } : ((await res.json()) as Record<string, unknown>);
}

/** p95 of each operator read, one request at a time. */
async function operatorReads(t: Target): Promise<void> {
  const members = (await get(t, '/api/v1/members?limit=100')) as { members: Array<{ email: string }> };
  // The deep page: the member in the middle of the site's e-mail order (a cursor as the API writes it).
  const demoMembers = Math.round(t.members * SHARE);
  const seededEmails = Array.from(
    { length: demoMembers },
    (_, i) => `m${pad((i * 7919) % t.members)}-${i}@volume.test`,
  ).sort();
  const middle = seededEmails[Math.floor(demoMembers / 2)] ?? members.members.at(-1)!.email;
  const reads: Array<[string, string]> = [
    ['members, first page (p95 ms)', '/api/v1/members?limit=50'],
    ['members, deep page (p95 ms)', `/api/v1/members?limit=50&cursor=${encodeCursor([middle])}`],
    ['students, first page (p95 ms)', '/api/v1/students?limit=50'],
    ['orders, first page (p95 ms)', '/api/v1/orders?limit=50'],
    ['connected apps (p95 ms)', '/api/v1/connected-grants?limit=50'],
    ['audit, one client (p95 ms)', `/api/v1/audit-events?limit=50&clientId=${t.rareClient}`],
    ['analytics (p95 ms)', '/api/v1/analytics'],
    ['/admin overview (p95 ms)', '/admin/demo'],
    ['/admin people (p95 ms)', '/admin/demo/people'],
    ['/admin connected apps (p95 ms)', '/admin/demo/connections'],
    ['/admin audit, one client (p95 ms)', `/admin/demo/audit?client=${t.rareClient}`],
  ];
  for (const [name, p] of reads) {
    await get(t, p);
    const times: number[] = [];
    for (let s = 0; s < SAMPLES; s++) {
      const started = performance.now();
      await get(t, p);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    t.results.set(name, Math.round(quantile(times, 0.95) * 10) / 10);
  }
}

/** UserInfo req/s alone and while a separate process pages every list, in alternating turns. */
async function userinfoUnderPaging(t: Target): Promise<void> {
  const userinfo = (seconds: number) =>
    autocannon({
      url: `${t.origin}/api/oauth/userinfo`,
      headers: { authorization: `Bearer ${t.accessToken}` },
      connections: CONNECTIONS,
      duration: seconds,
    });
  await userinfo(WARMUP);
  let alone = 0;
  let together = 0;
  let pages = 0;
  // The server's CPU use during each kind of turn, in % of its core: a paging turn in which the
  // server's core is less busy than alone means the load generator, not the server, fell short
  // (on a 2-CPU machine it shares CPU 1 with the walker; pinning the walker below it at nice 19
  // was tried: then the walker hardly ran during the turns).
  let busyAlone = 0;
  let busyTogether = 0;
  let charged = 0;
  const serverBusy = async (run: () => Promise<autocannon.Result>) => {
    const before = cpuMs(t.child!.pid!);
    const r = await run();
    return { r, busy: (100 * (cpuMs(t.child!.pid!) - before)) / (r.duration * 1000) };
  };
  const turn = Math.max(3, DURATION / TURNS);
  for (let k = 0; k < TURNS; k++) {
    const aloneFirst = k % 2 === 0;
    for (const withWalker of aloneFirst ? [false, true] : [true, false]) {
      if (!withWalker) {
        const { r, busy } = await serverBusy(() => userinfo(turn));
        alone += r.requests.total / r.duration;
        busyAlone += busy;
        continue;
      }
      const walker = spawnNode(
        ['--import', 'tsx', 'bench/volume.ts', '--walk', t.origin, t.operator, String(turn + 2)],
        process.env,
        'pipe',
        1,
      );
      let out = '';
      walker.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      const done = new Promise((r) => walker.once('exit', r));
      await new Promise((r) => setTimeout(r, 1500)); // the walker's start (tsx) is not part of the turn
      const chargedBefore = await operatorCharged(t);
      const { r, busy } = await serverBusy(() => userinfo(turn));
      charged += (100 * (await operatorCharged(t)) - 100 * chargedBefore) / r.duration;
      together += r.requests.total / r.duration;
      busyTogether += busy;
      await done;
      pages += Number(/"pages":(\d+)/.exec(out)?.[1] ?? 0);
    }
  }
  t.results.set('UserInfo alone (req/s)', Math.round(alone / TURNS));
  t.results.set('UserInfo, operator paging (req/s)', Math.round(together / TURNS));
  t.results.set('  ratio paging ÷ alone', Math.round((together / alone) * 100) / 100);
  t.results.set('  operator pages read meanwhile', pages);
  t.results.set('  server core busy alone (%)', Math.round(busyAlone / TURNS));
  t.results.set('  server core busy, operator paging (%)', Math.round(busyTogether / TURNS));
  t.results.set('  loop time charged to the operator (%)', Math.round(charged / TURNS));
}

/** `--walk <origin> <token> <seconds>`: pages every operator list, one request at a time, until time is up. */
async function walk(origin: string, token: string, seconds: number): Promise<void> {
  const end = Date.now() + seconds * 1000;
  let pages = 0;
  let rows = 0;
  const lists: Array<[string, string]> = [
    ['/api/v1/members?limit=100', 'members'],
    ['/api/v1/students?limit=100', 'students'],
    ['/api/v1/orders?limit=100', 'orders'],
    ['/api/v1/connected-grants?limit=100', 'grants'],
    ['/api/v1/audit-events?limit=100', 'events'],
  ];
  // Start at the first list; each list is walked for an equal share of the time, then analytics.
  const share = (seconds * 1000) / (lists.length + 1);
  for (const [first, key] of lists) {
    const stopAt = Math.min(end, Date.now() + share);
    let cursor: string | null = null;
    while (Date.now() < stopAt) {
      const res = await fetch(`${origin}${first}${cursor ? `&cursor=${cursor}` : ''}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as Record<string, unknown>;
      pages += 1;
      rows += ((body[key] as unknown[]) ?? []).length;
      cursor = (body.nextCursor as string | null) ?? null;
      if (!cursor) cursor = null;
    }
  }
  while (Date.now() < end) {
    await (await fetch(`${origin}/api/v1/analytics`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
    pages += 1;
  }
  process.stdout.write(`${JSON.stringify({ pages, rows })}\n`);
}

/** After the server stopped: one purge of a day of audit rows, and the store's size per member. */
async function purgeAndSize(t: Target, kind: 'sqlite' | 'postgres', seeded: Seeded): Promise<void> {
  let longest = 0;
  let statements = 0;
  const stores = await openStores(
    loadConfig({ ...(t.env as Record<string, string>), PORT: '0' }),
    undefined,
    (_store, ms) => {
      longest = Math.max(longest, ms);
      statements += 1;
    },
  );
  try {
    const audit = new AuditTrail(stores.db, SPAN_DAYS - 1); // the oldest of the SPAN_DAYS seeded days is due
    longest = 0;
    const started = performance.now();
    const deleted = await audit.purge();
    t.results.set('purge of a day: total (ms)', Math.round(performance.now() - started));
    t.results.set('purge of a day: longest statement (ms)', Math.round(longest * 10) / 10);
    t.results.set('purge of a day: rows deleted', deleted);
    void statements;
    if (kind === 'sqlite') {
      stores.sqlite!.pragma('wal_checkpoint(TRUNCATE)');
      const file = path.join(t.dir, 'coursegate.db');
      const bytes = statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
      t.results.set('SQLite file per member (bytes)', Math.round(bytes / t.members));
    } else {
      const { rows } = await sql<{
        bytes: string;
      }>`SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname = 'public'`.execute(
        stores.db,
      );
      t.results.set('PostgreSQL relations per member (bytes)', Math.round(Number(rows[0]!.bytes) / t.members));
      if (seeded.redisBytes !== undefined) {
        t.results.set('Redis used_memory per member (bytes)', Math.round(seeded.redisBytes / t.members));
        t.results.set('  of it the refresh chain: grant + refresh token', Math.round(seeded.chainBytes! / t.members));
        t.results.set('  of it the access token', Math.round(seeded.accessBytes! / t.members));
        t.results.set('  of it one access-token tombstone', Math.round(seeded.tombstoneBytes! / t.members));
        // A member refreshing once an hour keeps (token lifetime + margin) ÷ 1 h tombstones alive.
        t.results.set(
          'access-token tombstones per member refreshing hourly (bytes)',
          Math.round(((seeded.tombstoneBytes! / t.members) * (3600 + TOMBSTONE_MARGIN_SECONDS)) / 3600),
        );
      }
    }
  } finally {
    await stores.close();
  }
}

function table(title: string, targets: Target[]): string {
  const names = [...targets[0]!.results.keys()];
  const head = `| ${title} | ${targets.map((t) => `${t.members.toLocaleString('en')} members`).join(' | ')} | largest ÷ smallest |`;
  const sep = `|---|${targets.map(() => '---:').join('|')}|---:|`;
  const lines = names.map((n) => {
    const values = targets.map((t) => t.results.get(n) ?? NaN);
    const ratio = values[0] ? values[values.length - 1]! / values[0]! : NaN;
    return `| ${n} | ${values.map((v) => String(v)).join(' | ')} | ${Number.isFinite(ratio) ? ratio.toFixed(2) : '–'} |`;
  });
  return [head, sep, ...lines].join('\n');
}

async function benchStore(kind: 'sqlite' | 'postgres'): Promise<string> {
  let postgres: PrivateService | undefined;
  const targets: Target[] = [];
  const seeded: Seeded[] = [];
  try {
    // Sized as a server holding a million members would be: a quarter of this machine's memory
    // for buffers, room for the bulk load's WAL between checkpoints.
    if (kind === 'postgres')
      postgres = await startPrivatePostgres([
        'shared_buffers=4GB',
        'maintenance_work_mem=512MB',
        'max_wal_size=8GB',
        'checkpoint_timeout=30min',
      ]);
    for (const members of SIZES) {
      const port = await freePort();
      const dir = mkdtempSync(path.join(os.tmpdir(), `cg-volume-${kind}-`));
      const extra: Record<string, string> = {};
      const t: Target = {
        members,
        origin: `http://127.0.0.1:${port}`,
        dir,
        env: {},
        refreshTokens: [],
        accessToken: '',
        operator: '',
        adminCookie: '',
        rareClient: 'rare-client',
        results: new Map(),
      };
      if (postgres) {
        const name = `cgvolume_${randomBytes(4).toString('hex')}`;
        const admin = new pg.Client({ connectionString: postgres.url });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name}`);
        await admin.end();
        t.databaseUrl = postgres.url.replace(/\/postgres$/, `/${name}`);
        t.redis = await startPrivateRedis();
        Object.assign(extra, { DATABASE_URL: t.databaseUrl, REDIS_URL: t.redis.url });
      }
      t.env = coursegateEnv(port, dir, extra);
      targets.push(t);
      await mint(t);
      const s = await seed(t);
      seeded.push(s);
      process.stderr.write(`bench: ${kind} ${members} members seeded in ${s.seconds.toFixed(0)} s\n`);
      t.child = await startServer(t, 'coursegate.log');
      await new Promise((r) => setTimeout(r, 6000)); // past the first retention purge (5 s after start)
      t.results.set('RSS after start (MB)', rssMb(t.child.pid!));
      t.adminCookie = await adminSession(t.origin, 'owner@demo.test', DEMO_PASSWORD);
    }
    for (const h of HOT) await hotPath(targets, h.name, h.request);
    for (const t of targets) await operatorReads(t);
    for (const t of targets) await userinfoUnderPaging(t);
    for (const t of targets) t.results.set('RSS after the bench (MB)', rssMb(t.child!.pid!));
    for (const t of targets) await stop(t.child!);
    for (const [i, t] of targets.entries()) await purgeAndSize(t, kind, seeded[i]!);
    const title = kind === 'sqlite' ? 'embedded SQLite' : 'PostgreSQL + Redis';
    return `${table(title, targets)}\n\nSeeded in ${seeded.map((s) => `${s.seconds.toFixed(0)} s`).join(', ')}; ${SITES} sites, the measured site holding ${Math.round(SHARE * 100)} % of the members; ${AUDIT_PER_MEMBER} audit rows per member (a code exchange and refresh counters).`;
  } finally {
    for (const t of targets) {
      if (t.child) await stop(t.child);
      await t.redis?.stop();
      rmSync(t.dir, { recursive: true, force: true });
    }
    await postgres?.stop();
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === '--walk') return walk(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
  const parts: string[] = [];
  const header = `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), shared machine: indicative; servers pinned to CPU 0, the operator's walker to CPU 1; ${PROD ? 'production' : 'development'} start; ${CONNECTIONS} connections, ${DURATION} s per size and scenario in ${TURNS} alternating turns.`;
  console.log(header);
  for (const kind of STORES) {
    const text = await benchStore(kind);
    console.log(`\n${text}\n`);
    parts.push(text);
  }
  if (process.env.BENCH_WRITE_DOCS === '1') {
    const file = path.join(root, 'docs/deployment.md');
    const doc = readFileSync(file, 'utf8');
    const start = '<!-- bench:volume start -->';
    const end = '<!-- bench:volume end -->';
    const block = `${start}\n_${new Date().toISOString().slice(0, 10)}, \`npm run bench:volume\`: ${header}_\n\n${parts.join('\n\n')}\n${end}`;
    if (!doc.includes(start)) throw new Error('docs/deployment.md has no bench:volume markers');
    writeFileSync(file, doc.slice(0, doc.indexOf(start)) + block + doc.slice(doc.indexOf(end) + end.length));
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
