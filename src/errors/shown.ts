/** What a caller may read of an error (the `expose` rule of the catalogue). */
import type { Context } from 'koa';
import type { HttpError } from './catalogue.js';

/**
 * The description a caller may read: the error's own when `expose`, else a generic text naming
 * the request id (`X-Request-Id`) so support can find the log line. Never a stack trace.
 */
export function shownDescription(ctx: Pick<Context, 'state'>, err: HttpError): string {
  return err.expose ? err.description : `internal error (request id ${String(ctx.state.requestId ?? '')})`;
}
