/**
 * WAL checkpoints of the embedded store off the event loop (issue #29, the token path).
 *
 * In WAL mode SQLite appends every commit to `coursegate.db-wal`; a checkpoint copies those pages
 * back into `coursegate.db`. By default the connection that commits runs the checkpoint itself,
 * inside that commit, once the WAL holds 1,000 pages: on the main connection that is the event
 * loop. Under refresh traffic (about a dozen WAL pages per rotation) that was a checkpoint every
 * ~70 refreshes, each writing the changed pages and calling `fsync` twice (0.5–4 ms each on the
 * machines we measured): ~170 µs of the event loop's time per refresh, and the refresh's p99.
 *
 * {@link startCheckpointer} runs them in a worker thread instead, on its own connection to the
 * same file, every {@link CHECKPOINT_INTERVAL_MS} when something was committed since the last one
 * (`PRAGMA data_version`). The checkpoint is `PASSIVE`: it copies what no reader still needs and
 * never waits for, or blocks, the main connection. The main connection keeps automatic
 * checkpoints only as a backstop ({@link BACKSTOP_PAGES}), for when the worker lags or is gone.
 *
 * The WAL file: SQLite starts writing it from the beginning again only when a writer finds every
 * frame copied, which a checkpoint running beside continuous commits rarely leaves. Under sustained
 * writes the WAL therefore grows to the backstop (16,000 pages, ~64 MiB on disk, measured at 1,300
 * refreshes/s), where the main connection's own checkpoint copies the few frames left and the WAL
 * starts over; the file keeps its size. A quiet moment (the worker copies everything) restarts it
 * sooner.
 *
 * Durability with `synchronous=NORMAL` (the default): a commit survives a power loss once a
 * checkpoint has synced the WAL. With automatic checkpoints that happened after 1,000 pages,
 * whatever the time (minutes on a quiet site); the worker makes it at most
 * {@link CHECKPOINT_INTERVAL_MS} after the commit. The checkpoint's syncs follow the main
 * connection's `synchronous` setting (`SQLITE_SYNCHRONOUS`).
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';

/** How often the worker checkpoints when something was committed, in milliseconds. */
export const CHECKPOINT_INTERVAL_MS = 250;

/**
 * `wal_autocheckpoint` of the main connection while the worker runs, in pages (4 KiB each): above
 * what a busy interval writes (about 3,000 pages in 250 ms at 1,000 refreshes/s), so the main
 * connection checkpoints only when the worker fell behind.
 */
export const BACKSTOP_PAGES = 16_000;

/**
 * The worker's code (CommonJS, run with `eval`, so it loads the same way under tsx and from the
 * build; the same pattern as the long-read worker, src/store/worker-reader.ts).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = ' + workerData.synchronous);
let seen;
let failing = false;
const checkpoint = () => {
  try {
    const version = db.pragma('data_version', { simple: true });
    if (version === seen) return;
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    // Everything copied: nothing left to do until the next commit.
    if (result && result.busy === 0 && result.checkpointed === result.log) seen = version;
    failing = false;
  } catch (err) {
    if (!failing) parentPort.postMessage({ error: String((err && err.message) || err) });
    failing = true;
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'checkpoint') {
    checkpoint();
    parentPort.postMessage({ done: true });
  } else if (m === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

/** A running checkpoint worker. */
export interface Checkpointer {
  /** Runs one checkpoint now, in the worker, and resolves when it is done (tests, shutdown). */
  checkpointNow(): Promise<void>;
  /** Stops the worker after it closed its connection (the main connection's backstop checkpoints go on). */
  stop(): Promise<void>;
}

/**
 * Starts checkpointing `file` from a worker thread (see the module comment).
 * @param file the embedded store's SQLite file (`<DATA_DIR>/coursegate.db`), already in WAL mode
 * @param synchronous the main connection's `synchronous` pragma, which the checkpoint's syncs follow
 * @param onError called once per run of failures with SQLite's message (the worker goes on trying),
 *   and once if the worker ends without {@link Checkpointer.stop} (then only the backstop checkpoints)
 * @param intervalMs time between checkpoints, in milliseconds
 */
export function startCheckpointer(
  file: string,
  synchronous: 'FULL' | 'NORMAL',
  onError: (message: string) => void = () => {},
  intervalMs = CHECKPOINT_INTERVAL_MS,
): Checkpointer {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, module, synchronous, intervalMs } });
  worker.unref(); // never keeps the process alive
  const waiting: (() => void)[] = [];
  worker.on('message', (m: { error?: string; done?: boolean }) => {
    if (m.error !== undefined) onError(m.error);
    if (m.done) waiting.shift()?.();
  });
  worker.on('error', (err) => onError(err.message));
  let stopped = false;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      // Gone without `stop`: the main connection's backstop checkpoints go on alone.
      if (!stopped) onError(`the checkpoint worker exited (code ${code}); the backstop checkpoints go on`);
      stopped = true;
      for (const done of waiting.splice(0)) done();
      resolve();
    }),
  );
  return {
    checkpointNow: () =>
      stopped
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiting.push(resolve);
            worker.postMessage('checkpoint');
          }),
    async stop() {
      if (stopped) return;
      stopped = true;
      // The worker closes its connection and ends; terminated if it does not within a second.
      worker.postMessage('stop');
      const late = setTimeout(() => void worker.terminate(), 1000);
      await exited;
      clearTimeout(late);
    },
  };
}
