/**
 * DESIGN D3 refresh rotation with a grace window, around oidc-provider's own refresh_token grant
 * (`lib/actions/grants/refresh_token.js`), which does, in one request:
 *
 *   find(old) → [consumed? destroy + revoke the grant] → consume(old) → save(successor) → save(access token)
 *
 * This adapter wrapper changes two steps and nothing else:
 *
 * - `consume(old)` of a refresh token inside a token request is deferred, and the following
 *   `upsert(successor)` becomes the adapter's atomic {@link RefreshRotation.rotateRefreshToken}:
 *   the old token is used up only together with saving its successor. A store fault or a killed
 *   process in between leaves the grant exactly as it was (issue #14).
 * - `find(old)` of a token rotated at most `graceSeconds` ago answers it as not yet consumed, so a
 *   client that lost the response (a 503 after rotation, a dropped connection) or sent two
 *   refreshes at once gets a working pair again instead of losing the grant. Later reuse still
 *   reads as consumed, and oidc-provider revokes the grant (RFC 9700 §4.14.2).
 *
 * The request is found through oidc-provider's own AsyncLocalStorage (`Provider.ctx`).
 */
import Provider, { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import { withinGrace, type RefreshRotation, type RotationPolicy } from '../../adapters/rotation.js';

type AdapterClass = new (name: string) => Adapter;
type RotatingClass = new (name: string) => Adapter & RefreshRotation;

/** The refresh token whose consumption waits for its successor, per request context. */
const pending = new WeakMap<object, string>();

const currentRequest = (): object | undefined => (Provider as unknown as { ctx?: object }).ctx;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Wraps a rotation-capable adapter class (adapters/sqlite.ts, adapters/redis.ts).
 * @param policy grace window, tombstone lifetime and count (seconds)
 * @returns an adapter class for oidc-provider; models other than `RefreshToken` pass through
 */
export function withRefreshRotation(Base: RotatingClass, policy: RotationPolicy): AdapterClass {
  return class RefreshRotatingAdapter implements Adapter {
    private readonly inner: Adapter & RefreshRotation;
    private readonly rotating: boolean;
    constructor(name: string) {
      this.inner = new Base(name);
      this.rotating = name === 'RefreshToken';
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const found = (await this.inner.find(id)) ?? undefined;
      if (!this.rotating || !found?.consumed || !withinGrace(found.consumed, nowSeconds(), policy.graceSeconds)) return found;
      const { consumed: _consumed, ...unconsumed } = found;
      return unconsumed;
    }

    async consume(id: string): Promise<void> {
      const request = this.rotating ? currentRequest() : undefined;
      if (!request) return this.inner.consume(id);
      pending.set(request, id);
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const request = this.rotating ? currentRequest() : undefined;
      const oldId = request ? pending.get(request) : undefined;
      if (!request || !oldId) return this.inner.upsert(id, payload, expiresIn);
      pending.delete(request);
      const result = await this.inner.rotateRefreshToken(oldId, id, payload, expiresIn, policy);
      // Lost a race: revoked or expired meanwhile, or rotated by another request beyond the window.
      if (result === 'gone') throw new errors.InvalidGrant('refresh token not found');
      if (result === 'reused') throw new errors.InvalidGrant('refresh token already used');
    }

    findByUid(uid: string) {
      return this.inner.findByUid(uid);
    }
    findByUserCode(userCode: string) {
      return this.inner.findByUserCode(userCode);
    }
    destroy(id: string) {
      return this.inner.destroy(id);
    }
    revokeByGrantId(grantId: string) {
      return this.inner.revokeByGrantId(grantId);
    }
  };
}
