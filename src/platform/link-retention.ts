/**
 * Retention of the links mailed to people (DESIGN D5, D10, D11): a set-password link
 * (`one_time_links`) or an address link (`address_links`) is useless once expired or used (it
 * works once, until its expiry), so the retention job deletes it. Only token hashes are stored,
 * yet a row still names an address and when it asked for mail: nothing is kept longer than it
 * serves. Knows nothing of HTTP.
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';

/** Most rows of one table deleted per statement. */
export const LINK_PURGE_BATCH_ROWS = 1000;

/** The link tables and their columns the purge reads (both keyed by `token_hash`). */
type LinkTable = 'one_time_links' | 'address_links';
type LinkRow = { token_hash: string; expires_at: string; used_at: string | null };
type LinkDb = Record<LinkTable, LinkRow>;

/**
 * Deletes every link that expired before `now` or was used, from both tables, in batches of at
 * most `batchRows` rows per statement (each batch the first entries of an index range:
 * `*_expires` or `*_used`, migration `0030_link_expiry_indexes`), yielding to the event loop
 * between batches.
 * @param batchRows rows per statement, ≥ 1
 * @returns how many rows were deleted from each table
 * @throws what the platform store throws (batches already deleted stay deleted)
 */
export async function purgeSpentLinks(
  db: Kysely<PlatformDatabase>,
  now = new Date(),
  batchRows = LINK_PURGE_BATCH_ROWS,
): Promise<Record<LinkTable, number>> {
  const links = db as unknown as Kysely<LinkDb>;
  const at = now.toISOString();
  const limit = Math.max(1, Math.trunc(batchRows));
  const deleted: Record<LinkTable, number> = { one_time_links: 0, address_links: 0 };
  for (const table of ['one_time_links', 'address_links'] as const) {
    for (const due of ['expired', 'used'] as const) {
      for (;;) {
        const batch = links
          .selectFrom(table)
          .select('token_hash')
          .where(due === 'expired' ? (eb) => eb('expires_at', '<', at) : (eb) => eb('used_at', 'is not', null))
          .limit(limit);
        const result = await links.deleteFrom(table).where('token_hash', 'in', batch).executeTakeFirst();
        const n = Number(result.numDeletedRows);
        deleted[table] += n;
        if (n < limit) break;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
  }
  return deleted;
}
