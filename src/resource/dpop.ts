/**
 * DPoP proofs at the protected resources (RFC 9449 §7, DESIGN D15): UserInfo, `/account/graphql`,
 * `/mcp` and `/api/v1` accept `Authorization: DPoP <access token>` with a `DPoP` proof header. The
 * token endpoint's proofs are oidc-provider's (`features.dPoP`, src/oauth/provider.ts); this
 * module checks the resource side with jose, in two steps:
 *
 * 1. `verify` (before the token is looked up, no store access): one `DPoP` header, a JWS of type
 *    `dpop+jwt` signed with an accepted algorithm by the public key of its `jwk` header (§4.2,
 *    §4.3 checks 1–7), `htm` = the request method, `htu` = the request URL built from BASE_URL
 *    (never the Host header), compared after RFC 3986 §6.2.2/§6.2.3 normalisation without query
 *    and fragment (§4.3 check 9), `iat` within `DPOP_IAT_WINDOW_SECONDS` of the clock (§11.1),
 *    `ath` = the token's SHA-256 (§4.3 check 12, §7), the server nonce when `DPOP_NONCES=true`
 *    (§9), and the MCP profile's `content_digest` claim when present. It answers the key's
 *    thumbprint (RFC 7638) for the caller to compare with the token's `cnf.jkt` (§6.1).
 * 2. `remember` (once the token is bound to that key): the proof's `jti` is recorded in the shared
 *    store for twice the `iat` window; a second use anywhere is a replay (§11.1).
 *
 * Cost over a Bearer request: one signature verification (step 1) and one store write (step 2).
 */
import { createHash, hkdfSync } from 'node:crypto';
import { EmbeddedJWK, jwtVerify, type JWTPayload, type JWK } from 'jose';
import type { Context } from 'koa';
import { DPOP_IAT_WINDOW_SECONDS, DPOP_SIGNING_ALGS, type ProofReplay } from '../domain/dpop.js';
import { dpopChallenge } from '../http/challenge.js';
import type { HttpError } from '../errors/catalogue.js';

/** What a verified proof tells the caller. */
export interface VerifiedProof {
  /** RFC 7638 SHA-256 thumbprint of the proof's key, base64url: compared with the token's `cnf.jkt`. */
  jkt: string;
  /** The proof's `jti`, recorded by `remember` once the token is found bound to `jkt`. */
  jti: string;
}

/** How a refusal is worded: the scope to name and the docs page (DESIGN D4, as every challenge). */
export interface ProofRefusal {
  scope: string;
  errorUri?: string;
}

/**
 * Server nonces of RFC 9449 §8/§9, the same values as oidc-provider's token endpoint derives from
 * the same secret (HKDF-SHA256 of the 60-second step, info `DPoP`): one origin, one nonce, so a
 * nonce a client learnt at the token endpoint is good at the resources too. A nonce is valid for
 * the steps two before to two after the current one; the one handed out is the next step's.
 */
export class DpopNonces {
  static readonly STEP_SECONDS = 60;
  readonly #secret: Buffer;
  #step = Number.NaN;
  #window: string[] = [];

  /** @param secret 32 bytes, the token endpoint's `features.dPoP.nonceSecret` */
  constructor(secret: Buffer) {
    if (secret.byteLength !== 32) throw new TypeError('DPoP nonce secret must be 32 bytes');
    this.#secret = secret;
  }

  #values(): string[] {
    const step = Math.floor(Date.now() / 1000 / DpopNonces.STEP_SECONDS);
    if (step !== this.#step) {
      this.#step = step;
      this.#window = [step - 2, step - 1, step, step + 1, step + 2].map((s) => {
        const salt = Buffer.alloc(8);
        salt.writeBigUInt64BE(BigInt(s));
        return Buffer.from(hkdfSync('sha256', this.#secret, salt, 'DPoP', 32)).toString('base64url');
      });
    }
    return this.#window;
  }

  /** The nonce to hand out (`DPoP-Nonce`). */
  next(): string {
    return this.#values()[3]!;
  }

  /** Is `nonce` one of the current window's? */
  check(nonce: string): boolean {
    return this.#values().includes(nonce);
  }
}

/** The RFC 9530 digest a `content_digest` claim names, e.g. `sha-256=:<base64>:`. */
function contentDigestMatches(claim: string, body: string): boolean {
  const m = /^(sha-256|sha-512)=:([A-Za-z0-9+/]+={0,2}):$/.exec(claim.trim());
  if (!m) return false;
  const algorithm = m[1] === 'sha-256' ? 'sha256' : 'sha512';
  return createHash(algorithm).update(body).digest('base64') === m[2];
}

/**
 * RFC 7638 SHA-256 thumbprint, base64url, of an EC or OKP public key (the key types of
 * `DPOP_SIGNING_ALGS`): the required members in lexicographic order. Computed synchronously: jose's
 * `calculateJwkThumbprint` goes through WebCrypto's asynchronous digest, a third of a proof's cost.
 * @throws TypeError for another key type (jose has already refused one by then)
 */
export function jwkThumbprint(jwk: JWK): string {
  const members =
    jwk.kty === 'EC'
      ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
      : jwk.kty === 'OKP'
        ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x }
        : undefined;
  if (!members) throw new TypeError(`no thumbprint for key type ${String(jwk.kty)}`);
  return createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}

