/**
 * Long reads of the embedded store off the event loop (issue #29: "No operator read may stall token
 * traffic"). better-sqlite3 runs every statement synchronously on the thread that calls it, so an
 * aggregate over a big site (the analytics overview counts every membership, enrollment and order
 * of the site: ~100 ms at 50,000 members) held every token request of the process for that long.
 *
 * {@link workerReader} returns a read-only Kysely whose statements run in a worker thread on a
 * second, read-only connection to the same SQLite file (WAL mode: it reads the last committed state
 * while the main connection writes). The main thread only compiles the query and receives the
 * rows. Writes and transactions are refused (the connection is opened `readonly`). Used for the
 * operator reads that grow with a site; point reads stay on the main connection, where they cost
 * less than a message to a thread.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';

/**
 * The worker's code (CommonJS, run with `eval`, so it loads the same way under tsx and from the
 * build): one read-only better-sqlite3 connection, statements prepared once per SQL text.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (statements.size >= 500) statements.clear();
      statements.set(sql, statement);
    }
    if (!statement.reader) throw new Error('the long-read connection only reads');
    parentPort.postMessage({ id, rows: statement.all(...parameters) });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

type Pending = { resolve: (rows: unknown[]) => void; reject: (err: Error) => void };

/** Kysely driver of the worker: one logical connection; the worker runs queries in arrival order. */
class WorkerReaderDriver implements Driver {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private next = 0;

  constructor(private readonly file: string) {}

  async init(): Promise<void> {}

  /** The worker, started on first use and again after it died. */
  private spawn(): Worker {
    if (this.worker) return this.worker;
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.file, module } });
    worker.unref(); // never keeps the process alive
    worker.on('message', (m: { id: number; rows?: unknown[]; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.rows ?? []);
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the long-read worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private run(query: CompiledQuery): Promise<unknown[]> {
    const worker = this.spawn();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
    });
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => ({
        rows: (await this.run(query)) as R[],
      }),
      streamQuery: () => {
        throw new Error('the long-read connection does not stream');
      },
    };
  }

  async beginTransaction(): Promise<void> {
    throw new Error('the long-read connection has no transactions');
  }

  async commitTransaction(): Promise<void> {}

  async rollbackTransaction(): Promise<void> {}

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}

/**
 * A read-only Kysely on `file` whose statements run in a worker thread (see the module comment).
 * @param file the embedded store's SQLite file (`<DATA_DIR>/coursegate.db`), already created and migrated
 * @returns a Kysely to `destroy()` when the store closes; its queries reject on a write, on a
 *   transaction, or with what SQLite raised in the worker
 */
export function workerReader<DB>(file: string): Kysely<DB> {
  const dialect: Dialect = {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new WorkerReaderDriver(file),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
  return new Kysely<DB>({ dialect });
}
