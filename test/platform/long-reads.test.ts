/**
 * Issue #29, "No operator read may stall token traffic": on the embedded store the analytics
 * overview runs in a worker thread on a read-only connection (src/store/worker-reader.ts), so the
 * event loop keeps serving while a big site is read. Its counts are maintained tallies (migration
 * 0026); what still grows is the count of learners active in the last 30 days (distinct people
 * over a month of playback progress). Proven on a real SQLite file of 120,000 members who all
 * watched a lecture this month: the same figures as on the main connection, and the longest gap
 * between event-loop ticks during the read stays a fraction of what the main connection holds the
 * loop. Writes are refused there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { openStores, type Stores } from '../../src/store/stores.js';
import { AnalyticsAdmin, operatorServices } from '../../src/platform/operator/index.js';

const MEMBERS = 120_000;
let dir: string;
let stores: Stores;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'cg-long-reads-'));
  stores = await openStores(loadConfig({ NODE_ENV: 'test', DATA_DIR: dir }));
  const db = stores.sqlite!;
  const at = '2026-01-01T00:00:00.000Z';
  db.prepare(`INSERT INTO sites (id, name, mcp_connections_enabled, created_at) VALUES ('big', 'Big', 0, ?)`).run(at);
  db.prepare(
    `INSERT INTO courses (id, site_id, slug, title, description, is_public, created_at) VALUES ('crs_big', 'big', 'c', 'C', '', 1, ?)`,
  ).run(at);
  const user = db.prepare(`INSERT INTO users (id, email, name, password_hash, created_at) VALUES (?, ?, 'M', 'x', ?)`);
  const member = db.prepare(`INSERT INTO memberships (site_id, user_id, role) VALUES ('big', ?, ?)`);
  const enrollment = db.prepare(
    `INSERT INTO enrollments (id, site_id, user_id, course_id, expires_at, lifetime_access, created_at) VALUES (?, 'big', ?, 'crs_big', ?, ?, ?)`,
  );
  db.prepare(
    `INSERT INTO lectures (id, course_id, title, position, duration_seconds) VALUES ('lec_big', 'crs_big', 'L', 1, 600)`,
  ).run();
  const progress = db.prepare(
    `INSERT INTO lecture_progress (user_id, site_id, course_id, lecture_id, position_seconds, recorded_at, updated_at) VALUES (?, 'big', 'crs_big', 'lec_big', 60, ?, ?)`,
  );
  const order = db.prepare(
    `INSERT INTO orders (id, site_id, user_id, number, status, total_minor, currency, created_at) VALUES (?, 'big', ?, ?, ?, 100, 'EUR', ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < MEMBERS; i++) {
      const id = `u${i}`;
      user.run(id, `m${i}@big.test`, at);
      member.run(id, i % 50 === 0 ? 'admin' : 'student');
      enrollment.run(`e${i}`, id, i % 3 === 0 ? '2026-02-01T00:00:00.000Z' : null, i % 3 === 1 ? 1 : 0, at);
      order.run(`o${i}`, id, `N${i}`, i % 4 === 0 ? 'pending' : 'paid', at);
      const watched = new Date(Date.parse('2026-02-27T00:00:00.000Z') + i * 1000).toISOString();
      progress.run(id, watched, watched);
    }
  })();
}, 120_000);

afterAll(async () => {
  await stores?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `work` while a 1 ms interval ticks; returns its result and the longest gap between ticks (ms). */
async function longestGap<T>(work: () => Promise<T>): Promise<{ result: T; gap: number; took: number }> {
  let last = performance.now();
  let gap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 5));
  const started = performance.now();
  const result = await work();
  const took = performance.now() - started;
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(timer);
  return { result, gap, took };
}

describe('long reads of the embedded store run off the event loop (issue #29)', () => {
  test('the analytics overview (a month of progress of 120,000 learners): same figures as the main connection, without holding the loop', async () => {
    const now = new Date('2026-03-01T00:00:00.000Z');
    const onLoop = new AnalyticsAdmin(stores.db as never);
    const offLoop = operatorServices(stores.db, stores.longReads).analytics;
    await offLoop.summary('big', now); // the worker's start and first statement preparation
    await onLoop.summary('big', now);
    const main = await longestGap(() => onLoop.summary('big', now));
    const worker = await longestGap(() => offLoop.summary('big', now));
    expect(worker.result).toEqual(main.result);
    expect(worker.result.members.total).toBe(MEMBERS);
    expect(worker.result.orders.byStatus).toEqual({ paid: MEMBERS * 0.75, pending: MEMBERS * 0.25 });
    expect(worker.result.activeLearners30d).toBe(MEMBERS);
    // The premise: read on the main connection, the loop is held for tens of milliseconds.
    expect(main.gap).toBeGreaterThan(20);
    // Counted in the worker, the loop keeps ticking (allow for a shared machine's scheduling).
    expect(worker.gap).toBeLessThan(Math.max(15, main.gap / 3));
  }, 60_000);

  test('the long-read handle reads committed writes and refuses to write', async () => {
    await stores.db
      .insertInto('sites')
      .values({ id: 'fresh', name: 'Fresh', created_at: '2026-01-01T00:00:00.000Z' } as never)
      .execute();
    const row = await stores.longReads.selectFrom('sites').select('name').where('id', '=', 'fresh').executeTakeFirst();
    expect(row).toEqual({ name: 'Fresh' });
    await expect(stores.longReads.deleteFrom('sites').where('id', '=', 'fresh').execute()).rejects.toThrow(
      /only reads|readonly/,
    );
    await expect(sql`select count(*) as n from sites`.execute(stores.longReads)).resolves.toEqual({
      rows: [expect.objectContaining({ n: expect.any(Number) })],
    });
  });
});
