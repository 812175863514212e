/**
 * The refresh-token rotation primitive both oidc-provider adapters implement (DESIGN.md D3,
 * issue #14): consume a refresh token and save its successor in ONE atomic step, so that a store
 * fault or a killed process between the two never leaves a grant whose last refresh token is used
 * up while its successor was never saved (the member would be signed out by an outage).
 *
 * After rotation the old token is a tombstone: it records its successor for the grace window
 * (DESIGN D3: a replay within the window gets that same successor again, never a second chain;
 * issue #25 finding 5), and it stays findable (marked consumed) only for a
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

/** Outcome of {@link RefreshRotation.rotateRefreshToken}, `result`. */
export type RotationResult =
  /** The old token was live: consumed now, successor saved, and the successor recorded on the old token. */
  | 'rotated'
  /**
   * The old token had been rotated within the grace window (issue #25 finding 5, DESIGN D3): no
   * new successor is saved; {@link RotationOutcome.successor} is the one the first rotation saved,
   * to be answered again (one chain, as if the first answer had been lost).
   */
  | 'grace'
  /**
   * Nothing written: the old token is gone (expired, revoked, evicted tombstone), or it was rotated
   * within the window but its recorded successor is gone (revoked meanwhile; or a tombstone of an
   * earlier version, which recorded none).
   */
  | 'gone'
  /** The old token was rotated longer ago than the grace window: nothing written. */
  | 'reused';

/**
 * The successor a grace-window replay answers again (issue #25 finding 5): only what the answer
 * needs. The values are the tokens themselves (opaque tokens: value = id), as secret as the rows
 * that hold them; they are never logged.
 */
export interface RotatedSuccessor {
  /** The refresh token the first rotation saved (its value). */
  refreshToken: string;
  /**
   * The access token issued with it, when still stored (its value and payload: `exp` in epoch
   * seconds, `scope`); when it is gone (revoked, expired), the access token saved `along` with
   * this call instead, now recorded as the successor's. Undefined only when neither exists.
   */
  accessToken?: { id: string; payload: AdapterPayload };
}

/** What {@link RefreshRotation.rotateRefreshToken} did. */
export interface RotationOutcome {
  result: RotationResult;
  /** Set when `result` is `grace`. */
  successor?: RotatedSuccessor;
}

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
  /**
   * One more instance written whenever this one is, and never otherwise (the access token's
   * tombstone, src/oauth/token-tombstones.ts): on SQLite in the same transaction, on a standalone
   * Redis in the rotation's script; on a Redis Cluster (its key is in another slot) right after it.
   */
  also?: SavedAlong;
}

/**
 * Whether a rotation saved its `along` instance: always when it rotated; within the grace window
 * only when that instance became the recorded successor's access token (the one recorded before
 * was gone).
 */
export function savedAlong(outcome: RotationOutcome, along: SavedAlong | undefined): boolean {
  if (!along) return false;
  if (outcome.result === 'rotated') return true;
  return outcome.result === 'grace' && outcome.successor?.accessToken?.id === along.id;
}

/** An oidc-provider adapter that can rotate refresh tokens atomically. */
export interface RefreshRotation {
  /**
   * In one atomic step: checks refresh token `oldId`; when it is live, marks it consumed, turns it
   * into a tombstone that records its successor (`newId` and `along`'s id), saves `newId` with
   * `payload` for `expiresIn` seconds, and drops the grant's tombstones beyond the policy
   * (`rotated`). When it was rotated within the grace window, saves nothing new and answers the
   * recorded successor (`grace`; only `along` is saved, when the recorded access token is gone).
   * Writes nothing when the result is `gone` or `reused`.
   * @param payload the successor's payload; its `grantId` names the grant of both tokens
   * @param along saved too when the result is `rotated` (issue #15: the refresh grant's access
   *   token in the same write as the rotation; on SQLite in the same transaction)
   * @throws the store's own error when it is unreachable (nothing was written)
   */
  rotateRefreshToken(
    oldId: string,
    newId: string,
    payload: AdapterPayload,
    expiresIn: number,
    policy: RotationPolicy,
    along?: SavedAlong,
  ): Promise<RotationOutcome>;
  /**
   * Only on a store whose writes wait for replica acknowledgments (Redis with
   * `REDIS_MIN_REPLICAS_ACKED`): the rotation of `oldId` to `successorId` (grant `grantId`) was
   * acknowledged, so its answer reached the client; the grace window (reuse clock) starts now.
   * Until then a rotated token is answered its recorded successor however late it is resent (its
   * answers were 503s): no length of replica outage signs a member out. No-op when nothing is marked.
   */
  acknowledgeRotation?(oldId: string, successorId: string, grantId: string): Promise<void>;
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
