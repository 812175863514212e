/**
 * The browser session of the operator area, `/account/connections` and `/` (issue 11): a signed
 * cookie (Koa's `ctx.cookies` with the cookie keys, HttpOnly, SameSite=Lax, Secure on https)
 * holding the user id, a random session id and an expiry. Forms carry a CSRF token that is an
 * HMAC of the session id (the interaction pages' CsrfTokens), checked in constant time.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { CsrfTokens } from '../http/csrf.js';

export const SESSION_COOKIE = 'cg_web';
/** Lifetime of a signed-in session: 8 hours. */
export const SESSION_TTL_SECONDS = 8 * 3600;

/** A signed-in person. */
export interface WebSession {
  userId: string;
  sid: string;
}

/** Reads, starts and ends sessions; issues and checks their CSRF tokens. */
export class WebSessions {
  constructor(private readonly tokens: CsrfTokens) {}

  /** The session of the request, when its cookie is present, signed by us and unexpired. */
  read(ctx: Context): WebSession | undefined {
    const raw = ctx.cookies.get(SESSION_COOKIE, { signed: true });
    const [userId, sid, exp] = raw?.split('|') ?? [];
    if (!userId || !sid || !exp || Number(exp) < Date.now() / 1000) return undefined;
    return { userId, sid };
  }

  /** Starts a session for a user who just proved their password. */
  start(ctx: Context, userId: string): WebSession {
    const sid = randomBytes(16).toString('base64url');
    const exp = Math.floor(Date.now() / 1000) + SESSION_TTL_SECONDS;
    ctx.cookies.set(SESSION_COOKIE, `${userId}|${sid}|${exp}`, { signed: true, httpOnly: true, sameSite: 'lax', secure: ctx.secure, maxAge: SESSION_TTL_SECONDS * 1000, path: '/' });
    return { userId, sid };
  }

  end(ctx: Context): void {
    ctx.cookies.set(SESSION_COOKIE, null, { signed: true, httpOnly: true, sameSite: 'lax', path: '/' });
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
