/**
 * One-time links (DESIGN D11): a random token handed to a person once (printed by the first-run
 * command, shown to the operator, e-mailed when SMTP is configured) that lets them set their
 * password. Only the token's SHA-256 is stored; a link works once and for 24 hours.
 * Knows nothing of HTTP.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { hashPassword } from './passwords.js';
import { PlatformError } from './errors.js';

/** DESIGN D11: a one-time link is valid 24 h. */
export const ONE_TIME_LINK_TTL_SECONDS = 24 * 3600;

/** Shortest password accepted on the set-password page (NIST SP 800-63B §5.1.1.2 asks ≥ 8; we ask 12). */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;

const hashToken = (token: string): string => createHash('sha256').update(token).digest('base64url');

/**
 * DESIGN D5 (issue #25 findings 2c, 11): what every password set or reset does in its transaction.
 * Ends every other live link of the user (set-password links) and of the address (address links,
 * src/platform/address-links.ts), and stamps `users.sessions_valid_after` with `now` (epoch
 * milliseconds): every OpenID Provider session, web session, authorization code and refresh token of the
 * user begun before is refused from then on (`begunBeforeCutoff`, applied in src/oauth/provider.ts
 * and src/operator/session.ts). The grants themselves are
 * revoked by the caller (`Connections.revokeAllOf`), which needs the provider.
 */
export async function endEarlierSessions(
  // biome-ignore lint/suspicious/noExplicitAny: the callers' transactions are typed by their own table views
  trx: Transaction<PlatformDatabase> | Transaction<any>,
  userId: string,
  email: string,
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  const t = trx as Transaction<
    PlatformDatabase & { address_links: { email: string; used_at: string | null; expires_at: string } }
  >;
  await t
    .updateTable('one_time_links')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  await t
    .updateTable('address_links')
    .set({ used_at: at })
    .where('email', '=', email.toLowerCase())
    .where('used_at', 'is', null)
    .execute();
  await t.updateTable('users').set({ sessions_valid_after: now.getTime() }).where('id', '=', userId).execute();
}

/**
 * DESIGN D5: did something timed in epoch seconds (an OpenID Provider session's `loginTs`, a code's
 * or refresh token's `iat`) begin before the cut-off `endEarlierSessions` stamped (epoch ms)?
 * oidc-provider keeps those times in whole seconds, so within the cut-off's own second "before"
 * and "after" cannot be told apart: that whole second counts as before (a session begun in it is
 * ended), and the set-password answer waits for the second to end (`msUntilCutoffSecondEnds`),
 * so the user's own next sign-in always falls after it.
 * @param epochSeconds the time to judge
 * @param cutoffMs the user's `sessions_valid_after` (0: never set, nothing is before it)
 */
export function begunBeforeCutoff(epochSeconds: number, cutoffMs: number): boolean {
  return cutoffMs > 0 && epochSeconds <= Math.floor(cutoffMs / 1000);
}

/**
 * Milliseconds from `nowMs` until the second of the cut-off `cutoffMs` is over (0 when it is):
 * what the set-password answer waits (an async wait, the event loop is not held), so that no
 * session begun after the user saw it falls in the cut-off's second (`begunBeforeCutoff`).
 */
export function msUntilCutoffSecondEnds(cutoffMs: number, nowMs = Date.now()): number {
  return Math.max(0, (Math.floor(cutoffMs / 1000) + 1) * 1000 - nowMs);
}

const expired = () =>
  new PlatformError(
    'not_found',
    'This link has expired or was already used. Ask the site owner (or run `npm run admin -- owner reset-link`) for a new one.',
    { reason: 'unknown_or_used' },
  );

/** Issues and redeems set-password links. */
export class OneTimeLinks {
  constructor(private readonly db: Kysely<PlatformDatabase>) {}

  /**
   * Issues a set-password link token for a user (earlier unused links of that user stay valid until
   * one of them is used: using one ends the others, issue #25 finding 11).
   * @returns the token (43 base64url characters) and its expiry (ISO 8601 UTC)
   */
  async issue(userId: string, now = new Date()): Promise<{ token: string; expiresAt: string }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + ONE_TIME_LINK_TTL_SECONDS * 1000).toISOString();
    await this.db
      .insertInto('one_time_links')
      .values({
        token_hash: hashToken(token),
        user_id: userId,
        purpose: 'set_password',
        expires_at: expiresAt,
        used_at: null,
        created_at: now.toISOString(),
      })
      .execute();
    return { token, expiresAt };
  }

  /** The e-mail of the user a live (unused, unexpired) link belongs to; undefined otherwise. */
  async peek(token: string, now = new Date()): Promise<{ email: string } | undefined> {
    if (typeof token !== 'string' || token.length > 128) return undefined;
    const row = await this.db
      .selectFrom('one_time_links')
      .innerJoin('users', 'users.id', 'one_time_links.user_id')
      .select(['users.email as email'])
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
    return row ?? undefined;
  }

  /**
   * Uses a link: sets the user's password, marks the link used and ends the user's other links and
   * earlier sessions (`endEarlierSessions`), in one transaction.
   * @throws PlatformError `invalid` reason `weak_password` (length outside 12–1024), or `not_found`
   *   reason `unknown_or_used`; messages are worded for the person using the link
   * @returns the user's id and e-mail
   */
  async setPassword(token: string, password: string, now = new Date()): Promise<{ userId: string; email: string }> {
    if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
      throw new PlatformError('invalid', `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`, {
        reason: 'weak_password',
        field: 'password',
      });
    }
    const hash = await hashPassword(password);
    return this.db.transaction().execute(async (trx) => {
      const live = await trx
        .selectFrom('one_time_links')
        .select('user_id')
        .where('token_hash', '=', hashToken(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', now.toISOString())
        .executeTakeFirst();
      if (!live) throw expired();
      // The user's row first (a row lock on PostgreSQL): two links of one user used at once wait
      // for each other here instead of locking each other's link rows (no deadlock); the second
      // then finds its link ended by the first.
      const user = await trx
        .updateTable('users')
        .set({ password_hash: hash })
        .where('id', '=', live.user_id)
        .returning('email')
        .executeTakeFirst();
      const row = await trx
        .updateTable('one_time_links')
        .set({ used_at: now.toISOString() })
        .where('token_hash', '=', hashToken(token))
        .where('used_at', 'is', null)
        .returning('user_id')
        .executeTakeFirst();
      if (!row || !user) throw expired();
      await endEarlierSessions(trx, row.user_id, user.email, now);
      return { userId: row.user_id, email: user.email };
    });
  }
}
