/**
 * Access-token tombstones (DESIGN D4 "every 401 names a scope … also after its token is gone";
 * issue #26): what a resource server needs to name the right `scope` in the 401 for an access
 * token that was revoked or purged, namely which client it was issued to.
 *
 * A revoked token's record is deleted (RFC 7009, grant revocation, refresh-token reuse, logout),
 * and an expired one is purged, so the bearer step could tell nothing about it and named `openid`:
 * a client that then signs in again gets a token with no resource scope, and an SDK 1.32 host
 * gives up ("403 after trying upscoping"). With a tombstone the 401 names the default scope set of
 * the token's client (DESIGN D3), so signing in again leads somewhere.
 *
 * The tombstone is written with the access token (an adapter wrapper, like the refresh rotation of
 * src/oauth/refresh-rotation.ts), because revoking a grant deletes its tokens without naming them.
 * It holds the client id only, under the SHA-256 of the token (the token itself is never kept
 * there), and lives only while the token could still be presented: its own lifetime plus
 * {@link TOMBSTONE_MARGIN_SECONDS} (a client that holds on to an expired token, a clock that is
 * off). Every access token leaves one, so a longer life multiplies storage by the refresh rate: at
 * one refresh per second a member keeps ~7,200 tombstones (~1.4 MB of Redis) this way, where 7 days
 * kept ~600,000.
 */
import { hash } from 'node:crypto';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { joinWaitingRotation } from './refresh-rotation.js';

type AdapterClass = new (name: string) => Adapter;

/** The adapter model name the tombstones are stored under. */
export const TOMBSTONE_MODEL = 'AccessTokenTombstone';

/**
 * What the `AccessToken` adapter of a wrapped class also answers (read by the bearer step through
 * `provider.AccessToken.adapter`, src/resource/bearer.ts).
 */
export interface TokenTombstones {
  /**
   * The client an access token was issued to, while its tombstone lives (also after the token
   * was revoked or purged); undefined when unknown.
   */
  clientOfGoneToken(token: string): Promise<string | undefined>;
}

/** How long a tombstone outlives its access token, seconds. */
export const TOMBSTONE_MARGIN_SECONDS = 3600;

// One-shot `hash` (no Hash object per call): on every refresh and every access token issued.
const tombstoneId = (token: string): string => hash('sha256', token, 'base64url');

/**
 * Wraps an adapter class so that every saved access token leaves a tombstone (see the module
 * comment). Other models pass through untouched.
 * @param keepSeconds how long a tombstone outlives its token (seconds)
 */
export function withTokenTombstones(Base: AdapterClass, keepSeconds: number): AdapterClass {
  return class TombstoneAdapter implements Adapter, TokenTombstones {
    private readonly inner: Adapter;
    private readonly tombstones: Adapter | undefined;
    constructor(name: string) {
      this.inner = new Base(name);
      this.tombstones = name === 'AccessToken' ? new Base(TOMBSTONE_MODEL) : undefined;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      if (!this.tombstones || typeof payload.clientId !== 'string') return this.inner.upsert(id, payload, expiresIn);
      const tombstone = {
        model: TOMBSTONE_MODEL,
        id: tombstoneId(id),
        payload: { clientId: payload.clientId } as AdapterPayload,
        expiresIn: Math.max(1, expiresIn) + keepSeconds,
      };
      // In a refresh grant the access token carries the rotation (refresh-rotation.ts): the
      // tombstone joins that atomic step (one SQLite commit), written only if the token is.
      if (joinWaitingRotation(id, tombstone)) return this.inner.upsert(id, payload, expiresIn);
      // Otherwise the token first, then its tombstone.
      await this.inner.upsert(id, payload, expiresIn);
      await this.tombstones.upsert(tombstone.id, tombstone.payload, tombstone.expiresIn);
    }
    find(id: string) {
      return this.inner.find(id);
    }
    findByUid(uid: string) {
      return this.inner.findByUid(uid);
    }
    findByUserCode(userCode: string) {
      return this.inner.findByUserCode(userCode);
    }
    consume(id: string) {
      return this.inner.consume(id);
    }
    destroy(id: string) {
      return this.inner.destroy(id);
    }
    revokeByGrantId(grantId: string) {
      return this.inner.revokeByGrantId(grantId);
    }
    async clientOfGoneToken(token: string): Promise<string | undefined> {
      if (!this.tombstones) return undefined;
      const found = await this.tombstones.find(tombstoneId(token));
      return typeof found?.clientId === 'string' ? found.clientId : undefined;
    }
  };
}
