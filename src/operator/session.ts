/**
 * The browser session of the operator area, `/account/connections` and `/` (issue 11; issue #25
 * finding 12): a server-side session. The cookie (`cg_web`: signed with the cookie keys, HttpOnly,
 * SameSite=Lax, Secure on https) holds only a random session id (32 bytes, base64url); the session
 * itself (user, start, expiry) lives in the OIDC-state store (SQLite or Redis, DESIGN D12: state a
 * member recovers by signing in again), under the SHA-256 of that id, as model `WebSession`.
 *
 * A session ends server-side, so a copied cookie stops working at once everywhere:
 * - on sign-out (`end`: the stored session is destroyed);
 * - on a password set or reset (DESIGN D5): `read` refuses a session begun before the user's
 *   `sessions_valid_after` (src/platform/one-time-links.ts `endEarlierSessions`);
 * - after 8 hours (the store's expiry).
 * Forms carry a CSRF token that is an HMAC of the session id (the interaction pages' CsrfTokens),
 * checked in constant time.
 *
 * Two releases serve side by side during a rolling upgrade or a rollback (DESIGN D12), and a
 * browser's requests alternate between them: each must read the other's session. So the cookie's
 * content and the stored record keep this shape; a release that changes either uses a new cookie
 * name (0.1.x kept `user|sid|expiry` in `cg_web`, and a fleet mixing it with 0.2.x sent people to
 * sign in on every other request: docs/deployment.md "Web sessions during a rollout").
 */
import { hash, randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Adapter } from 'oidc-provider';
import type { CsrfTokens } from '../http/csrf.js';

export const SESSION_COOKIE = 'cg_web';
/** Lifetime of a signed-in session: 8 hours. */
export const SESSION_TTL_SECONDS = 8 * 3600;
/** The store model of web sessions. */
export const WEB_SESSION_MODEL = 'WebSession';

/** A signed-in person. */
export interface WebSession {
  userId: string;
  /** The session id of the cookie (the CSRF subject). */
  sid: string;
}

/** What a web session checks of its user at each read (`Accounts.sessionsValidAfter`). */
export interface SessionUsers {
  /** Epoch milliseconds before which every session of the user has ended (0: none ended); undefined when the user is gone. */
  sessionsValidAfter(userId: string): Promise<number | undefined>;
}

interface Stored {
  userId: string;
  /** Start, epoch milliseconds. */
  iat: number;
}

const SID = /^[A-Za-z0-9_-]{43}$/;
const keyOf = (sid: string): string => hash('sha256', sid, 'base64url');

/** Reads, starts and ends sessions; issues and checks their CSRF tokens. */
export class WebSessions {
  private readonly store: Adapter;

  /**
   * @param AdapterClass the OIDC-state adapter (SQLite or Redis, with its metrics wrapper)
   * @param users the user check of each read (the password-change cut-off)
   */
  constructor(
    private readonly tokens: CsrfTokens,
    AdapterClass: new (name: string) => Adapter,
    private readonly users: SessionUsers,
  ) {
    this.store = new AdapterClass(WEB_SESSION_MODEL);
  }

  /**
   * The session of the request: its cookie is present and signed by us, the stored session is live,
   * and it began after the user's last password change.
   * @throws what the OIDC-state store throws (an outage: the edge answers 503)
   */
  async read(ctx: Context): Promise<WebSession | undefined> {
    const sid = ctx.cookies.get(SESSION_COOKIE, { signed: true });
    if (!sid || !SID.test(sid)) return undefined;
    const stored = (await this.store.find(keyOf(sid))) as Partial<Stored> | undefined;
    if (!stored || typeof stored.userId !== 'string' || typeof stored.iat !== 'number') return undefined;
    const after = await this.users.sessionsValidAfter(stored.userId);
    if (after === undefined || stored.iat < after) return undefined;
    return { userId: stored.userId, sid };
  }

  /** Starts a session for a user who just proved their password (ends the request's earlier one). */
  async start(ctx: Context, userId: string): Promise<WebSession> {
    await this.destroy(ctx);
    const sid = randomBytes(32).toString('base64url');
    await this.store.upsert(keyOf(sid), { userId, iat: Date.now() } as never, SESSION_TTL_SECONDS);
    ctx.cookies.set(SESSION_COOKIE, sid, {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      maxAge: SESSION_TTL_SECONDS * 1000,
      path: '/',
    });
    return { userId, sid };
  }

  /** Ends the request's session: destroyed in the store (a copy of the cookie stops working) and the cookie cleared. */
  async end(ctx: Context): Promise<void> {
    await this.destroy(ctx);
    ctx.cookies.set(SESSION_COOKIE, null, { signed: true, httpOnly: true, sameSite: 'lax', path: '/' });
  }

  private async destroy(ctx: Context): Promise<void> {
    const sid = ctx.cookies.get(SESSION_COOKIE, { signed: true });
    if (sid && SID.test(sid)) await this.store.destroy(keyOf(sid));
  }

  /** CSRF token of a session (or, before sign-in, of the sign-in form's nonce). */
  csrf(subject: string): string {
    return this.tokens.issue(`web:${subject}`);
  }

  verifyCsrf(subject: string, token: unknown): boolean {
    return this.tokens.verify(`web:${subject}`, token);
  }
}

/** A same-origin path to go to after sign-in; anything else (absolute URLs, `//host`) → fallback. */
export function safeNext(next: unknown, fallback = '/'): string {
  return typeof next === 'string' && /^\/(?![/\\])[\x21-\x7e]*$/.test(next) && next.length < 512 ? next : fallback;
}
