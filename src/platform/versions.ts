/**
 * Versions of the representations that updates guard with `If-Match` (RFC 9110 §13.1.1; issue #25
 * finding 9; DESIGN D12 migrations are additive, so the version lives in its own table,
 * `resource_versions`, instead of a column on each of the guarded tables).
 *
 * A conditional update is one atomic compare-and-set on the store: `UPDATE resource_versions SET
 * version = version + 1 WHERE site_id = ? AND resource = ? AND version = ?`. PostgreSQL locks the
 * row for the statement and re-checks the condition after a concurrent update committed; SQLite runs
 * one write at a time. So of N updates sent in parallel with the ETag of version v, exactly one
 * moves v to v + 1; the others find no row with version v and are refused. Unconditional updates
 * move the version too (`bump`), so an ETag read before them no longer matches.
 *
 * Knows nothing of HTTP: entity tags are built by the operations layer (src/operations/runner.ts).
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';

export class ResourceVersions {
  constructor(private readonly db: Kysely<PlatformDatabase>) {}

  /** The current version of `resource` at the site; 0 when it was never updated. */
  async current(siteId: string, resource: string): Promise<number> {
    const row = await this.db
      .selectFrom('resource_versions')
      .select('version')
      .where('site_id', '=', siteId)
      .where('resource', '=', resource)
      .executeTakeFirst();
    return row ? Number(row.version) : 0;
  }

  /**
   * Moves `resource` from version `expected` to `expected + 1`, atomically.
   * @returns true for the one caller that moved it; false when the version is no longer `expected`
   */
  async claim(siteId: string, resource: string, expected: number): Promise<boolean> {
    await this.ensure(siteId, resource);
    const result = await this.db
      .updateTable('resource_versions')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('site_id', '=', siteId)
      .where('resource', '=', resource)
      .where('version', '=', expected)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Moves `resource` to its next version, whatever it was (an update sent without If-Match). */
  async bump(siteId: string, resource: string): Promise<void> {
    await this.ensure(siteId, resource);
    await this.db
      .updateTable('resource_versions')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('site_id', '=', siteId)
      .where('resource', '=', resource)
      .execute();
  }

  /** The row of `resource` at version 0 unless it exists (parallel callers: one insert wins, no error). */
  private async ensure(siteId: string, resource: string): Promise<void> {
    await this.db
      .insertInto('resource_versions')
      .values({ site_id: siteId, resource, version: 0 })
      .onConflict((oc) => oc.columns(['site_id', 'resource']).doNothing())
      .execute();
  }
}
