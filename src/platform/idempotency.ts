/**
 * Stored answers of creating requests sent with an `Idempotency-Key` (draft-ietf-httpapi-
 * idempotency-key-header): the same key with the same request gets the first answer again; the same
 * key with another request is refused. Kept in the platform store so that every process behind a
 * load balancer agrees; rows older than `ttlMs` are forgotten. Knows nothing of HTTP beyond the
 * stored status number.
 */
import type { Kysely } from 'kysely';
import { PlatformError } from './errors.js';

/** Table `idempotency_keys` (migration `0004_admin_api`). */
export interface IdempotencyTable {
  site_id: string;
  /** `<client id> <user id> <operation id> <caller's key>` (see {@link IdempotencyKeys}). */
  key: string;
  /** SHA-256 of the request (method, path, body), hex. */
  fingerprint: string;
  /** 0 while the first request runs. */
  status: number;
  /** JSON of the answer; '' while pending. */
  response: string;
  location: string | null;
  created_at: string;
}

/** A remembered answer. */
export interface StoredAnswer {
  status: number;
  body: unknown;
  location: string | null;
}

/**
 * Who sent a key: the site, the OAuth client and the user of the token (issue #25 finding 16).
 * A key is remembered per caller: another client or another operator of the same site sending the
 * same key gets their own answer, never the first caller's.
 */
export interface KeyOwner {
  siteId: string;
  clientId: string;
  userId: string;
}

/** The stored key of `owner`'s `key` (client and user ids never contain a space). */
const storedKey = (owner: KeyOwner, key: string): string => `${owner.clientId} ${owner.userId} ${key}`;

export class IdempotencyKeys {
  constructor(
    private readonly db: Kysely<{ idempotency_keys: IdempotencyTable }>,
    private readonly ttlMs = 24 * 3600 * 1000,
  ) {}

  /**
   * Claims a key for a new request, or returns the stored answer of an earlier identical one.
   * @returns `undefined` when claimed (run the request, then `complete` or `release`)
   * @throws PlatformError `conflict` (reason `idempotency_key_in_use`) while the first request still
   *   runs, `invalid` (reason `idempotency_key_reused`) when the key came with another request
   */
  async claim(
    owner: KeyOwner,
    callerKey: string,
    fingerprint: string,
    now = new Date(),
  ): Promise<StoredAnswer | undefined> {
    const siteId = owner.siteId;
    const key = storedKey(owner, callerKey);
    await this.db
      .deleteFrom('idempotency_keys')
      .where('created_at', '<', new Date(now.getTime() - this.ttlMs).toISOString())
      .execute();
    const inserted = await this.db
      .insertInto('idempotency_keys')
      .values({
        site_id: siteId,
        key,
        fingerprint,
        status: 0,
        response: '',
        location: null,
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.columns(['site_id', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return undefined;
    const row = await this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) return this.claim(owner, callerKey, fingerprint, now);
    if (row.fingerprint !== fingerprint) {
      throw new PlatformError('invalid', 'this Idempotency-Key was used with a different request; use a new key', {
        reason: 'idempotency_key_reused',
      });
    }
    if (row.status === 0)
      throw new PlatformError(
        'conflict',
        'a request with this Idempotency-Key is still being processed; retry shortly',
        { reason: 'idempotency_key_in_use' },
      );
    return { status: row.status, body: row.response ? JSON.parse(row.response) : null, location: row.location };
  }

  /** Stores the answer of a claimed key. */
  async complete(owner: KeyOwner, callerKey: string, answer: StoredAnswer): Promise<void> {
    const siteId = owner.siteId;
    const key = storedKey(owner, callerKey);
    await this.db
      .updateTable('idempotency_keys')
      .set({ status: answer.status, response: JSON.stringify(answer.body ?? null), location: answer.location })
      .where('site_id', '=', siteId)
      .where('key', '=', key)
      .execute();
  }

  /** Forgets a claimed key whose request failed, so that a retry runs again. */
  async release(owner: KeyOwner, callerKey: string): Promise<void> {
    const siteId = owner.siteId;
    const key = storedKey(owner, callerKey);
    await this.db
      .deleteFrom('idempotency_keys')
      .where('site_id', '=', siteId)
      .where('key', '=', key)
      .where('status', '=', 0)
      .execute();
  }
}
