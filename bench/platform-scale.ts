/**
 * Operator reads at platform scale (issue #29, `npm run bench:scale`): seeds BENCH_MEMBERS members
 * (default 100,000; `BENCH_MEMBERS=1000000` for a million) over BENCH_SITES sites on the embedded
 * SQLite store, each member with a role, an enrollment, an order with one item and
 * BENCH_AUDIT_PER_MEMBER audit events; the measured site (`demo`) holds BENCH_SITE_SHARE of them
 * (default 0.5), and one rare client has 50 events there. Then, over real HTTP with a real operator
 * token, it prints p50/p95 of the operator reads (members first and deep page, students, orders,
 * the audit trail filtered by the rare client, analytics) and UserInfo req/s alone and while one
 * operator pages through every member (one request at a time), with their ratio.
 *
 * Rows are inserted by prepared statements in one transaction per 10,000 members (a bulk path);
 * the migrations' triggers fill the copied sort keys as for any writer. The server runs in this
 * process (as bench/account-graphql.ts); autocannon runs in a worker thread. Figures on a shared
 * machine are indicative.
 *
 * Env: BENCH_MEMBERS, BENCH_SITES (10), BENCH_SITE_SHARE (0.5), BENCH_AUDIT_PER_MEMBER (10),
 * BENCH_SAMPLES (30 per read), BENCH_SECONDS (10 per UserInfo scenario), BENCH_CONNECTIONS (10).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { encodeCursor } from '../src/platform/paging.js';
import { freePort, DEMO_PASSWORD } from '../test/helpers/server.js';
import { memberToken, registerLoopbackClient } from '../test/helpers/member-token.js';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const SITES = Math.max(2, Number(process.env.BENCH_SITES ?? 10));
const SHARE = Number(process.env.BENCH_SITE_SHARE ?? 0.5);
const AUDIT_PER_MEMBER = Number(process.env.BENCH_AUDIT_PER_MEMBER ?? 10);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const pad = (i: number) => String(i).padStart(8, '0');
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main(): Promise<void> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-scale-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DEMO_PASSWORD,
    LOG_LEVEL: 'silent',
  });
  const server = await startServer(config, pino({ level: 'silent' }));
  const base = config.baseUrl;
  try {
    const sqlite = server.store.sqlite!;
    const seedStarted = performance.now();
    const demoCourse = (
      sqlite.prepare(`SELECT id FROM courses WHERE site_id = 'demo' AND slug = 'sql-basics'`).get() as { id: string }
    ).id;
    const siteIds = ['demo', ...Array.from({ length: SITES - 1 }, (_, s) => `scale-${s}`)];
    const courseOf = new Map([['demo', demoCourse]]);
    const at = '2026-01-01T00:00:00.000Z';
    for (const site of siteIds.slice(1)) {
      sqlite
        .prepare(`INSERT INTO sites (id, name, mcp_connections_enabled, created_at) VALUES (?, ?, 0, ?)`)
        .run(site, `Scale ${site}`, at);
      sqlite
        .prepare(
          `INSERT INTO courses (id, site_id, slug, title, description, is_public, created_at) VALUES (?, ?, 'course', 'Course', '', 1, ?)`,
        )
        .run(`crs_${site}`, site, at);
      courseOf.set(site, `crs_${site}`);
    }
    const user = sqlite.prepare(
      `INSERT INTO users (id, email, name, password_hash, created_at) VALUES (?, ?, ?, 'x', ?)`,
    );
    const membership = sqlite.prepare(`INSERT INTO memberships (site_id, user_id, role) VALUES (?, ?, 'student')`);
    const enrollment = sqlite.prepare(
      `INSERT INTO enrollments (id, site_id, user_id, course_id, expires_at, lifetime_access, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const order = sqlite.prepare(
      `INSERT INTO orders (id, site_id, user_id, number, status, total_minor, currency, created_at) VALUES (?, ?, ?, ?, ?, 4900, 'EUR', ?)`,
    );
    const item = sqlite.prepare(
      `INSERT INTO order_items (id, order_id, title, course_id, quantity, unit_price_minor) VALUES (?, ?, 'Course', ?, 1, 4900)`,
    );
    const event = sqlite.prepare(
      `INSERT INTO audit_events (id, site_id, at, kind, client_id, user_id, detail) VALUES (?, ?, ?, ?, ?, ?, '')`,
    );
    const demoMembers = Math.round(MEMBERS * SHARE);
    const now = Date.now();
    const siteOf = (i: number) => (i < demoMembers ? 'demo' : siteIds[1 + ((i - demoMembers) % (SITES - 1))]!);
    const chunk = sqlite.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const site = siteOf(i);
        const id = `usr_${pad(i)}`;
        const created = new Date(now - 400 * 86_400_000 + i * 100).toISOString();
        user.run(id, `m${pad((i * 7919) % MEMBERS)}-${i}@scale.test`, `Member ${i}`, created);
        membership.run(site, id);
        enrollment.run(
          `enr_${pad(i)}`,
          site,
          id,
          courseOf.get(site)!,
          i % 3 === 0 ? new Date(now - 86_400_000).toISOString() : null,
          i % 3 === 1 ? 1 : 0,
          created,
        );
        order.run(`ord_${pad(i)}`, site, id, `SC-${pad(i)}`, i % 5 === 0 ? 'pending' : 'paid', created);
        item.run(`itm_${pad(i)}`, `ord_${pad(i)}`, courseOf.get(site)!);
        for (let e = 0; e < AUDIT_PER_MEMBER; e++) {
          const when = new Date(now - ((i * AUDIT_PER_MEMBER + e) % (80 * 86_400)) * 1000).toISOString();
          event.run(`evt_${pad(i)}_${e}`, site, when, e === 0 ? 'token_issued' : 'refresh', `client-${i % 20}`, id);
        }
      }
    });
    for (let from = 0; from < MEMBERS; from += 10_000) chunk(from, Math.min(MEMBERS, from + 10_000));
    for (let e = 0; e < 50; e++)
      event.run(`evt_rare_${e}`, 'demo', new Date(now - e * 3_600_000).toISOString(), 'refresh', 'rare-client', null);
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const fileMb = statSync(path.join(dataDir, 'coursegate.db')).size / 1e6;

    const clientId = await registerLoopbackClient(base, 'scale operator');
    const operator = await memberToken({
      baseUrl: base,
      email: 'owner@demo.test',
      clientId,
      scope: 'openid students:read orders:read members:read school:read analytics:read',
      site: 'demo',
    });
    const member = await memberToken({ baseUrl: base, email: 'student@demo.test', scope: 'openid account:read' });
    const get = async (p: string, token = operator) => {
      const res = await fetch(`${base}${p}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const middle = sqlite
      .prepare(`SELECT email FROM memberships WHERE site_id = 'demo' ORDER BY email LIMIT 1 OFFSET ?`)
      .get(Math.floor(demoMembers / 2)) as { email: string };
    const middleOrder = sqlite
      .prepare(
        `SELECT created_at, id FROM orders WHERE site_id = 'demo' ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?`,
      )
      .get(Math.floor(demoMembers / 2)) as { created_at: string; id: string };
    const reads: Array<[string, string]> = [
      ['members, first page (50)', '/api/v1/members?limit=50'],
      ['members, deep page (50)', `/api/v1/members?limit=50&cursor=${encodeCursor([middle.email])}`],
      ['students, first page (50)', '/api/v1/students?limit=50'],
      ['students, expired, first page (50)', '/api/v1/students?limit=50&status=expired'],
      ['orders, first page (50)', '/api/v1/orders?limit=50'],
      [
        'orders, deep page (50)',
        `/api/v1/orders?limit=50&cursor=${encodeCursor([middleOrder.created_at, middleOrder.id])}`,
      ],
      ['audit, rare client (50)', '/api/v1/audit-events?limit=50&clientId=rare-client'],
      ['analytics', '/api/v1/analytics'],
    ];
    console.log(
      `Platform scale bench: ${MEMBERS} members over ${SITES} sites (demo holds ${demoMembers}), ${MEMBERS * AUDIT_PER_MEMBER + 50} audit events; ` +
        `seeded in ${seedSeconds.toFixed(0)} s, SQLite file ${fileMb.toFixed(0)} MB; node ${process.version}, ${os.cpus().length} CPUs, shared machine (indicative)`,
    );
    for (const [name, p] of reads) {
      await get(p); // warm-up
      const times: number[] = [];
      for (let s = 0; s < SAMPLES; s++) {
        const t = performance.now();
        await get(p);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      console.log(
        `${name.padEnd(36)} p50 ${quantile(times, 0.5).toFixed(1).padStart(7)} ms   p95 ${quantile(times, 0.95).toFixed(1).padStart(7)} ms`,
      );
    }

    const userinfo = (seconds: number) =>
      autocannon({
        url: `${base}/api/oauth/userinfo`,
        headers: { authorization: `Bearer ${member}` },
        connections: CONNECTIONS,
        duration: seconds,
        workers: 1,
      });
    await userinfo(2); // warm-up
    const alone = await userinfo(SECONDS);
    let paging = true;
    let pages = 0;
    let rows = 0;
    const walker = (async () => {
      while (paging) {
        let cursor: string | null = null;
        do {
          const body = (await get(`/api/v1/members?limit=200${cursor ? `&cursor=${cursor}` : ''}`)) as {
            members: unknown[];
            nextCursor: string | null;
          };
          pages += 1;
          rows += body.members.length;
          cursor = body.nextCursor;
        } while (cursor && paging);
      }
    })();
    const together = await userinfo(SECONDS);
    paging = false;
    await walker;
    const row = (name: string, r: autocannon.Result) =>
      `${name.padEnd(36)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p99 ${String(r.latency.p99).padStart(5)} ms   (${r.errors + r.timeouts + r.non2xx} errors)`;
    console.log(row('UserInfo alone', alone));
    console.log(row('UserInfo while an operator pages', together));
    console.log(
      `  the operator read ${pages} member pages (${rows} rows) meanwhile; ratio ${(together.requests.average / alone.requests.average).toFixed(2)}×`,
    );
    console.log(`RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB (server and bench client in one process)`);
  } finally {
    await server.stop(1000);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
