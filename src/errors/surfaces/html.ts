/**
 * The HTML surface (DESIGN D8): pages for people (interaction, invitation, set-password, sign-in,
 * connected apps, operator area) show a readable page with the error code, never a stack trace,
 * and never redirect. oidc-provider's own error texts ("client is invalid", …) are written for
 * developers: on this surface they are replaced by sentences for the person in the browser
 * (issue 30 item 9); the RFC error code stays on the page for support.
 */
import type { Context } from 'koa';
import type { HttpError } from '../catalogue.js';
import { renderErrorPage } from '../../interaction/templates.js';

/** Page texts for errors whose description is for machines or not shown. */
const PAGE_TEXT: Record<number, string> = {
  500: 'Something went wrong on our side. Try again.',
  503: 'The service is briefly unavailable. Please try again in a few seconds.',
};

const CONTACT = "Tell the application's developer.";

/**
 * oidc-provider error descriptions (lib/helpers/errors.js, lib/actions/authorization/*) → what the
 * person in the browser reads. First match wins; `$1` is the first capture group.
 */
export const ENGINE_TEXTS: ReadonlyArray<[RegExp, string]> = [
  [
    /^client is invalid|^client not found|invalid client$/i,
    `The application that sent you here is not registered with this server. ${CONTACT}`,
  ],
  [
    /redirect_uri did not match|redirect_uri.*not.*registered/i,
    `The application asked to send you back to an address it has not registered. ${CONTACT}`,
  ],
  [
    /missing required parameter '?([\w:]+)'?/i,
    `The application's sign-in request is incomplete (its "$1" is missing). ${CONTACT}`,
  ],
  [
    /unsupported response_type|response_type not allowed/i,
    `The application asked for a kind of sign-in this server does not offer. ${CONTACT}`,
  ],
  [/code_challenge|pkce/i, `The application's sign-in request is missing its security check (PKCE). ${CONTACT}`],
  [
    /requested scope|invalid_scope|scope.*not allowed/i,
    `The application asked for permissions it may not request here. ${CONTACT}`,
  ],
  [
    /interaction session (id cookie )?not found|session not found|interaction.*expired|authorization request has expired/i,
    'This sign-in has expired or was opened in another browser. Go back to the application and start again.',
  ],
  [/unrecognized route|not allowed method/i, 'There is no page at this address.'],
  [/^no resource at (\S+)/i, 'There is no page at $1. Check the address, or start from the home page.'],
  [/^the user denied the request$/i, 'You denied the request. Nothing was shared with the application.'],
];

/** The sentence a person reads for an engine text; texts already written for people pass through. */
export function humanText(description: string): string {
  for (const [pattern, text] of ENGINE_TEXTS) {
    const m = pattern.exec(description);
    if (m) return text.replace('$1', m[1] ?? '');
  }
  return description;
}

/** Renders a catalogue error as an HTML page with its status and headers. */
export function renderHtml(ctx: Context, err: HttpError): void {
  for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
  ctx.set('Cache-Control', 'no-store');
  const text = PAGE_TEXT[err.status] ?? (err.expose ? humanText(err.description) : PAGE_TEXT[500]!);
  renderErrorPage(ctx, err.error, text, err.status);
}
