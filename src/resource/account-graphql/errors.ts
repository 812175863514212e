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
 * | `NOT_FOUND`, `ACCESS_EXPIRED`, `CONFLICT`, `FORBIDDEN` | domain refusals (`PlatformError`, mapped by src/errors/surfaces/graphql.ts) |
 * | `INTERNAL_SERVER_ERROR` | a fault on our side (message masked) |
 */
import { GraphQLError } from 'graphql';
import { toGraphQLError } from '../../errors/surfaces/graphql.js';

export { toGraphQLError };

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
