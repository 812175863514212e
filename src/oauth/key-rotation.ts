/**
 * Signing-key rotation (DESIGN D6): the states, the safe schedule and the store of the keys.
 *
 * States: `published` (in JWKS only) → `active` (signs id_tokens; one at a time) → `retired` (in
 * JWKS until the last id_token it signed has expired, then out of it). The keys live in the
 * platform store (`signing_keys`, SQLite or PostgreSQL), so every process agrees; each process
 * re-reads them every `refreshSeconds` (key-ring.ts).
 *
 * The schedule, in seconds (all from configuration, docs/operator-guide.md "Rotating keys"):
 * - a published key may be activated once every client's cached JWKS holds it:
 *   `published_at + jwksMaxAge + refreshSeconds` (each process publishes it within
 *   `refreshSeconds`; a client caches the JWKS for at most `jwksMaxAge`, its Cache-Control);
 * - a key stops signing everywhere within `refreshSeconds` of its retirement (`signed_until`),
 *   and stays in JWKS until `signed_until + idTokenTtl`: the last id_token it signed has expired.
 *
 * Every transition is one pure decision (`decide*`, tested row by row) applied in one transaction.
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from '../platform/schema.js';
import { generateSigningKey, type SigningJwk } from './keys.js';

export type KeyState = 'published' | 'active' | 'retired';

/** One stored key; instants are epoch seconds. */
export interface StoredKey {
  kid: string;
  state: KeyState;
  jwk: SigningJwk;
  publishedAt: number;
  activatedAt?: number;
  /** Set on retirement: no process signs with it after this instant. */
  signedUntil?: number;
}

/** The schedule, in seconds. */
export interface KeySchedule {
  /** JWKS `Cache-Control: max-age`. */
  jwksMaxAge: number;
  /** How often every process re-reads the keys. */
  refreshSeconds: number;
  /** id_token lifetime (`token_ttl.id_token`). */
  idTokenTtl: number;
}

/** A refused order, with the reason shown to the operator. */
export class KeyRotationError extends Error {
  override name = 'KeyRotationError';
}

/** Earliest instant a published key may sign. */
export function activatableAt(key: StoredKey, s: KeySchedule): number {
  return key.publishedAt + s.jwksMaxAge + s.refreshSeconds;
}

/** Instant a retired key leaves JWKS (its last id_token has expired). */
export function unpublishedAt(key: StoredKey, s: KeySchedule): number {
  return (key.signedUntil ?? key.publishedAt) + s.idTokenTtl;
}

/** True while the key belongs in JWKS. */
export function isPublished(key: StoredKey, now: number, s: KeySchedule): boolean {
  return key.state !== 'retired' || (key.activatedAt !== undefined && now < unpublishedAt(key, s));
}

const iso = (t: number) => new Date(t * 1000).toISOString();

/**
 * `activate <kid>`: the key must be published, and long enough for every cached JWKS to hold it.
 * @returns the kid of the key it replaces (to retire), if any
 * @throws KeyRotationError with the reason
 */
export function decideActivate(keys: StoredKey[], kid: string, now: number, s: KeySchedule): string | undefined {
  const key = keys.find((k) => k.kid === kid);
  if (!key) throw new KeyRotationError(`no key ${kid}`);
  if (key.state === 'active') throw new KeyRotationError(`${kid} is already active`);
  if (key.state === 'retired')
    throw new KeyRotationError(`${kid} is retired; add a new key instead (a retired key never signs again)`);
  const at = activatableAt(key, s);
  // The very first key may sign at once: no client holds an id_token or a JWKS of ours yet.
  const first = keys.every((k) => k.activatedAt === undefined);
  if (now < at && !first) {
    throw new KeyRotationError(
      `${kid} was published at ${iso(key.publishedAt)}; clients may cache the JWKS for ${s.jwksMaxAge} s (+ ${s.refreshSeconds} s until every process publishes it), so it may sign from ${iso(at)} (in ${at - now} s)`,
    );
  }
  return keys.find((k) => k.state === 'active')?.kid;
}

/**
 * `retire <kid>`: a published key (never signed) or the active one. Retiring the active key
 * without activating another leaves no active key: id_tokens stop (DESIGN D6), so it is refused
 * unless `allowNoActive`.
 * @throws KeyRotationError with the reason
 */
