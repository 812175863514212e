/**
 * Site settings an operator changes (SPEC §5.4: the "MCP connections" beta feature that makes the
 * Developers → OAuth applications area appear). Knows nothing of HTTP or OAuth.
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import type { Site } from './accounts.js';
import { siteName } from './plain-text.js';

/** Fields an operator may change; absent fields stay as they are. */
export interface SitePatch {
  name?: string;
  mcpConnectionsEnabled?: boolean;
}

export class SiteSettings {
  /** @param onChange called after a change of a site's "MCP connections" switch (cache invalidation) */
  constructor(
    private readonly db: Kysely<PlatformDatabase>,
    private readonly onChange: () => void = () => {},
  ) {}

  /**
   * Applies a patch and returns the site as stored.
   * @returns undefined when the site does not exist
   * @throws PlatformError `invalid` (field `name`) for a name that is empty, too long or holds a
   *   control or format character (it reaches invitation mail: src/platform/plain-text.ts)
   */
  async update(siteId: string, patch: SitePatch): Promise<Site | undefined> {
    const values: Partial<{ name: string; mcp_connections_enabled: number }> = {};
    if (patch.name !== undefined) values.name = siteName(patch.name);
    if (patch.mcpConnectionsEnabled !== undefined) values.mcp_connections_enabled = patch.mcpConnectionsEnabled ? 1 : 0;
    if (Object.keys(values).length > 0)
      await this.db.updateTable('sites').set(values).where('id', '=', siteId).execute();
    if (values.mcp_connections_enabled !== undefined) this.onChange();
    const row = await this.db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
    return row ? { id: row.id, name: row.name, mcpConnectionsEnabled: row.mcp_connections_enabled === 1 } : undefined;
  }
}
