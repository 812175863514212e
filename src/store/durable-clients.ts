/**
 * Client registrations are durable in the platform store (issue #28, DESIGN D12): member clients,
 * dynamically registered clients (loopback, confidential, vendor registrations) live in the
 * platform table `oauth_clients` (SQLite or PostgreSQL), which backups cover. Redis holds only
 * state a member can recover by signing in again: an empty Redis costs sign-ins, never a
 * registration. (Client ID Metadata Documents are not stored here: they stay a cache, fetched again.)
 *
 * {@link durableClients} wraps the OIDC adapter class: model `Client` is read from and written to
 * the platform table; every other model passes through. The inner (Redis) adapter keeps a copy of
 * each client, written after the platform row and deleted with it, that is read only while the
 * platform store is unreachable (so a PostgreSQL restart does not stop token refreshes), and that
 * a client registered before this table existed is imported from at its first lookup. The copy is
 * written again when a lookup finds it missing (Redis emptied or restarted without persistence;
 * checked at most every {@link COPY_CHECK_MS} per client and process). A lookup that finds neither
 * the platform store nor a copy rethrows the platform store's outage: a 503 with `Retry-After`,
 * never `invalid_client`, which a client reads as "my registration is gone".
 *
 * Row: `client_id`, `metadata` (the adapter payload, JSON), `expires_at` (epoch seconds, null =
 * never: a loopback client's 24 h "unused" TTL), `updated_at` (ISO 8601).
 */
import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { PlatformDatabase } from '../platform/schema.js';
import type { RefreshRotation } from '../../adapters/rotation.js';
import { isStoreOutage } from '../errors/outage.js';
import { PreparedQuery } from '../platform/prepared.js';

type AdapterClass = new (name: string) => Adapter & RefreshRotation;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** How often one process checks that a client's Redis copy exists, per client, ms. */
export const COPY_CHECK_MS = 10_000;

/** A stored client: its metadata and when its registration lapses (epoch seconds, null = never). */
export interface StoredClient {
  payload: AdapterPayload;
  expiresAt: number | null;
}

/**
 * The client registrations in the platform store, as an oidc-provider adapter of model `Client`
 * (oidc-provider 9 adapter interface; only `upsert`, `find` and `destroy` apply to clients).
 */
export class PlatformClients {
  constructor(private readonly db: Kysely<PlatformDatabase>) {}

  /**
   * One client's row: every token request reads it (issue #29: compiled once; on the embedded
   * store it runs on a cached statement without Kysely's connection hand-off, src/platform/prepared.ts).
   */
  private readonly findClient = new PreparedQuery(1, (clientId: string) =>
    this.db.selectFrom('oauth_clients').select(['metadata', 'expires_at']).where('client_id', '=', clientId),
  );

  /**
   * The stored metadata of `clientId`, or undefined when there is none or it expired.
   * @throws the platform store's error (a store outage when it is unreachable)
   */
  async find(clientId: string): Promise<AdapterPayload | undefined> {
    return (await this.findStored(clientId))?.payload;
  }

  /**
   * {@link find} with the registration's expiry.
   * @throws the platform store's error (a store outage when it is unreachable)
   */
  async findStored(clientId: string): Promise<StoredClient | undefined> {
    const [row] = await this.findClient.rows(this.db, clientId);
    if (!row) return undefined;
    const expiresAt = row.expires_at === null ? null : Number(row.expires_at);
    if (expiresAt !== null && expiresAt <= nowSeconds()) return undefined;
    return { payload: JSON.parse(row.metadata) as AdapterPayload, expiresAt };
  }

  /**
   * Creates or replaces a client; expired registrations of others are deleted on the way.
   * @param expiresIn seconds until the registration lapses; absent or ≤ 0 = never
   */
  async upsert(clientId: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = expiresIn && expiresIn > 0 ? nowSeconds() + Math.ceil(expiresIn) : null;
    const row = {
      client_id: clientId,
      metadata: JSON.stringify(payload),
      expires_at: expiresAt,
      updated_at: new Date().toISOString(),
    };
    await this.db
      .insertInto('oauth_clients')
      .values(row)
      .onConflict((oc) =>
        oc
          .column('client_id')
          .doUpdateSet({ metadata: row.metadata, expires_at: row.expires_at, updated_at: row.updated_at }),
      )
      .execute();
    await this.db
      .deleteFrom('oauth_clients')
      .where('expires_at', 'is not', null)
      .where('expires_at', '<=', nowSeconds())
      .execute();
  }