/** `url` without query and fragment, normalised (RFC 3986 §6.2.2, §6.2.3 as WHATWG URL does); undefined when not a URL. */
function normalisedTarget(url: string): string | undefined {
  const parsed = URL.parse(url);
  if (!parsed) return undefined;
  parsed.search = '';
  parsed.hash = '';
  return parsed.href;
}

/** The resource side's DPoP checks, built once per process. */
export class DpopProofs {
  readonly #baseUrl: string;
  readonly #replay: ProofReplay;
  readonly #nonces: DpopNonces | undefined;

  /**
   * @param baseUrl BASE_URL: every `htu` is compared with a URL on this origin
   * @param replay the shared store of seen proofs
   * @param nonces server nonces, when `DPOP_NONCES=true`
   */
  constructor(baseUrl: string, replay: ProofReplay, nonces?: DpopNonces) {
    this.#baseUrl = baseUrl;
    this.#replay = replay;
    this.#nonces = nonces;
  }

  /**
   * RFC 9449 §4.3 and §7.1 for a request that sent `Authorization: DPoP <token>`.
   * @param token the access token of the Authorization header (its hash must be `ath`)
   * @param options.body the raw request body, checked against a `content_digest` claim (`/mcp`)
   * @throws HttpError 401 `invalid_dpop_proof` (no, several or a bad proof, another method, URL
   *   or token, a stale `iat`, a wrong digest), `use_dpop_nonce` + `DPoP-Nonce` (nonce missing or
   *   stale while nonces are on)
   */
  async verify(
    ctx: Context,
    token: string,
    refusal: ProofRefusal,
    options: { body?: string } = {},
  ): Promise<VerifiedProof> {
    const refuse = (description: string): HttpError =>
      dpopChallenge(this.#baseUrl, 'invalid_dpop_proof', description, refusal.scope, refusal.errorUri);
    const header = ctx.headers.dpop;
    if (typeof header !== 'string' || header === '') {
      throw refuse(
        'Authorization: DPoP needs a DPoP header: one proof JWT (RFC 9449 §4) signed by the key the token is bound to',
      );
    }
    let payload: JWTPayload;
    let jwk: JWK;
    try {
      const verified = await jwtVerify(header, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: [...DPOP_SIGNING_ALGS] });
      payload = verified.payload;
      jwk = verified.protectedHeader.jwk as JWK;
    } catch {
      throw refuse(
        `the DPoP proof is not a JWT of typ dpop+jwt signed (${DPOP_SIGNING_ALGS.join(', ')}) by the public key of its jwk header`,
      );
    }
    if (typeof payload.jti !== 'string' || payload.jti === '' || payload.jti.length > 256) {
      throw refuse('the DPoP proof needs a jti: a unique string of at most 256 characters');
    }
    if (payload.htm !== ctx.method) throw refuse(`the DPoP proof is for another method: htm must be ${ctx.method}`);
    const expected = normalisedTarget(`${this.#baseUrl}${ctx.path}`);
    if (typeof payload.htu !== 'string' || normalisedTarget(payload.htu) !== expected) {
      throw refuse(`the DPoP proof is for another URL: htu must be ${expected}`);
    }
    const now = Math.floor(Date.now() / 1000);
    if (typeof payload.iat !== 'number' || Math.abs(now - payload.iat) > DPOP_IAT_WINDOW_SECONDS) {
      throw refuse(`the DPoP proof's iat must be within ${DPOP_IAT_WINDOW_SECONDS} s of the server's clock`);
    }
    if (payload.ath !== createHash('sha256').update(token).digest('base64url')) {
      throw refuse('the DPoP proof is for another access token: ath must be the SHA-256 of this token, base64url');
    }
    if (this.#nonces && (typeof payload.nonce !== 'string' || !this.#nonces.check(payload.nonce))) {
      throw dpopChallenge(
        this.#baseUrl,
        'use_dpop_nonce',
        'this server requires a DPoP nonce: sign a new proof whose nonce is the DPoP-Nonce header of this answer',
        refusal.scope,
        refusal.errorUri,
        this.#nonces.next(),
      );
    }
    const digest = (payload as { content_digest?: unknown }).content_digest;
    if (digest !== undefined && (typeof digest !== 'string' || !contentDigestMatches(digest, options.body ?? ''))) {
      throw refuse('the DPoP proof is for another body: content_digest must be the sha-256 digest of this body');
    }
    return { jkt: jwkThumbprint(jwk), jti: payload.jti };
  }

  /**
   * Records an accepted proof (RFC 9449 §11.1); call it once the token is known to be bound to
   * the proof's key, so that refused requests write nothing.
   * @throws HttpError 401 `invalid_dpop_proof` when the proof was used before (at any process)
   */
  async remember(proof: VerifiedProof, refusal: ProofRefusal): Promise<void> {
    const id = createHash('sha256').update(`${proof.jkt}:${proof.jti}`).digest('base64url');
    if (!(await this.#replay.firstUse(id, 2 * DPOP_IAT_WINDOW_SECONDS))) {
      throw dpopChallenge(
        this.#baseUrl,
        'invalid_dpop_proof',
        'the DPoP proof was used before: sign a new proof (a new jti) for every request',
        refusal.scope,
        refusal.errorUri,
      );
    }
  }
}
