/**
 * Pipelines of the protected resources (SPEC §2.3, §4.3, §5.7; DESIGN D4): UserInfo,
 * `/account/graphql` (+ its SDL), `/mcp` (+ its scope map), uploaded files. The bearer step
 * (src/resource/bearer.ts) builds every 401/403 challenge.
 */
import { userinfoHandler } from '../resource/userinfo.js';
import { bearer } from '../resource/bearer.js';
import { accountGraphqlHandler, accountSchemaHandler } from '../resource/account-graphql/index.js';
import { graphiqlPage } from '../resource/account-graphql/graphiql.js';
import { mcpSteps, scopeMapHandler } from '../resource/mcp/index.js';
import { filesHandler } from '../http/files.js';
import { docsLink } from '../http/docs-links.js';
import type { Services } from '../compose.js';
import { answersEveryMethod, pipeline, type Pipelines } from './pipeline.js';
import type { SharedSteps } from './steps.js';

/** The resource family's pipelines. */
export function resourcePipelines(services: Services, { limitBody }: SharedSteps, openapi: Record<string, unknown>): Pipelines {
  const { config, provider, accounts, logger } = services;
  const userinfo = userinfoHandler(provider, accounts, config.baseUrl);
  const authenticateBearer = bearer(provider, config.baseUrl, accounts, { scopes: ['account:read'], errorUri: docsLink(config.docsUrl, 'accountApi') });
  const runGraphql = accountGraphqlHandler({ services: services.account, baseUrl: config.baseUrl, production: config.mode === 'production', log: logger });
  const mcp = mcpSteps({ provider, baseUrl: config.baseUrl, docsUrl: config.docsUrl, logger, services: services.tools });
  // GraphiQL (development; docs/account-api.md "Schema, introspection, GraphiQL"): a page for a browser's GET.
  const accountGraphql = config.graphiql
    ? pipeline(limitBody, graphiqlPage, authenticateBearer, runGraphql)
    : pipeline(limitBody, authenticateBearer, runGraphql);

  return {
    // SPEC §2.3: the token's own lookup and claims (src/oauth/userinfo.ts answers its 401s).
    userinfo: pipeline(limitBody, userinfo),
    account_graphql: accountGraphql,
    account_graphql_schema: pipeline(accountSchemaHandler),
    // Stateless Streamable HTTP: the steps answer every method (JSON-RPC 405 for all but POST);
    // readBody applies the row's body limit with a JSON-RPC 413 (row `mcp`: ownTooLarge).
    mcp: answersEveryMethod(
      mcp.renderJsonRpcErrors,
      mcp.originGuard,
      mcp.allowPostOnly,
      mcp.readBody,
      mcp.authenticateCaller,
      mcp.gateToolCalls,
      mcp.serveMcp,
    ),
    scope_map: pipeline(scopeMapHandler(config.baseUrl, openapi)),
    file: pipeline(filesHandler(services.admin.files)),
  };
}
