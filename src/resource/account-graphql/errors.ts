/**
 * Error codes of the Account API (`extensions.code`), stable so that clients and persisted
 * queries can branch on them:
 *
 * | code | when |
 * |---|---|
 * | `GRAPHQL_PARSE_FAILED` | the document is not GraphQL |
 * | `GRAPHQL_VALIDATION_FAILED` | unknown field, wrong argument type, … |
 * | `QUERY_TOO_DEEP`, `QUERY_TOO_COSTLY`, `TOO_MANY_ALIASES`, `TOO_MANY_DIRECTIVES`, `TOO_MANY_TOKENS` | a limit (limits.ts) |
 * | `INSUFFICIENT_SCOPE` | a mutation without `account:write` (HTTP 403) |
 * | `BAD_USER_INPUT` | an argument breaks a documented rule |
 * | `NOT_FOUND`, `ACCESS_EXPIRED` | member-data rules (platform/member-errors.ts) |
 * | `INTERNAL_SERVER_ERROR` | a fault on our side (message masked) |
 */
import { GraphQLError } from 'graphql';
import { MemberDataError } from '../../platform/member-errors.js';
import { InvalidPageRequestError } from '../../platform/paging.js';

/** Turns a platform error into a GraphQL error with its code; anything else is rethrown (and masked). */
export function toGraphQLError(err: unknown): never {
  if (err instanceof MemberDataError) throw new GraphQLError(err.message, { extensions: { code: err.code } });
  if (err instanceof InvalidPageRequestError) {
    throw new GraphQLError(err.message, { extensions: { code: 'BAD_USER_INPUT' } });
  }
  throw err;
}

/** Runs a resolver body, translating platform errors (see `toGraphQLError`). */
export async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    return toGraphQLError(err);
  }
}

/** A BAD_USER_INPUT error naming the argument. */
export const badUserInput = (message: string, argumentName?: string): GraphQLError =>
  new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', ...(argumentName ? { argumentName } : {}) } });