export function decideRetire(keys: StoredKey[], kid: string, allowNoActive = false): void {
  const key = keys.find((k) => k.kid === kid);
  if (!key) throw new KeyRotationError(`no key ${kid}`);
  if (key.state === 'retired') throw new KeyRotationError(`${kid} is already retired`);
  if (key.state === 'active' && !allowNoActive) {
    throw new KeyRotationError(
      `${kid} is the active key: activate its successor instead (that retires it), or pass --no-active to stop issuing id_tokens`,
    );
  }
}

interface Row {
  kid: string;
  state: string;
  private_jwk: string;
  created_at: string;
  published_at: string | null;
  activated_at: string | null;
  signed_until: string | null;
}

const seconds = (s: string | null | undefined) => (s ? Math.floor(Date.parse(s) / 1000) : undefined);

function toKey(r: Row): StoredKey {
  return {
    kid: r.kid,
    state: r.state as KeyState,
    jwk: JSON.parse(r.private_jwk) as SigningJwk,
    publishedAt: seconds(r.published_at) ?? seconds(r.created_at)!,
    activatedAt: seconds(r.activated_at) ?? (r.state !== 'published' ? seconds(r.created_at) : undefined),
    signedUntil: seconds(r.signed_until),
  };
}

/** The keys in the platform store (`signing_keys`), moved through the states in transactions. */
export class SigningKeyStore {
  constructor(
    private readonly db: Kysely<PlatformDatabase>,
    private readonly schedule: KeySchedule,
    private readonly clock: () => number = () => Math.floor(Date.now() / 1000),
    /** PostgreSQL: lock the rows of a transition (`SELECT … FOR UPDATE`); SQLite serialises writers itself. */
    private readonly lockRows = false,
  ) {}

  /** Every stored key, oldest first. */
  async list(): Promise<StoredKey[]> {
    const rows = (await this.db
      .selectFrom('signing_keys')
      .selectAll()
      .orderBy('created_at')
      .orderBy('kid')
      .execute()) as Row[];
    return rows.map(toKey);
  }

  /** `add`: a new ES256 key in state `published`. @returns the key */
  async add(): Promise<StoredKey> {
    const jwk = await generateSigningKey();
    const now = new Date(this.clock() * 1000).toISOString();
    await this.db
      .insertInto('signing_keys')
      .values({
        kid: jwk.kid,
        state: 'published',
        private_jwk: JSON.stringify(jwk),
        created_at: now,
        published_at: now,
      })
      .execute();
    return (await this.list()).find((k) => k.kid === jwk.kid)!;
  }

  /** `activate <kid>`; the previous active key is retired. @throws KeyRotationError */
  async activate(kid: string): Promise<{ retired?: string }> {
    return this.db.transaction().execute(async (trx) => {
      const keys = (
        (await trx
          .selectFrom('signing_keys')
          .selectAll()
          .$if(this.lockRows, (q) => q.forUpdate())
          .execute()) as Row[]
      ).map(toKey);
      const now = this.clock();
      const previous = decideActivate(keys, kid, now, this.schedule);
      if (previous) await this.retireRow(trx, previous, now);
      await trx
        .updateTable('signing_keys')
        .set({ state: 'active', activated_at: new Date(now * 1000).toISOString() })
        .where('kid', '=', kid)
        .execute();
      return { retired: previous };
    });
  }

  /** `retire <kid>`. @throws KeyRotationError */
  async retire(kid: string, allowNoActive = false): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const keys = (
        (await trx
          .selectFrom('signing_keys')
          .selectAll()
          .$if(this.lockRows, (q) => q.forUpdate())
          .execute()) as Row[]
      ).map(toKey);
      decideRetire(keys, kid, allowNoActive);
      await this.retireRow(trx, kid, this.clock());
    });
  }

  private async retireRow(trx: Kysely<PlatformDatabase>, kid: string, now: number): Promise<void> {
    // Other processes may sign with it until their next refresh.
    const until = new Date((now + this.schedule.refreshSeconds) * 1000).toISOString();
    await trx
      .updateTable('signing_keys')
      .set({ state: 'retired', signed_until: until })
      .where('kid', '=', kid)
      .execute();
  }
}
