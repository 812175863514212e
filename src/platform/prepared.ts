/**
 * Hot platform queries built and compiled once (issue #15). Building a Kysely query (immutable
 * operation nodes) and compiling it to SQL costs about as much CPU as running a small indexed read
 * on SQLite, and the queries every resource request runs (the bearer step's live member check, the
 * enrollments page) have a fixed shape: only their parameter values change. A `PreparedQuery` is
 * compiled on first use with marker values in place of the parameters, and each run binds the real
 * values to the markers' positions. Works on every dialect (SQLite `?`, PostgreSQL `$n`): the SQL
 * text is never touched, only the parameter list. Values are always bound, never inlined.
 */
import { createQueryId, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';

/**
 * Runs a compiled read on the spot, without Kysely's asynchronous connection hand-off, or answers
 * undefined when it cannot (then the caller goes through Kysely). The embedded store registers one
 * (src/store/database.ts `openEmbeddedStore`); PostgreSQL has none.
 * @returns the rows, or undefined when the query must wait for Kysely's connection (a Kysely
 *   transaction is open on it) or returns no rows (better-sqlite3 `reader` false: a write without RETURNING)
 * @throws what the store throws for the query (the failure is logged like Kysely's)
 */
export type DirectReader = (query: CompiledQuery) => unknown[] | undefined;

const directReaders = new WeakMap<Kysely<PlatformDatabase>, DirectReader>();

/** Registers the direct reader of `db` (one per store handle; transactions are other objects and never get one). */
export function registerDirectReader(db: Kysely<PlatformDatabase>, reader: DirectReader): void {
  directReaders.set(db, reader);
}

/** A marker stands for parameter `i` while the query is compiled; unique enough never to be a real value. */
const marker = (i: number): string => `\u0000coursegate-prepared-parameter-${i}\u0000`;

/** A query of a fixed shape whose parameters are bound at each run. `P`: the parameter values. */
export class PreparedQuery<P extends readonly unknown[], R> {
  private compiled?: { query: CompiledQuery<R>; slots: number[] };

  /**
   * @param arity how many parameters `build` takes
   * @param build builds the query from its parameters; called once, with markers (each must end
   *   up as a bound parameter, e.g. in `where`, `limit`: not inside `sql.lit` or an identifier)
   */
  constructor(
    private readonly arity: P['length'],
    private readonly build: (...values: P) => Compilable<R>,
  ) {}

  /**
   * The compiled query with `values` bound, for `db.executeQuery`.
   * @throws Error when `build` did not use every parameter as a bound value
   */
  bind(...values: P): CompiledQuery<R> {
    const { query, slots } = (this.compiled ??= this.compile());
    const parameters = slots.map((slot, i) => (slot < 0 ? query.parameters[i] : values[slot]));
    return { ...query, parameters, queryId: createQueryId() };
  }

  /**
   * Runs the query with `values` bound on `db` and answers its rows. Issue #15: on the embedded
   * store a read runs at once through `db`'s direct reader (one cached better-sqlite3 statement,
   * ~4 µs less per request than Kysely's connection hand-off, which goes through a mutex and
   * several awaits); in a Kysely transaction, on PostgreSQL, or for a write it goes through
   * `db.executeQuery` as before.
   * @throws what the store throws (a store outage, a constraint)
   */
  async rows(db: Kysely<PlatformDatabase>, ...values: P): Promise<R[]> {
    const query = this.bind(...values);
    const direct = directReaders.get(db)?.(query);
    return direct ? (direct as R[]) : (await db.executeQuery(query)).rows;
  }

  private compile(): { query: CompiledQuery<R>; slots: number[] } {
    const markers = Array.from({ length: this.arity }, (_, i) => marker(i));
    const query = this.build(...(markers as unknown as P)).compile();
    const slots = query.parameters.map((p) => markers.indexOf(p as string));
    for (let i = 0; i < this.arity; i++) {
      if (!slots.includes(i)) throw new Error(`prepared query: parameter ${i} is not bound in ${query.sql}`);
    }
    return { query, slots };
  }
}
