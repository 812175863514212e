/**
 * `account:write` for mutations (SPEC §2.5, §5.7; DESIGN D4). The bearer middleware already
 * demanded `account:read` for every request; the operation type is only known after parsing, so
 * this yoga plugin checks it at execution: a mutation with a token lacking `account:write` gets
 * HTTP 403 and the same `WWW-Authenticate: Bearer error="insufficient_scope", …, scope="account:write",
 * resource_metadata="…"` challenge as every other 403 of the server (`challenge()` of bearer.ts).
 */
import { GraphQLError, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { challenge, dpopChallenge } from '../../http/challenge.js';
import type { AccountContext } from './context.js';

export const WRITE_SCOPE = 'account:write';

/** The plugin; `baseUrl` names the RFC 9728 metadata in the challenge. */
export function writeScopePlugin(baseUrl: string): Plugin<AccountContext> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName ?? undefined);
      if (operation?.operation !== 'mutation') return;
      const { principal } = args.contextValue;
      if (principal.scopes.has(WRITE_SCOPE)) return;
      const description = `a mutation needs the scope ${WRITE_SCOPE}`;
      // RFC 9449 §7.1: a request made with DPoP is challenged in the DPoP scheme.
      const denied =
        principal.scheme === 'DPoP'
          ? dpopChallenge(baseUrl, 'insufficient_scope', description, WRITE_SCOPE)
          : challenge(baseUrl, 403, 'insufficient_scope', description, WRITE_SCOPE);
      setResultAndStopExecution({
        errors: [
          new GraphQLError(denied.description, {
            extensions: {
              code: 'INSUFFICIENT_SCOPE',
              scope: WRITE_SCOPE,
              http: { status: 403, headers: denied.headers },
            },
          }),
        ],
      });
    },
  };
}
