/**
 * `/mcp`: the MCP tool interface (SPEC §4.3, §5.7; DESIGN D4) on the MCP SDK's Streamable HTTP
 * transport, stateless. The endpoint is a pipeline of small named steps, read top to bottom
 * (declared as the `mcp` pipeline in src/pipelines/resource.ts):
 *
 *   originGuard → allowPostOnly → readBody → authenticateCaller → gateToolCalls → serveMcp
 *
 * Every refusal is thrown to the edge, whose renderer draws it on the row's surface `jsonrpc`
 * (src/errors/render.ts, src/errors/surfaces/jsonrpc.ts): transport errors as JSON-RPC error
 * objects, a store outage anywhere (bearer lookup, a tool) as 503 + Retry-After (issue #14), bearer
 * challenges as RFC 6749 JSON with `WWW-Authenticate`. The steps catch nothing (issue #27).
 *
 * No token is fine (anonymous caller, public tools); a bad token is 401 `invalid_token`; a
 * protected tool call without its scopes is 401/403 with `WWW-Authenticate` (gate.ts).
 */
import type { Context, Middleware } from 'koa';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import { ANY_KIND_SCOPE, authenticateRequest, type ScopeHint } from '../bearer.js';
import type { DpopProofs } from '../dpop.js';
import { docsLink } from '../../http/docs-links.js';
import { readJsonRpcBody, refuseForbiddenBatch, type JsonRpcBody } from './body.js';
import { JsonRpcHttpError, sendJsonRpcError } from './errors.js';
import { calledToolScopes, gateToolCalls } from './gate.js';
import { originGuard } from './origin-guard.js';
import { McpServerPool } from './server.js';
import { mcpHandler, serveWithSdk } from './transport.js';
import { scopeMap } from './scope-map.js';
import type { Caller, ToolServices } from './tools/types.js';

/** What `/mcp` needs from the composition root (src/compose.ts builds the services). */
export interface McpDeps {
  provider: Provider;
  baseUrl: string;
  /** DOCS_URL: challenges link the developer docs. */
  docsUrl: string;
  logger: Logger;
  /** The platform services the tools run against (the same instances as the Account API's and the admin API's). */
  services: ToolServices;
  /** DPoP proofs (RFC 9449 §7; a proof's `content_digest` is checked against the JSON-RPC body). */
  dpop: DpopProofs;
}

interface McpState {
  body: JsonRpcBody;
  caller: Caller;
}

const state = (ctx: Context): McpState => ctx.state as McpState;

/** MCP Streamable HTTP: POST only here; GET (no server-initiated SSE stream) and DELETE (no sessions) → 405. */
const allowPostOnly: Middleware = async (ctx, next) => {
  if (ctx.method !== 'POST') {
    throw new JsonRpcHttpError(
      405,
      -32000,
      `Method Not Allowed: ${ctx.method} /mcp (this server is stateless: POST JSON-RPC only)`,
      { Allow: 'POST' },
    );
  }
  await next();
};

/** Reads the body; a batch under a revision that forbids batches (≥ 2025-06-18) is refused here (issue #26). */
const readBody: Middleware = async (ctx, next) => {
  state(ctx).body = await readJsonRpcBody(ctx);
  refuseForbiddenBatch(ctx.get('mcp-protocol-version'), state(ctx).body.parsed);
  await next();
};

/**
 * The token, if any, becomes the caller. A refused token gets a 401 naming the scope to ask for
 * next (DESIGN D4): the called tool's scopes for `tools/call`; for other methods the default of
 * the token's client when it can still be read (expired), else `openid`, which every client kind
 * may request (the first protected tool call then steps up).
 */
function authenticateCaller(deps: McpDeps): Middleware {
  const errorUri = docsLink(deps.docsUrl, 'challenges');
  return async (ctx, next) => {
    const hint: ScopeHint = { operation: calledToolScopes(state(ctx).body.parsed), fallback: ANY_KIND_SCOPE, errorUri };
    const principal = await authenticateRequest(
      ctx,
      deps.provider,
      deps.baseUrl,
      deps.services.accounts,
      hint,
      deps.dpop,
      {
        body: state(ctx).body.raw,
      },
    );
    state(ctx).caller = principal ? { principal, roles: [...(principal.roles ?? [])] } : { roles: [] };
    await next();
  };
}

function gate(baseUrl: string, docsUrl: string): Middleware {
  return async (ctx, next) => {
    const result = gateToolCalls(state(ctx).body.parsed, state(ctx).caller, baseUrl, docsUrl);
    if (!result.pass) return sendJsonRpcError(ctx, 200, result.code, result.message, result.id);
    await next();
  };
}

function serveMcp(deps: McpDeps, services: ToolServices): Middleware {
  const servers = new McpServerPool(services, deps.logger);
  const handler = mcpHandler(servers, deps.logger);
  return async (ctx) => {
    let outage: unknown;
    const scope = {
      caller: state(ctx).caller,
      requestId: String(ctx.state.requestId ?? ''),
      onOutage: (err: unknown) => (outage ??= err),
    };
    await serveWithSdk(ctx, handler, servers, scope, state(ctx).body, deps.baseUrl);
    if (outage) throw outage;
  };
}

/** Path of the published scope map (generated from the tool registry). */
export const SCOPE_MAP_PATH = '/.well-known/coursegate-scope-map.json';

/** The named steps of `/mcp`, in order (the `mcp` pipeline of src/pipelines/resource.ts). */
export interface McpSteps {
  originGuard: Middleware;
  allowPostOnly: Middleware;
  readBody: Middleware;
  authenticateCaller: Middleware;
  gateToolCalls: Middleware;
  serveMcp: Middleware;
}

/** Builds the steps of `/mcp` once. */
export function mcpSteps(deps: McpDeps): McpSteps {
  return {
    originGuard: originGuard(deps.baseUrl),
    allowPostOnly,
    readBody,
    authenticateCaller: authenticateCaller(deps),
    gateToolCalls: gate(deps.baseUrl, deps.docsUrl),
    serveMcp: serveMcp(deps, deps.services),
  };
}

/**
 * `GET /.well-known/coursegate-scope-map.json`: the scope map generated from the tool registry.
 * @param openapi the `/openapi.json` document, for the admin operations of the map
 */
export function scopeMapHandler(baseUrl: string, openapi: Record<string, unknown>): Middleware {
  const map = scopeMap(baseUrl, openapi);
  return (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = map;
  };
}
