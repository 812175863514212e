/**
 * Issue #29 (the token path): the embedded store's WAL checkpoints run in a worker thread
 * (src/store/checkpointer.ts), not inside a commit on the event loop.
 *
 * What a checkpoint did is read from the WAL index (`coursegate.db-shm`), which SQLite keeps in
 * shared memory for every connection: `mxFrame` (the last frame in the WAL, header offset 16) and
 * `nBackfill` (frames copied into the database file, offset 96). A commit appends frames; a
 * checkpoint raises `nBackfill` to `mxFrame`. Reading the file observes without checkpointing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedStore, type EmbeddedStore } from '../../src/store/database.js';
import { BACKSTOP_PAGES, CHECKPOINT_INTERVAL_MS, startCheckpointer } from '../../src/store/checkpointer.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizeMember, redeemCode, refresh } from '../helpers/flows.js';

/** The WAL index's frame counters of the store in `dir`. */
function walIndex(dir: string): { mxFrame: number; nBackfill: number } {
  const shm = readFileSync(path.join(dir, 'coursegate.db-shm'));
  return { mxFrame: shm.readUInt32LE(16), nBackfill: shm.readUInt32LE(96) };
}

/** Polls until every frame of the WAL is in the database file, or `ms` have passed. */
async function backfilled(dir: string, ms: number): Promise<{ mxFrame: number; nBackfill: number }> {
  const until = Date.now() + ms;
  let seen = walIndex(dir);
  while (Date.now() < until && !(seen.mxFrame > 0 && seen.nBackfill === seen.mxFrame)) {
    await new Promise((r) => setTimeout(r, 25));
    seen = walIndex(dir);
  }
  return seen;
}

/** Commits `n` small transactions through the main connection. */
function commit(store: EmbeddedStore, n: number): void {
  store.sqlite.exec('CREATE TABLE IF NOT EXISTS scratch (id INTEGER PRIMARY KEY, v TEXT)');
  const insert = store.sqlite.prepare('INSERT INTO scratch (v) VALUES (?)');
  for (let i = 0; i < n; i++) insert.run(`row ${i}`);
}

describe('WAL checkpoints of the embedded store (issue #29)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const freshDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-checkpoint-'));
    dirs.push(dir);
    return dir;
  };

  test('without the worker (CLI, scripts), a few commits stay in the WAL: SQLite checkpoints after 1,000 pages', async () => {
    const dir = freshDir();
    const store = await openEmbeddedStore(dir);
    try {
      expect(store.checkpointer).toBeUndefined();
      expect(store.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      commit(store, 20);
      await new Promise((r) => setTimeout(r, 3 * CHECKPOINT_INTERVAL_MS));
      const { mxFrame, nBackfill } = walIndex(dir);
      expect(mxFrame).toBeGreaterThan(0);
      expect(nBackfill).toBeLessThan(mxFrame);
    } finally {
      await store.close();
    }
  });

  test('with the worker, commits are copied into the database file within an interval, off the committing thread', async () => {
    const dir = freshDir();
    const errors: string[] = [];
    const store = await openEmbeddedStore(dir, undefined, undefined, 'NORMAL', true, {
      onError: (m) => errors.push(m),
    });
    try {
      expect(store.checkpointer).toBeDefined();
      // The main connection only checkpoints when the worker fell far behind.
      expect(store.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES);
      await store.checkpointer!.checkpointNow();
      for (let round = 0; round < 3; round++) {
        // The commits themselves do not checkpoint (20 of them stay far below the backstop; the
        // first test shows them left in the WAL without the worker): the worker copies them.
        commit(store, 20);
        const after = await backfilled(dir, 10 * CHECKPOINT_INTERVAL_MS);
        expect(after.mxFrame).toBeGreaterThan(0);
        expect(after.nBackfill).toBe(after.mxFrame);
      }
      // Every committed row is still there once the WAL was copied and started over.
      expect(store.sqlite.prepare('SELECT count(*) AS n FROM scratch').get()).toEqual({ n: 60 });
      expect(errors).toEqual([]);
    } finally {
      await store.close();
    }
    // Stopped with the store: asking for a checkpoint afterwards returns at once.
    await expect(store.checkpointer!.checkpointNow()).resolves.toBeUndefined();
  });

  test('a worker that cannot run is reported, and what it tells goes to onError', async () => {
    const errors: string[] = [];
    // No database file there: the worker's connection cannot open, the worker ends.
    const checkpointer = startCheckpointer(path.join(freshDir(), 'missing.db'), 'NORMAL', (m) => errors.push(m));
    for (let i = 0; i < 100 && errors.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(errors[0]).toMatch(/unable to open|does not exist|directory does not exist/i);
    expect(errors[1]).toMatch(/the checkpoint worker exited \(code 1\); the backstop checkpoints go on/);
    // Already gone: a checkpoint request and stop return at once.
    await expect(checkpointer.checkpointNow()).resolves.toBeUndefined();
    await expect(checkpointer.stop()).resolves.toBeUndefined();
  });

  describe('the server', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(async () => {
      await server.close();
    });

    test('refresh grants are checkpointed by the worker: every WAL frame reaches the database file', async () => {
      const origin = server.baseUrl;
      let token = String(
        (await redeemCode(origin, origin, await authorizeMember(origin, origin, 'openid account:read'))).body
          .refresh_token,
      );
      for (let i = 0; i < 5; i++) {
        const answer = await refresh(origin, token);
        expect(answer.status).toBe(200);
        token = String(answer.body.refresh_token);
      }
      const after = await backfilled(server.dataDir, 10 * CHECKPOINT_INTERVAL_MS);
      expect(after.mxFrame).toBeGreaterThan(0);
      expect(after.nBackfill).toBe(after.mxFrame);
    });
  });
});
