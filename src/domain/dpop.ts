/**
 * DPoP vocabulary shared by the authorization server and the resource surfaces (RFC 9449,
 * DESIGN D15): the proof algorithms both accept, the proof's freshness window, and the policy
 * that decides which clients must bind their tokens.
 */
import { type ClientKind, kindOf } from './client-kinds.js';

/**
 * JWS algorithms accepted in a DPoP proof (RFC 9449 §4.2 `alg`), announced as
 * `dpop_signing_alg_values_supported` (§5.1) and in every `DPoP algs="…"` challenge (§7.1).
 * Asymmetric only; `Ed25519` is the fully-specified name of `EdDSA` over Ed25519 (RFC 9864).
 */
export const DPOP_SIGNING_ALGS = ['ES256', 'EdDSA', 'Ed25519'] as const;

/**
 * How far a proof's `iat` may be from the server clock, in seconds, either way (RFC 9449 §11.1).
 * The same window as oidc-provider's token endpoint (5 minutes); a proof's `jti` is remembered
 * for twice this long, so a replay is caught for as long as the proof could be accepted.
 */
export const DPOP_IAT_WINDOW_SECONDS = 300;

/** RFC 9449 §5.2 client metadata: the client's access tokens must be DPoP-bound. */
export const DPOP_BOUND_PROPERTY = 'dpop_bound_access_tokens';

/**
 * Marks a client as one whose token requests must carry a proof when its kind is listed in
 * `DPOP_REQUIRED` (DESIGN D15); a client that already asks for it (RFC 9449 §5.2, or a member app
 * switched on by an operator) keeps it. Mutates `metadata` in memory: call it when a client is
 * instantiated for use, not when it is registered, so that the stored record keeps what the
 * client asked for and the setting applies (and stops applying) to every client at once.
 * @param metadata client metadata as oidc-provider instantiates it (its kind already set)
 * @param requiredKinds the `DPOP_REQUIRED` kinds
 */
export function requireDpopByKind(metadata: Record<string, unknown>, requiredKinds: readonly ClientKind[]): void {
  if (requiredKinds.length > 0 && requiredKinds.includes(kindOf(metadata))) metadata[DPOP_BOUND_PROPERTY] = true;
}

/**
 * The proofs already seen (RFC 9449 §11.1): shared by every process through the OIDC-state store
 * (Redis when configured, else the SQLite file), so a proof replayed at another process is caught.
 */
export interface ProofReplay {
  /**
   * Records `id` as used for `ttlSeconds`, atomically: true the first time, false when it was
   * already recorded and has not expired. One store write.
   * @throws when the store is unreachable (the request answers 503, never accepts the proof)
   */
  firstUse(id: string, ttlSeconds: number): Promise<boolean>;
}
