/**
 * The OAuth surface (SPEC §7, DESIGN D8): RFC 6749 §5.2 JSON `{ error, error_description }` with
 * `Cache-Control: no-store`. Also the shape of every bearer refusal (RFC 6750 §3.1: 401
 * `invalid_token`, 403 `insufficient_scope` / `access_denied`, with `WWW-Authenticate`) on the
 * resource surfaces that are not problem+json.
 */
import type { Context } from 'koa';
import type { HttpError } from '../catalogue.js';
import { shownDescription } from '../shown.js';

/** Writes an RFC 6749 §5.2 JSON error body with `Cache-Control: no-store`. */
export function sendOAuthError(ctx: Context, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error, error_description: description };
}

/** Renders a catalogue error as RFC 6749 §5.2 JSON, with its headers (e.g. `WWW-Authenticate`). */
export function renderOAuth(ctx: Context, err: HttpError): void {
  for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
  sendOAuthError(ctx, err.status, err.error, shownDescription(ctx, err));
}
