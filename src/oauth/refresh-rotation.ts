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
 *   process in between leaves the grant exactly as it was (issue #14). The rotation itself waits
 *   for the request's next write, the access token's `upsert`, and saves it in the same atomic
 *   step (issue #15: one SQLite commit per refresh instead of two). Any other write or a refresh
 *   token read of the request runs the waiting rotation first, alone; so does
 *   {@link settleRefreshRotation}, the step after the provider, should none have come.
 * - `find(old)` of a token rotated at most `graceSeconds` ago answers it as not yet consumed, so a
 *   client that lost the response (a 503 after rotation, a dropped connection) or sent two
 *   refreshes at once is answered again instead of losing the grant. Later reuse still reads as
 *   consumed, and oidc-provider revokes the grant (RFC 9700 §4.14.2).
 * - Such a replay gets **the same successor** as the first rotation (DESIGN D3, issue #25 finding
 *   5): the adapter saves nothing new and names the successor it recorded on the old token; the
 *   provider's freshly minted pair (never stored) is replaced in its answer by
 *   {@link settleRefreshRotation}: the same `refresh_token` value, and the same `access_token`
 *   (with its remaining `expires_in` and its `scope`) while that one is still stored, else the
 *   access token of this answer, then stored and recorded in its place. One chain, as if the first
 *   answer had been lost; the next use of a stale token by either holder after the window is reuse.
 *
 * The request is found through oidc-provider's own AsyncLocalStorage (`Provider.ctx`).
 */
import type { Middleware } from 'koa';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import {
  withinGrace,
  type RefreshRotation,
  type RotatedSuccessor,
  type RotationOutcome,
  type RotationPolicy,
  type SavedAlong,
} from '../../adapters/rotation.js';
import { currentRequest } from '../engine/oidc-provider.js';

type AdapterClass = new (name: string) => Adapter;
type RotatingClass = new (name: string) => Adapter & RefreshRotation;

/** The refresh token whose consumption waits for its successor, per request context. */
const pending = new WeakMap<object, string>();

/** A rotation that waits for the request's access token, per request context. */
interface WaitingRotation {
  run(along?: SavedAlong): Promise<void>;
}
const waiting = new WeakMap<object, WaitingRotation>();

/** What is saved with the carrier of a waiting rotation (see {@link joinWaitingRotation}), per request context. */
const joined = new WeakMap<object, { carrierId: string; also: SavedAlong }>();

/**
 * Has `also` written in the same atomic step as the access token `carrierId`, when that token's
 * save carries the current request's waiting refresh rotation (a refresh grant): then `also` is
 * written exactly when the access token is (SQLite: same transaction). Call it just before that
 * access token's `upsert`. Used by the access-token tombstones (src/oauth/token-tombstones.ts).
 * @returns false when no rotation waits (the caller saves `also` itself)
 */
export function joinWaitingRotation(carrierId: string, also: SavedAlong): boolean {
  const request = currentRequest();
  if (!request || !waiting.has(request)) return false;
  joined.set(request, { carrierId, also });
  return true;
}

/** The successor a grace-window replay answers again, per request context (see {@link settleRefreshRotation}). */
const replayed = new WeakMap<object, RotatedSuccessor>();

/** Runs the request's waiting rotation, if any (alone, or with `along`). */
function runWaiting(request: object | undefined, along?: SavedAlong): Promise<void> | undefined {
  const rotation = request ? waiting.get(request) : undefined;
  if (!rotation) return undefined;
  waiting.delete(request!);
  return rotation.run(along);
}

/** The model whose save, in a refresh request, carries the waiting rotation. */
const CARRIER = 'AccessToken';

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
    constructor(private readonly name: string) {
      this.inner = new Base(name);
      this.rotating = name === 'RefreshToken';
    }

    find(id: string): Promise<AdapterPayload | undefined> {
      // Other models pass straight through: no async step of this wrapper on the access token and
      // grant reads of every resource request (issue #15).
      if (!this.rotating) return this.inner.find(id) as Promise<AdapterPayload | undefined>;
      return this.findRefreshToken(id);
    }

    private async findRefreshToken(id: string): Promise<AdapterPayload | undefined> {
      const before = runWaiting(currentRequest());
      if (before) await before;
      const found = (await this.inner.find(id)) ?? undefined;
      if (!found?.consumed || !withinGrace(found.consumed, nowSeconds(), policy.graceSeconds)) return found;
      const { consumed: _consumed, ...unconsumed } = found;
      return unconsumed;
    }

    async consume(id: string): Promise<void> {
      const request = currentRequest();
      const before = runWaiting(request);
      if (before) await before;
      if (!request || !this.rotating) return this.inner.consume(id);
      pending.set(request, id);
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const request = currentRequest();
      if (request && this.name === CARRIER && waiting.has(request)) {
        const join = joined.get(request);
        joined.delete(request);
        const also = join?.carrierId === id ? join.also : undefined;
        return runWaiting(request, { model: CARRIER, id, payload, expiresIn, ...(also ? { also } : {}) });
      }
      const before = runWaiting(request);
      if (before) await before;
      const oldId = request && this.rotating ? pending.get(request) : undefined;
      if (!request || !oldId) return this.inner.upsert(id, payload, expiresIn);
      pending.delete(request);
      const inner = this.inner;
      waiting.set(request, {
        run: async (along) => {
          const outcome = await inner.rotateRefreshToken(oldId, id, payload, expiresIn, policy, along);
          refuseLostRace(outcome);
          if (outcome.successor) replayed.set(request, outcome.successor);
        },
      });
    }

    findByUid(uid: string) {
      return this.inner.findByUid(uid);
    }
    findByUserCode(userCode: string) {
      return this.inner.findByUserCode(userCode);
    }
    async destroy(id: string) {
      const before = runWaiting(currentRequest());
      if (before) await before;
      return this.inner.destroy(id);
    }
    async revokeByGrantId(grantId: string) {
      const before = runWaiting(currentRequest());
      if (before) await before;
      return this.inner.revokeByGrantId(grantId);
    }
  };
}

