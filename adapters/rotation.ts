/**
 * The refresh-token rotation primitive both oidc-provider adapters implement (DESIGN.md D3,
 * issue #14): consume a refresh token and save its successor in ONE atomic step, so that a store
 * fault or a killed process between the two never leaves a grant whose last refresh token is used
 * up while its successor was never saved (the member would be signed out by an outage).
 *
 * After rotation the old token is a tombstone: it stays findable (marked consumed) only for a
 * bounded time and only the newest {@link RotationPolicy.keepTombstones} per grant are kept, so
 * storage grows with members (grants), not with refreshes. Reuse of a tombstone after the grace
 * window is what oidc-provider turns into "revoke the grant" (RFC 9700 §4.14.2).
 */
import type { AdapterPayload } from 'oidc-provider';

/** How rotation treats the rotated-away token. Durations in seconds. */
export interface RotationPolicy {
  /** DESIGN D3 grace window: a token rotated at most this long ago may be rotated again (0 = never). */
  graceSeconds: number;
  /** How long a tombstone stays findable (reuse detection), capped by the token's own expiry. */
  tombstoneSeconds: number;
  /** Tombstones kept per grant (the newest ones); older ones are deleted at the next rotation. */
  keepTombstones: number;
}

/** Outcome of {@link RefreshRotation.rotateRefreshToken}. */
export type RotationResult =
  /** The old token was live: consumed now, successor saved. */
  | 'rotated'
  /** The old token had been rotated within the grace window: another successor saved. */
  | 'grace'
  /** The old token is gone (expired, revoked, evicted tombstone): nothing written. */
  | 'gone'
  /** The old token was rotated longer ago than the grace window: nothing written. */
  | 'reused';

/**
 * Another model instance saved together with a rotation (the refresh grant's access token): it is
 * written only when the rotation is, as `upsert(id, payload, expiresIn)` of model `model` would.
 */
export interface SavedAlong {
  model: string;
  id: string;
  payload: AdapterPayload;
  /** Seconds. */
  expiresIn: number;
}

/** An oidc-provider adapter that can rotate refresh tokens atomically. */
export interface RefreshRotation {
  /**
   * In one atomic step: checks refresh token `oldId`, marks it consumed (keeping its first
   * consumption time) and turns it into a tombstone, saves `newId` with `payload` for `expiresIn`
   * seconds, and drops the grant's tombstones beyond the policy. Writes nothing unless the result
   * is `rotated` or `grace`.
   * @param payload the successor's payload; its `grantId` names the grant of both tokens
   * @param along saved too when the result is `rotated` or `grace` (issue #15: the refresh grant's
   *   access token in the same write as the rotation); on SQLite in the same transaction
   * @throws the store's own error when it is unreachable (nothing was written)
   */
  rotateRefreshToken(oldId: string, newId: string, payload: AdapterPayload, expiresIn: number, policy: RotationPolicy, along?: SavedAlong): Promise<RotationResult>;
}

/** Default tombstones kept per grant (see docs/deployment.md, "Storage sizing"). */
export const DEFAULT_KEEP_TOMBSTONES = 10;

/**
 * Whether a rotated token consumed at `consumedAt` may be rotated again at `now` (epoch seconds).
 * Shared by both adapters and the grace-window wrapper so the rule lives in one place.
 */
export function withinGrace(consumedAt: number, now: number, graceSeconds: number): boolean {
  return graceSeconds > 0 && now - consumedAt <= graceSeconds;
}
