/**
 * Pipelines of the protected resources (SPEC §2.3, §4.3, §5.7; DESIGN D4): UserInfo,
 * `/account/graphql` (+ its SDL), `/mcp` (+ its scope map), uploaded files. The bearer step
 * (src/resource/bearer.ts, produced by the row's `auth` column) builds every 401/403 challenge.
 */
import { userinfoHandler } from '../resource/userinfo.js';
import { accountGraphqlHandler, accountSchemaHandler } from '../resource/account-graphql/index.js';
import { graphiqlPage } from '../resource/account-graphql/graphiql.js';
import { mcpSteps, scopeMapHandler } from '../resource/mcp/index.js';
import { filesHandler } from '../http/files.js';
import type { Services } from '../compose.js';
import { answersEveryMethod, pipeline, type Pipelines } from './pipeline.js';
import { withPublicPage } from './assemble.js';

/**
 * The resource family's pipelines: only the family's own steps. The bearer step of UserInfo and
 * `/account/graphql` (with the row's scopes) and the body step are produced by their rows
 * (src/pipelines/assemble.ts); `/mcp` (anonymous bearer) reads its token itself, since the scope
 * its 401s name depends on the called tool.
 */
export function resourcePipelines(services: Services, openapi: Record<string, unknown>): Pipelines {
  const { config, provider, accounts, logger } = services;
  const userinfo = userinfoHandler(provider, accounts, config.baseUrl);
  const runGraphql = accountGraphqlHandler({
    services: services.account,
    baseUrl: config.baseUrl,
    production: config.mode === 'production',
    log: logger,
  });
  const mcp = mcpSteps({
    provider,
    baseUrl: config.baseUrl,
    docsUrl: config.docsUrl,
    logger,
    services: services.tools,
    dpop: services.dpop,
  });
  // GraphiQL (development; docs/account-api.md "Schema, introspection, GraphiQL"): a page for a
  // browser's GET, before the row's bearer step; it carries no account data.
  const accountGraphql = config.graphiql ? withPublicPage(graphiqlPage, pipeline(runGraphql)) : pipeline(runGraphql);

  return {
    // SPEC §2.3: the token's grant and claims (src/resource/userinfo.ts answers the grant's 401/403).
    userinfo: pipeline(userinfo),
    account_graphql: accountGraphql,
    account_graphql_schema: pipeline(accountSchemaHandler),
    // Stateless Streamable HTTP: the steps answer every method (JSON-RPC 405 for all but POST);
    // readBody applies the row's body limit with a JSON-RPC 413 (row `mcp`: ownTooLarge). Errors
    // are thrown to the edge, rendered on the row's surface `jsonrpc`.
    mcp: answersEveryMethod(
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
