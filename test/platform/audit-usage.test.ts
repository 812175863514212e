/**
 * DESIGN D10 audit trail, issue 11 overview chart: `tokenUsage` counts token issuances and
 * refreshes per client per UTC day for the last N days, per site, on SQLite and PostgreSQL. Also:
 * event ids are time-ordered (issue #15: each INSERT lands on the primary-key index's last page).
 */
import path from 'node:path';
import { sql } from 'kysely';
import { readSeed, seedDemo } from '../../src/platform/seed.js';
import { AuditTrail, usageDays, type AuditEvent } from '../../src/platform/audit.js';
import { platformBackends } from '../helpers/platform-stores.js';

const backends = platformBackends('audit-usage');

const now = new Date('2026-03-15T12:00:00.000Z');
const at = (iso: string) => new Date(iso);

for (const [name, open] of Object.entries(backends)) {
  const d = open ? describe : describe.skip;
  if (!open) process.stderr.write(`\n*** SKIPPED audit usage tests on ${name}: not available ***\n`);
  d(`DESIGN D10 token usage per client per day on ${name}`, () => {
    let opened: Awaited<ReturnType<NonNullable<typeof open>>>;
    beforeAll(async () => {
      opened = await open!();
      await seedDemo(opened.db, readSeed(path.resolve('config/demo-seed.yaml')), 'pw-for-tests-only');
    }, 60_000);
    afterAll(() => opened?.close());

    test('issuances and refreshes of the last 14 days, by day and client; other kinds, sites and older days left out', async () => {
      const audit = new AuditTrail(opened.db, 90);
      const rec = (kind: 'token_issued' | 'refresh' | 'consent', siteId: string, clientId: string, when: string) =>
        audit.record({ kind, siteId, clientId }, at(when));
      await rec('token_issued', 'demo', 'app-a', '2026-03-15T00:00:00.000Z');
      await rec('refresh', 'demo', 'app-a', '2026-03-15T11:59:00.000Z');
      await rec('token_issued', 'demo', 'app-b', '2026-03-15T08:00:00.000Z');
      await rec('token_issued', 'demo', 'app-a', '2026-03-02T23:59:59.000Z'); // first of the 14 days
      await rec('token_issued', 'demo', 'app-a', '2026-03-01T23:59:59.000Z'); // 15 days ago: out
      await rec('consent', 'demo', 'app-a', '2026-03-15T09:00:00.000Z'); // not a token event
      await rec('token_issued', 'second', 'app-a', '2026-03-15T09:00:00.000Z'); // another site
      expect(usageDays(14, now)).toHaveLength(14);
      expect(usageDays(14, now)[0]).toBe('2026-03-02');
      expect(await audit.tokenUsage('demo', 14, now)).toEqual([
        { day: '2026-03-02', clientId: 'app-a', count: 1 },
        { day: '2026-03-15', clientId: 'app-a', count: 2 },
        { day: '2026-03-15', clientId: 'app-b', count: 1 },
      ]);
    });

    test('refreshes of a grant are counted on one row per UTC hour: first and last time, count; other kinds stay one row each (DESIGN D10, issue #29)', async () => {
      const audit = new AuditTrail(opened.db, 90);
      const clientId = `counter-${Date.now()}`;
      const grant = `grant-${clientId}`;
      const rec = (kind: 'refresh' | 'token_issued' | 'revocation', grantId: string, when: string) =>
        audit.record(
          { kind, siteId: 'demo', clientId, userId: 'usr_student', grantId, detail: `at ${when}` },
          at(when),
        );
      // Two written in one batch (merged before the INSERT), one in a later batch (added by the upsert).
      await Promise.all([
        rec('refresh', grant, '2026-03-15T10:05:00.000Z'),
        rec('refresh', grant, '2026-03-15T10:20:00.000Z'),
      ]);
      await rec('refresh', grant, '2026-03-15T10:59:59.999Z');
      await rec('refresh', grant, '2026-03-15T11:00:00.000Z'); // the next hour: a new row
      await rec('refresh', `${grant}-other`, '2026-03-15T10:30:00.000Z'); // another grant: its own row
      await rec('token_issued', grant, '2026-03-15T10:00:00.000Z');
      await rec('token_issued', grant, '2026-03-15T10:01:00.000Z');
      await rec('revocation', grant, '2026-03-15T11:30:00.000Z');
      const events = await audit.list('demo', { clientId });
      const brief = events.map((e) => [e.kind, e.grantId, e.count, e.at, e.lastAt]);
      expect(brief).toEqual([
        ['revocation', grant, 1, '2026-03-15T11:30:00.000Z', '2026-03-15T11:30:00.000Z'],
        ['refresh', grant, 1, '2026-03-15T11:00:00.000Z', '2026-03-15T11:00:00.000Z'],
        ['refresh', `${grant}-other`, 1, '2026-03-15T10:30:00.000Z', '2026-03-15T10:30:00.000Z'],
        ['refresh', grant, 3, '2026-03-15T10:05:00.000Z', '2026-03-15T10:59:59.999Z'],
        ['token_issued', grant, 1, '2026-03-15T10:01:00.000Z', '2026-03-15T10:01:00.000Z'],
        ['token_issued', grant, 1, '2026-03-15T10:00:00.000Z', '2026-03-15T10:00:00.000Z'],
      ]);
      expect(events.find((e) => e.count === 3)!.detail).toBe('at 2026-03-15T10:59:59.999Z'); // the last refresh's detail
      // The usage chart counts every refresh, not rows; the purge removes counter rows by their first time.
      expect((await audit.tokenUsage('demo', 14, now)).find((u) => u.clientId === clientId)).toEqual({
        day: '2026-03-15',
        clientId,
        count: 7,
      });
      const purger = new AuditTrail(opened.db, 1);
      await purger.purge(new Date('2026-03-16T10:30:00.000Z'));
      expect((await audit.list('demo', { clientId })).map((e) => e.at)).toEqual([
        '2026-03-15T11:30:00.000Z',
        '2026-03-15T11:00:00.000Z',
        '2026-03-15T10:30:00.000Z',
      ]); // 10:30 is the cut-off itself: kept
    });

    test('the usage chart reads maintained tallies (issue #29): equal to a count of the rows after random events, counter growth and a purge', async () => {
      const site = `usage-${Date.now()}`;
      await opened.db
        .insertInto('sites')
        .values({ id: site, name: 'Usage', created_at: now.toISOString() } as never)
        .execute();
      const audit = new AuditTrail(opened.db, 90);
      // A deterministic spread: 400 events over 20 days, 3 clients, 7 grants, kinds mixed.
      const kinds = ['token_issued', 'refresh', 'refresh', 'refresh', 'consent', 'revocation'] as const;
      for (let i = 0; i < 400; i++) {
        const when = new Date(now.getTime() - ((i * 7_919_000) % (20 * 86_400_000)));
        await audit.record(
          {
            kind: kinds[i % kinds.length]!,
            siteId: site,
            clientId: i % 11 === 0 ? null : `app-${i % 3}`,
            userId: 'usr_student',
            grantId: `grant-${i % 7}`,
          },
          when,
        );
      }
      await audit.flush();
      // A refresh counter that grows by later batches (the upsert's UPDATE, not an INSERT).
      for (let k = 0; k < 3; k++) {
        await audit.record(
          { kind: 'refresh', siteId: site, clientId: 'app-grown', userId: 'usr_student', grantId: 'grant-grown' },
          new Date(now.getTime() - 3_600_000 + k * 60_000),
        );
        await audit.flush();
      }
      const recount = async (since: string) =>
        (
          await opened.db
            .selectFrom('audit_events')
            .select((eb) => [sql<string>`substr(at, 1, 10)`.as('day'), 'client_id', eb.fn.sum<number>('count').as('n')])
            .where('site_id', '=', site)
            .where('kind', 'in', ['token_issued', 'refresh'])
            .where('client_id', 'is not', null)
            .where('at', '>=', `${since}T00:00:00.000Z`)
            .groupBy([sql`substr(at, 1, 10)`, 'client_id'])
            .execute()
        )
          .map((r) => ({ day: String(r.day), clientId: String(r.client_id), count: Number(r.n) }))
          .sort((a, b) => a.day.localeCompare(b.day) || a.clientId.localeCompare(b.clientId));
      const usage = await audit.tokenUsage(site, 14, now);
      expect(usage.length).toBeGreaterThan(20);
      expect(usage.some((u) => u.count > 1)).toBe(true);
      expect(usage).toEqual(await recount(usageDays(14, now)[0]!));
      expect(usage.find((u) => u.clientId === 'app-grown')?.count).toBe(3);
      // The purge (retention 10 days) deletes the older events and the tallies of the days it passed.
      await new AuditTrail(opened.db, 10).purge(now);
      // The cut-off instant is 10 days back (2026-03-05T12:00Z): its day is the oldest that may keep a tally.
      const kept = new Date(now.getTime() - 10 * 86_400_000).toISOString().slice(0, 10);
      expect(kept).toBe('2026-03-05');
      const after = await audit.tokenUsage(site, 14, now);
      expect(after.every((u) => u.day >= kept)).toBe(true);
      // The cut-off's own day keeps its tally for the events purged before the cut-off time; every later day is exact.
      expect(after.filter((u) => u.day > kept)).toEqual((await recount(kept)).filter((u) => u.day > kept));
    });

    test('event ids are RFC 9562 version 7 UUIDs: recorded one after another, they sort in recording order', async () => {
      const audit = new AuditTrail(opened.db, 90);
      const clientId = `ids-${Date.now()}`;
      for (let i = 0; i < 3; i++) {
        await audit.record({ kind: 'refresh', siteId: 'demo', clientId, detail: `n=${i}` });
        await new Promise((r) => setTimeout(r, 3)); // a new millisecond: v7 orders by time, not within one
      }
      const events = await audit.list('demo', { clientId });
      expect(events.map((e) => e.detail)).toEqual(['n=2', 'n=1', 'n=0']);
      for (const e of events)
        expect(e.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const ids = events.map((e) => e.id).reverse();
      expect([...ids].sort()).toEqual(ids);
    });

    test('batches of every size are stored whole, each event with its own values (issue #15: an INSERT compiled once per batch size)', async () => {
      const audit = new AuditTrail(opened.db, 90);
      const clientId = `batches-${Date.now()}`;
      // 1, 2 and 3 events twice (a compiled INSERT used again), 64 (the largest compiled), 65 (built per batch).
      const sizes = [1, 2, 3, 2, 1, 3, 64, 65];
      let n = 0;
      for (const size of sizes) {
        const batch = Array.from({ length: size }, () => {
          const i = n++;
          return audit.record(
            {
              kind: i % 2 ? 'refresh' : 'token_issued',
              siteId: 'demo',
              clientId,
              userId: i % 3 ? `u${i}` : null,
              detail: `n=${i}`,
            },
            new Date(Date.UTC(2026, 2, 1, 0, 0, 0, i)),
          );
        });
        await Promise.all(batch);
      }
      expect(n).toBe(141);
      const stored: AuditEvent[] = [];
      for (
        let page = await audit.list('demo', { clientId });
        page.length > 0;
        page = await audit.list('demo', { clientId, after: page.at(-1)! })
      )
        stored.push(...page);
      expect(stored).toHaveLength(n);
      const byDetail = new Map(stored.map((e) => [e.detail, e]));
      for (let i = 0; i < n; i++) {
        expect(byDetail.get(`n=${i}`)).toMatchObject({
          kind: i % 2 ? 'refresh' : 'token_issued',
          siteId: 'demo',
          clientId,
          userId: i % 3 ? `u${i}` : null,
          at: new Date(Date.UTC(2026, 2, 1, 0, 0, 0, i)).toISOString(),
        });
      }
    });
  });
}
