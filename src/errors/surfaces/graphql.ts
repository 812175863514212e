/**
 * The GraphQL surface (`/account/graphql`). Two places:
 * - inside execution, a domain refusal becomes a `GraphQLError` with a stable `extensions.code`
 *   (`toGraphQLError`; graphql-yoga puts it in `errors[]` of a 200, anything else is masked as
 *   `INTERNAL_SERVER_ERROR`);
 * - before execution (bearer step, body limit, store outage, a fault), the HTTP answer carries both
 *   the RFC 6749 §5.2 members SPEC §7 names for a bearer refusal (`error`, `error_description`,
 *   with `WWW-Authenticate` on 401/403) and a GraphQL-over-HTTP `errors[]` with the same message
 *   and `extensions.code` (the upper-case error code), so GraphQL clients show it too.
 */
import type { Context } from 'koa';
import { GraphQLError } from 'graphql';
import type { HttpError } from '../catalogue.js';
import { PlatformError } from '../../platform/errors.js';
import { shownDescription } from '../shown.js';

/** `extensions.code` of a domain refusal (docs/account-api.md "Errors"). */
export function graphqlCode(err: PlatformError): string {
  switch (err.code) {
    case 'not_found':
      return 'NOT_FOUND';
    case 'invalid':
      return 'BAD_USER_INPUT';
    case 'conflict':
      return 'CONFLICT';
    case 'forbidden':
      return err.reason === 'access_expired' ? 'ACCESS_EXPIRED' : 'FORBIDDEN';
  }
}

/** Turns a domain refusal into a GraphQL error with its code; anything else is rethrown (and masked). */
export function toGraphQLError(err: unknown): never {
  if (err instanceof PlatformError) {
    throw new GraphQLError(err.message, {
      extensions: { code: graphqlCode(err), ...(err.field ? { argumentName: err.field } : {}) },
    });
  }
  throw err;
}

/** Renders a catalogue error met before execution (see the module comment). */
export function renderGraphql(ctx: Context, err: HttpError): void {
  for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
  const description = shownDescription(ctx, err);
  ctx.status = err.status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = {
    error: err.error,
    error_description: description,
    errors: [
      {
        message: description,
        extensions: { code: err.status === 500 ? 'INTERNAL_SERVER_ERROR' : err.error.toUpperCase() },
      },
    ],
  };
}
