/**
 * The HTML surface (DESIGN D8): pages for people (interaction, invitation, set-password, sign-in,
 * connected apps, operator area) show a readable page with the error code, never a stack trace,
 * and never redirect.
 */
import type { Context } from 'koa';
import type { HttpError } from '../catalogue.js';
import { renderErrorPage } from '../../interaction/templates.js';

/** Page texts for errors whose description is for machines or not shown. */
const PAGE_TEXT: Record<number, string> = {
  500: 'Something went wrong on our side. Try again.',
  503: 'The service is briefly unavailable. Please try again in a few seconds.',
};

/** Renders a catalogue error as an HTML page with its status and headers. */
export function renderHtml(ctx: Context, err: HttpError): void {
  for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
  ctx.set('Cache-Control', 'no-store');
  const text = PAGE_TEXT[err.status] ?? (err.expose ? err.description : PAGE_TEXT[500]!);
  renderErrorPage(ctx, err.error, text, err.status);
}
