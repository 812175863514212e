/**
 * An access token's tombstone (src/oauth/token-tombstones.ts: the client id kept under the
 * token's SHA-256, for the 401 `scope` of a revoked or purged token) lives only while the token
 * could still be presented: the token's own expiry plus TOMBSTONE_MARGIN_SECONDS, on both OIDC
 * stores. Every access token leaves one, so a longer life grows storage with the refresh rate.
 */
import { hash } from 'node:crypto';
import { Redis } from 'ioredis';
import { TOMBSTONE_MARGIN_SECONDS } from '../../src/oauth/token-tombstones.js';
import type { TestServer } from '../helpers/server.js';
import { authorizeMember, redeemCode, refresh } from '../helpers/flows.js';
import { TEST_REDIS_URL, oidcStoreRuns, startOnStore } from '../helpers/services.js';

describe.each(oidcStoreRuns('access-tombstone-lifetime'))('access-token tombstones on $store', (run) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startOnStore(run);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** Seconds from now until the tombstone of `token` expires. */
  async function tombstoneLeft(token: string): Promise<number> {
    const id = hash('sha256', token, 'base64url');
    if (run.store === 'sqlite') {
      const row = server.store
        .sqlite!.prepare('SELECT expires_at FROM oidc_models WHERE model = ? AND id = ?')
        .get('AccessTokenTombstone', id) as { expires_at: number } | undefined;
      expect(row).toBeDefined();
      return row!.expires_at - Date.now() / 1000;
    }
    const redis = new Redis(TEST_REDIS_URL!);
    try {
      const ms = await redis.pttl(`${server.config.redisKeyPrefix}:AccessTokenTombstone:{${id}}`);
      expect(ms).toBeGreaterThan(0);
      return ms / 1000;
    } finally {
      redis.disconnect();
    }
  }

  test('from the code exchange and from a refresh: the token lifetime plus the margin, no more', async () => {
    const o = server.baseUrl;
    const issued = (await redeemCode(o, o, await authorizeMember(o, o))).body;
    const refreshed = (await refresh(o, String(issued.refresh_token))).body;
    for (const answer of [issued, refreshed]) {
      const bound = Number(answer.expires_in) + TOMBSTONE_MARGIN_SECONDS;
      const left = await tombstoneLeft(String(answer.access_token));
      expect(left).toBeGreaterThan(bound - 60);
      expect(left).toBeLessThanOrEqual(bound + 2);
    }
  }, 30_000);
});
