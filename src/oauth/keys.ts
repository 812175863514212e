/**
 * Signing keys and cookie secrets (SPEC §2.2, DESIGN D6).
 *
 * - Production: the operator supplies the private ES256 JWK (SIGNING_KEY / SIGNING_KEY_FILE) and
 *   COOKIE_SECRETS; nothing is generated.
 * - Development/test: an ES256 key and cookie secrets are generated at first start and kept in the
 *   store, so a restart keeps id_tokens verifiable and browser sessions valid.
 */
import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from '../platform/schema.js';

/** A private signing JWK with `kid`, `alg: ES256`, `use: sig`. */
export type SigningJwk = JWK & { kid: string; alg: 'ES256'; use: 'sig'; d: string };

/** Generates a fresh P-256 key pair as a private JWK whose `kid` is its RFC 7638 thumbprint. */
export async function generateSigningKey(): Promise<SigningJwk> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { ...jwk, kid, alg: 'ES256', use: 'sig' } as SigningJwk;
}

/** Normalises an operator-supplied private JWK (adds `kid`, `alg`, `use` when absent). */
export async function normaliseSigningKey(jwk: Record<string, unknown>): Promise<SigningJwk> {
  const kid = typeof jwk.kid === 'string' ? jwk.kid : await calculateJwkThumbprint(jwk as JWK);
  return { ...(jwk as JWK), kid, alg: 'ES256', use: 'sig' } as SigningJwk;
}

/**
 * The signing keys to publish, the signing one first: the operator's keys when given (a JWK or a
 * JWK Set, DESIGN D6), else the stored keys (`active` first), generated on first start.
 */
export async function loadSigningKeys(
  db: Kysely<PlatformDatabase>,
  configured?: Array<Record<string, unknown>>,
  production = false,
): Promise<SigningJwk[]> {
  // Operator keys: the first signs (oidc-provider signs with the first key of the alg), all are published.
  if (configured) return Promise.all(configured.map((k) => normaliseSigningKey(k)));
  const rows = await db
    .selectFrom('signing_keys')
    .selectAll()
    .where('state', 'in', ['active', 'published', 'retired'])
    .orderBy('created_at', 'desc')
    .execute();
  if (rows.length > 0 || production) {
    // oidc-provider signs with the first key of a matching alg: put the active one first.
    rows.sort((a, b) => (a.state === 'active' ? -1 : b.state === 'active' ? 1 : 0));
    return rows.map((r) => JSON.parse(r.private_jwk) as SigningJwk);
  }
  // (Production generates nothing: `npm run keys -- add` + `activate` put the first key in the store.)
  // Processes starting together on one PostgreSQL must agree: the `settings` row claims the first
  // key atomically (insert-if-absent, in the same transaction as the key), everyone re-reads it.
  const key = await generateSigningKey();
  await db.transaction().execute(async (trx) => {
    const claim = await trx
      .insertInto('settings')
      .values({ key: 'first_signing_kid', value: key.kid })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(claim.numInsertedOrUpdatedRows ?? 0) === 1) {
      await trx
        .insertInto('signing_keys')
        .values({
          kid: key.kid,
          state: 'active',
          private_jwk: JSON.stringify(key),
          created_at: new Date().toISOString(),
        })
        .execute();
    }
  });
  const winner = await db
    .selectFrom('settings')
    .innerJoin('signing_keys', 'signing_keys.kid', 'settings.value')
    .select('signing_keys.private_jwk')
    .where('settings.key', '=', 'first_signing_kid')
    .executeTakeFirst();
  if (winner) return [JSON.parse(winner.private_jwk) as SigningJwk];
  // The claimed key was deleted since (by an operator): claim again with ours.
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('settings').set({ value: key.kid }).where('key', '=', 'first_signing_kid').execute();
    await trx
      .insertInto('signing_keys')
      .values({ kid: key.kid, state: 'active', private_jwk: JSON.stringify(key), created_at: new Date().toISOString() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  });
  return [key];
}

/** Cookie secrets: the configured ones, else generated once and kept in the store's settings. */
export async function loadCookieKeys(db: Kysely<PlatformDatabase>, configured?: string[]): Promise<string[]> {
  if (configured) return configured;
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'cookie_keys').executeTakeFirst();
  if (row) return JSON.parse(row.value) as string[];
  const keys = [randomBytes(32).toString('base64url')];
  await db
    .insertInto('settings')
    .values({ key: 'cookie_keys', value: JSON.stringify(keys) })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const stored = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'cookie_keys')
    .executeTakeFirstOrThrow();
  return JSON.parse(stored.value) as string[];
}
