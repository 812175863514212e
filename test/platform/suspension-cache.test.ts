/**
 * SPEC §5.4 / DESIGN §3 "MCP connections" switch, issue #15: `Suspensions.of` keeps its answer per
 * client for `SUSPENSION_CACHE_MS` instead of one platform query per token lookup. A switch made
 * through `SiteSettings` (PATCH /api/v1/site, /admin) forgets the kept answers, so it is effective
 * at once in this process (test/integration/beta-suspension.test.ts walks that over HTTP); a change
 * the process did not make (another process, the CLI) is seen once the answer is older than that.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedStore, type EmbeddedStore } from '../../src/store/database.js';
import { SiteSettings } from '../../src/platform/sites.js';
import { SUSPENSION_CACHE_MS, Suspensions } from '../../src/oauth/suspension.js';

describe('SPEC 5.4 suspension answers kept per client (issue #15)', () => {
  let dir: string;
  let store: EmbeddedStore;
  let suspensions: Suspensions;
  let settings: SiteSettings;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cg-suspension-'));
    store = await openEmbeddedStore(dir);
    const now = new Date().toISOString();
    await store.db
      .insertInto('sites')
      .values({ id: 'site_a', name: 'Site A', mcp_connections_enabled: 1, created_at: now })
      .execute();
    await store.db
      .insertInto('oauth_applications')
      .values({
        client_id: 'member-a',
        site_id: 'site_a',
        client_name: 'A',
        redirect_uris: '[]',
        scope: 'account:read',
        created_by: null,
        created_at: now,
      })
      .execute();
    suspensions = new Suspensions(store.db);
    settings = new SiteSettings(store.db, () => suspensions.forget());
  });

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a switch made through SiteSettings is effective at once, both ways', async () => {
    expect(await suspensions.of('member-a')).toBeUndefined();
    await settings.update('site_a', { mcpConnectionsEnabled: false });
    expect(await suspensions.of('member-a')).toEqual({ siteId: 'site_a', siteName: 'Site A' });
    await settings.update('site_a', { mcpConnectionsEnabled: true });
    expect(await suspensions.of('member-a')).toBeUndefined();
  });

  it('a change made elsewhere is seen once the kept answer is older than SUSPENSION_CACHE_MS', async () => {
    const start = Date.now();
    expect(await suspensions.of('member-a')).toBeUndefined();
    // Another process switches the beta off (no SiteSettings of ours involved).
    await store.db.updateTable('sites').set({ mcp_connections_enabled: 0 }).where('id', '=', 'site_a').execute();
    if (Date.now() - start < SUSPENSION_CACHE_MS) expect(await suspensions.of('member-a')).toBeUndefined();
    const now = Date.now;
    Date.now = () => now() + SUSPENSION_CACHE_MS + 1;
    try {
      expect(await suspensions.of('member-a')).toEqual({ siteId: 'site_a', siteName: 'Site A' });
    } finally {
      Date.now = now;
    }
  });

  it('a client that is no member client, or an over-long id, is never suspended', async () => {
    expect(await suspensions.of('dcr-client')).toBeUndefined();
    expect(await suspensions.of('x'.repeat(201))).toBeUndefined();
    expect(await suspensions.of(undefined)).toBeUndefined();
  });
});
