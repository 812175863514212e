/**
 * Issue #14 (store outages) at start: a process whose PostgreSQL is not answering yet (started
 * together, restarting, or slower than the pool's 1 s connect timeout on a busy machine) waits for it
 * (src/store/postgres.ts `START_WAIT_MS`) instead of exiting, and gives up with a clear message when
 * the database stays away.
 *
 * A TCP relay stands in front of the test PostgreSQL: it drops every connection for the first 1.5 s
 * (as a restarting server does), then relays.
 */
import net from 'node:net';
import { sql } from 'kysely';
import { openPostgresStore } from '../../src/store/postgres.js';
import { createTestDatabase, describeWith, type TestDatabase } from '../helpers/services.js';
import { freePort } from '../helpers/ports.js';

describeWith('postgres')('PostgreSQL at start (issue #14)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  test('a store opened while the server drops connections waits for it, then migrates and answers', async () => {
    const target = new URL(database.url);
    const port = await freePort();
    const openAt = Date.now() + 1500;
    let dropped = 0;
    const relay = net.createServer((inbound) => {
      if (Date.now() < openAt) {
        dropped++;
        inbound.destroy();
        return;
      }
      const outbound = net.connect(Number(target.port || 5432), target.hostname);
      inbound.pipe(outbound).pipe(inbound);
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
    const viaRelay = new URL(database.url);
    viaRelay.host = `127.0.0.1:${port}`;
    const started = Date.now();
    const store = await openPostgresStore(viaRelay.href, 2);
    try {
      expect(Date.now()).toBeGreaterThanOrEqual(openAt);
      expect(dropped).toBeGreaterThan(0);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from sites`.execute(store.db);
      expect(rows[0]!.n).toBeGreaterThanOrEqual(0);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await store.close();
      relay.close();
    }
  });

  test('a server that never answers is given up after the wait, with a message naming PostgreSQL', async () => {
    const port = await freePort(); // nothing listens there
    const url = new URL(database.url);
    url.host = `127.0.0.1:${port}`;
    const started = Date.now();
    await expect(openPostgresStore(url.href, 1, undefined, undefined, 1000)).rejects.toThrow(
      /PostgreSQL did not answer within 1 s: .*ECONNREFUSED/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