  /** Deletes a client (no error when there is none). */
  async destroy(clientId: string): Promise<void> {
    await this.db.deleteFrom('oauth_clients').where('client_id', '=', clientId).execute();
  }

  /** Number of stored (unexpired) clients (backup checks, tests). */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('oauth_clients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowSeconds())]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

/**
 * Wraps the OIDC adapter class so that model `Client` lives in the platform store (see the module
 * comment); other models are the inner adapter's.
 * @param Inner the OIDC-state adapter class (Redis)
 * @param db the platform store
 * @param onFallback told when a lookup was answered from the inner copy because the platform store
 *   was unreachable (logging, at most once per outage is the caller's business)
 */
export function durableClients(
  Inner: AdapterClass,
  db: Kysely<PlatformDatabase>,
  onFallback?: (err: unknown) => void,
): AdapterClass {
  const platform = new PlatformClients(db);
  /** Client id → when this process last saw (or rewrote) its copy, epoch ms. */
  const copyChecked = new Map<string, number>();
  return class DurableClients extends Inner {
    private readonly durable: boolean;
    constructor(name: string) {
      super(name);
      this.durable = name === 'Client';
    }

    override async find(id: string): Promise<AdapterPayload | undefined> {
      if (!this.durable) return (await super.find(id)) ?? undefined;
      let stored: StoredClient | undefined;
      try {
        stored = await platform.findStored(id);
      } catch (err) {
        // The platform store is unreachable: the copy kept beside the OIDC state answers meanwhile.
        if (!isStoreOutage(err)) throw err;
        onFallback?.(err);
        const copy = (await super.find(id)) ?? undefined;
        // No copy says nothing about the registration: the outage is the answer (503), not "unknown client".
        if (!copy) throw err;
        return copy;
      }
      if (stored) {
        await this.keepCopy(id, stored);
        return stored.payload;
      }
      // A client registered before issue #28 lives only in the inner store: make it durable now.
      const legacy = (await super.find(id).catch(() => undefined)) ?? undefined;
      if (legacy) await platform.upsert(id, legacy);
      return legacy;
    }

    /**
     * Writes the Redis copy of a durable client again when it is missing; a Redis fault is left to
     * the request's own Redis reads (the copy is a fallback, never a reason to fail a lookup).
     */
    private async keepCopy(id: string, stored: StoredClient): Promise<void> {
      const now = Date.now();
      if (now - (copyChecked.get(id) ?? 0) < COPY_CHECK_MS) return;
      try {
        if (!(await super.find(id))) {
          const expiresIn = stored.expiresAt === null ? undefined : stored.expiresAt - nowSeconds();
          if (expiresIn === undefined || expiresIn > 0) await super.upsert(id, stored.payload, expiresIn);
        }
        if (copyChecked.size >= 10_000) copyChecked.clear(); // bounded: one entry per client in use
        copyChecked.set(id, now);
      } catch {
        // Redis unreachable: checked again at the next lookup.
      }
    }

    override async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      if (!this.durable) return super.upsert(id, payload, expiresIn);
      copyChecked.delete(id);
      // The record first: once it is written the registration exists whatever happens to the copy.
      await platform.upsert(id, payload, expiresIn);
      await super.upsert(id, payload, expiresIn);
    }

    override async destroy(id: string): Promise<void> {
      if (!this.durable) return super.destroy(id);
      copyChecked.delete(id);
      // The copy first: should the record's deletion fail, the client still exists in both, and a
      // copy left without its record would be imported back by find() as a pre-#28 client.
      await super.destroy(id);
      await platform.destroy(id);
    }
  };
}
