/**
 * DESIGN D10 retention of what mail leaves behind: expired and used links (`one_time_links`,
 * `address_links`) are deleted by the retention job in bounded batches, on the embedded SQLite
 * store and on PostgreSQL; live links stay and still work. The outbox (`DATA_DIR/outbox/`, no
 * `SMTP_URL`) keeps at most `OUTBOX_MAX_MESSAGES` messages, none older than `OUTBOX_MAX_AGE_HOURS`.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { readSeed, seedDemo } from '../../src/platform/seed.js';
import { AddressLinks } from '../../src/platform/address-links.js';
import { OneTimeLinks } from '../../src/platform/one-time-links.js';
import { purgeSpentLinks } from '../../src/platform/link-retention.js';
import { createLinkMailer, pruneOutbox } from '../../src/ops/mail.js';
import { platformBackends } from '../helpers/platform-stores.js';

const backends = platformBackends('link-retention');
const HOUR = 3_600_000;

for (const [name, open] of Object.entries(backends)) {
  const d = open ? describe : describe.skip;
  if (!open) process.stderr.write(`\n*** SKIPPED link retention tests on ${name}: not available ***\n`);

  d(`expired and used links purged on ${name}`, () => {
    test('the purge deletes expired and used links of both kinds, in batches, and keeps the live ones', async () => {
      const s = await open!();
      try {
        await seedDemo(s.db, readSeed(path.resolve('config/demo-seed.yaml')), 'pw-for-retention-tests');
        const user = await s.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'student@demo.test')
          .executeTakeFirstOrThrow();
        const addresses = new AddressLinks(s.db);
        const setPassword = new OneTimeLinks(s.db);
        const now = new Date();
        const longAgo = new Date(now.getTime() - 48 * HOUR);
        // 7 expired address links, 1 used one, 1 live one; 3 expired set-password links, 1 live one.
        for (let i = 0; i < 7; i++) await addresses.issue(`someone-${i}@example.test`, 'reset', undefined, longAgo);
        const used = await addresses.issue('student@demo.test', 'reset', undefined, now);
        await addresses.redeem(used.token, { password: 'a-new-password-for-retention' }, now);
        const live = await addresses.issue('live@example.test', 'reset', undefined, now);
        for (let i = 0; i < 3; i++) await setPassword.issue(user.id, longAgo);
        const liveSet = await setPassword.issue(user.id, now);

        const deleted = await purgeSpentLinks(s.db, now, 2);
        expect(deleted).toEqual({ address_links: 8, one_time_links: 3 });
        const count = async (table: string) =>
          Number((await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(s.db)).rows[0]!.n);
        expect([await count('address_links'), await count('one_time_links')]).toEqual([1, 1]);
        expect((await addresses.peek(live.token, now))?.email).toBe('live@example.test');
        expect((await setPassword.peek(liveSet.token, now))?.email).toBe('student@demo.test');
        expect(await purgeSpentLinks(s.db, now)).toEqual({ address_links: 0, one_time_links: 0 });
      } finally {
        await s.close();
      }
    }, 30_000);
  });
}

describe('the outbox is bounded by age and count', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cg-outbox-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('the oldest messages beyond the count go, then none older than the age; other files stay', async () => {
    const mailer = createLinkMailer(undefined, undefined, 'http://127.0.0.1:1', dir);
    for (let i = 0; i < 5; i++)
      await mailer.sendAddressLink(`to-${i}@example.test`, {
        purpose: 'reset',
        siteName: 'Site',
        link: 'http://127.0.0.1:1/set-password?token=x',
        expiresAt: new Date().toISOString(),
      });
    mailer.close();
    writeFileSync(path.join(dir, 'README.txt'), 'not a message');
    const messages = () =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .sort();
    const first = messages();
    expect(first).toHaveLength(5);

    expect(await pruneOutbox(dir, { maxMessages: 3, maxAgeHours: 24 })).toBe(2);
    expect(messages()).toEqual(first.slice(2));
    expect(await pruneOutbox(dir, { maxMessages: 3, maxAgeHours: 24 })).toBe(0);
    // A day and a bit later every message is too old.
    expect(await pruneOutbox(dir, { maxMessages: 3, maxAgeHours: 24 }, new Date(Date.now() + 25 * HOUR))).toBe(3);
    expect(readdirSync(dir)).toEqual(['README.txt']);
    expect(await pruneOutbox(path.join(dir, 'missing'), { maxMessages: 3, maxAgeHours: 24 })).toBe(0);
  });
});