/** A rotation that wrote nothing lost a race: revoked or expired meanwhile, or rotated by another request beyond the window. */
function refuseLostRace({ result }: RotationOutcome): void {
  if (result === 'gone') throw new errors.InvalidGrant('refresh token not found');
  if (result === 'reused') throw new errors.InvalidGrant('refresh token already used');
}

/** The token response fields a grace-window replay changes (RFC 6749 §5.1). */
interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  scope?: unknown;
}

/**
 * Puts the recorded successor into the provider's answer to a grace-window replay (issue #25
 * finding 5): the first rotation's refresh token, and its access token with the seconds it has
 * left. The values the provider minted for this request were never stored.
 */
function answerSuccessor(body: TokenAnswer, successor: RotatedSuccessor): void {
  body.refresh_token = successor.refreshToken;
  const access = successor.accessToken;
  if (!access) return;
  body.access_token = access.id;
  const exp = typeof access.payload.exp === 'number' ? access.payload.exp : undefined;
  if (exp !== undefined) body.expires_in = Math.max(0, exp - nowSeconds());
  if (typeof access.payload.scope === 'string' && body.scope !== undefined) body.scope = access.payload.scope;
}

/**
 * Step of the token pipeline, around the provider: a rotation still waiting when the provider has
 * answered (no access token was saved after the successor) runs now, so that no answer carries a
 * refresh token that was never stored. oidc-provider 9 saves the access token after the refresh
 * token, so this finds nothing to do; it guards against a future order. Then, when the request
 * was a grace-window replay (DESIGN D3), the answer names the recorded successor instead of the
 * pair the provider minted (see {@link answerSuccessor}).
 * @throws `invalid_grant` when that rotation lost a race (the provider's answer is discarded)
 */
export const settleRefreshRotation: Middleware = async (ctx, next) => {
  await next();
  const left = runWaiting(ctx);
  if (left) await left;
  const successor = replayed.get(ctx);
  if (!successor) return;
  replayed.delete(ctx);
  const body = ctx.body as TokenAnswer | undefined;
  if (ctx.status === 200 && body && typeof body === 'object' && 'refresh_token' in body)
    answerSuccessor(body, successor);
};
