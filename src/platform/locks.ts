/**
 * Serialised check-and-write of site invariants (issue #25 finding 6; DESIGN D5 "the last owner
 * stays, under concurrency too"). A rule read before a write (the last owner, the role hierarchy,
 * an inviter's role at acceptance) holds only if no other change of the site's roles runs between
 * the read and the write. Every such change runs in a transaction that first calls `lockSite`:
 *
 * - PostgreSQL: `SELECT id FROM sites WHERE id = $1 FOR UPDATE` locks the site's row until the
 *   transaction ends, so role changes of one site run one after the other (other sites are not
 *   held up); the second one reads the roles the first one committed.
 * - SQLite (the embedded store): Kysely's SQLite driver has one connection and hands it to one
 *   transaction at a time, so transactions are serialised already; nothing more is needed.
 */
import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { PlatformDatabase } from './schema.js';

/** True when `db` talks to PostgreSQL. */
// biome-ignore lint/suspicious/noExplicitAny: works on any Kysely instance (the platform's, an operator-side view, a transaction)
export const onPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Locks the site's row for the rest of the transaction `trx` (PostgreSQL; a no-op on SQLite, see above).
 * @returns false when the site does not exist
 */
// biome-ignore lint/suspicious/noExplicitAny: the callers' transactions are typed by their own table views
export async function lockSite(trx: Transaction<any>, siteId: string): Promise<boolean> {
  const t = trx as unknown as Transaction<PlatformDatabase>;
  const q = t.selectFrom('sites').select('id').where('id', '=', siteId);
  const row = await (onPostgres(trx) ? q.forUpdate() : q).executeTakeFirst();
  return row !== undefined;
}
