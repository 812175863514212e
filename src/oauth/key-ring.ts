/**
 * The signing keys one process uses, re-read from the platform store every `refreshSeconds`
 * (DESIGN D6, key-rotation.ts), so a key added or activated by `npm run keys` reaches every
 * process without a restart.
 *
 * oidc-provider holds its keys from construction; it signs through one `ExternalSigningKey`
 * (`features.externalSigningSupport`) whose `kid` and key follow the ring's active key. `sign`
 * reads the `kid` from the protected header it is given, so a token is always signed by the key
 * its header names, even if the active key changed in between. JWKS (`/.well-known/jwks.json`) is
 * served from the ring: published, active and still-needed retired keys, with
 * `Cache-Control: public, max-age=<jwksMaxAge>` (the schedule relies on that bound).
 */
import { createPrivateKey, createPublicKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import type { Context } from 'koa';
import type { Kysely } from 'kysely';
import { ExternalSigningKey } from 'oidc-provider';
import type { Config } from '../config.js';
import type { PlatformDatabase } from '../platform/schema.js';
import { isPublished, SigningKeyStore, type KeySchedule, type StoredKey } from './key-rotation.js';
import { loadSigningKeys, type SigningJwk } from './keys.js';

/** Public JWK members published in JWKS (RFC 7517). */
function publicJwk(key: StoredKey) {
  const { kty, crv, x, y, kid, alg, use } = key.jwk;
  return { kty, crv, x, y, kid, alg, use };
}

/** The ring of one process. `refresh()` re-reads the store; `start()` does so on a timer. */
export class KeyRing {
  private keys: StoredKey[] = [];
  private objects = new Map<string, KeyObject>();
  private timer?: NodeJS.Timeout;
  /** The key oidc-provider signs with (put it in `jwks.keys`). */
  readonly signer: RingSigningKey;

  constructor(
    private readonly store: SigningKeyStore,
    readonly schedule: KeySchedule,
    private readonly clock: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.signer = new RingSigningKey(this);
  }

  /** Re-reads the keys. Keeps the previous ones when the store does not answer. */
  async refresh(): Promise<void> {
    const keys = await this.store.list();
    for (const k of keys)
      if (!this.objects.has(k.kid)) this.objects.set(k.kid, createPrivateKey({ key: k.jwk, format: 'jwk' }));
    this.keys = keys;
  }

  /** Refreshes every `refreshSeconds` (unref'd timer); errors keep the last keys. */
  start(onError: (err: unknown) => void): void {
    this.timer = setInterval(() => this.refresh().catch(onError), this.schedule.refreshSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Every stored key, as last read. */
  all(): readonly StoredKey[] {
    return this.keys;
  }

  /** The active key, if any. */
  active(): StoredKey | undefined {
    return this.keys.find((k) => k.state === 'active');
  }

  /** The private key object of `kid`. @throws when the ring does not hold it */
  privateKey(kid: string): KeyObject {
    const key = this.objects.get(kid);
    if (!key) throw new Error(`signing key ${kid} is not in the key ring`);
    return key;
  }

  /** The JWK Set to publish now. */
  jwks(): { keys: ReturnType<typeof publicJwk>[] } {
    const now = this.clock();
    return { keys: this.keys.filter((k) => isPublished(k, now, this.schedule)).map(publicJwk) };
  }

  /** Koa handler of the JWKS route. */
  readonly jwksHandler = (ctx: Context): void => {
    ctx.set('Cache-Control', `public, max-age=${this.schedule.jwksMaxAge}`);
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.type = 'application/jwk-set+json; charset=utf-8';
    ctx.body = this.jwks();
  };
}

/** oidc-provider's signing key, following the ring's active key. */
export class RingSigningKey extends ExternalSigningKey {
  constructor(private readonly ring: KeyRing) {
    super();
  }

  override get kid(): string {
    return this.ring.active()?.kid ?? 'no-active-key';
  }

  override set kid(_value: string) {
    // oidc-provider assigns `kid ??= thumbprint`; ours is the active key's.
  }

  override get alg(): string {
    return 'ES256';
  }

  override set alg(_value: string) {}

  /** The active key's public key (oidc-provider reads kty/crv/x/y from it). */
  override keyObject(): KeyObject {
    const active = this.ring.active() ?? this.ring.all()[0];
    if (!active) throw new Error('no signing key in the store');
    return createPublicKey(this.ring.privateKey(active.kid));
  }

  /** ES256 over `data` (the JWS signing input) with the key its protected header names. */
  override async sign(data: Buffer): Promise<Buffer> {
    const header = JSON.parse(
      Buffer.from(data.subarray(0, data.indexOf(0x2e)).toString(), 'base64url').toString('utf8'),
    ) as { kid?: string };
    if (!header.kid) throw new Error('JWS header without kid');
    return cryptoSign('sha256', data, { key: this.ring.privateKey(header.kid), dsaEncoding: 'ieee-p1363' });
  }
}

/** What the provider is built with: the static operator keys, or the ring's signer. */
export interface SigningSetup {
  /** `jwks.keys` of oidc-provider. */
  keys: Array<SigningJwk | ExternalSigningKey>;
  /** The store-backed ring; undefined with SIGNING_KEY(_FILE). */
  ring?: KeyRing;
  /** True while id_tokens may be signed (an active key, ID_TOKEN_SIGNING=active). */
  signingActive: () => boolean;
}

/**
 * SIGNING_KEY(_FILE) given: those keys, fixed for the process (the first signs; rotate them by
 * the JWK Set procedure of docs/operator-guide.md). Otherwise: the store's keys through a
 * `KeyRing` (a first active key is generated in an empty store, as before).
 */
export async function openSigning(
  db: Kysely<PlatformDatabase>,
  config: Pick<Config, 'signingKeys' | 'idTokenSigning' | 'keys' | 'ttl' | 'mode'>,
  onError: (err: unknown) => void,
): Promise<SigningSetup> {
  const keys = await loadSigningKeys(db, config.signingKeys, config.mode === 'production');
  const configuredActive = config.idTokenSigning === 'active';
  if (config.signingKeys) return { keys, signingActive: () => configuredActive };
  const schedule: KeySchedule = { ...config.keys, idTokenTtl: config.ttl.idToken };
  const ring = new KeyRing(new SigningKeyStore(db, schedule), schedule);
  await ring.refresh();
  if (keys.length === 0) {
    throw new Error(
      'SIGNING_KEYS=store: the store holds no signing key; run `npm run keys -- add`, then `npm run keys -- activate <kid>`',
    );
  }
  ring.start(onError);
  return { keys: [ring.signer], ring, signingActive: () => configuredActive && ring.active() !== undefined };
}
