/**
 * Every error of the Account API carries `extensions.code` (the table in errors.ts), so clients and
 * persisted queries branch on codes, not messages. graphql-js leaves two kinds uncoded, fixed here
 * after execution:
 * - request errors without a path: variable values that do not coerce (`Int` given 1.5, a
 *   `DateTime` of the wrong shape, a missing `input`) → `BAD_USER_INPUT`;
 * - field errors with a path that nothing coded (e.g. a value the schema cannot represent) →
 *   `INTERNAL_SERVER_ERROR`.
 */
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

function withCode(error: GraphQLError): void {
  const extensions = error.extensions as Record<string, unknown>;
  if (extensions.code === undefined)
    extensions.code = error.path === undefined ? 'BAD_USER_INPUT' : 'INTERNAL_SERVER_ERROR';
}

export const errorCodesPlugin: Plugin = {
  onExecute() {
    return {
      onExecuteDone({ result }) {
        if ('errors' in result && result.errors) result.errors.forEach(withCode);
      },
    };
  },
};
