/**
 * `/mcp`: the MCP tool interface (SPEC §4.3, §5.7; DESIGN D4) on the MCP SDK's Streamable HTTP
 * transport, stateless. The endpoint is a pipeline of small named steps, read top to bottom:
 *
 *   renderJsonRpcErrors → originGuard → allowPostOnly → readBody → authenticateCaller
 *     → gateToolCalls → serveMcp
 *
 * No token is fine (anonymous caller, public tools); a bad token is 401 `invalid_token`; a
 * protected tool call without its scopes is 401/403 with `WWW-Authenticate` (gate.ts).
 */
import type { Context, Middleware } from 'koa';
import type Router from '@koa/router';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import type { Accounts } from '../../platform/accounts.js';
import type { Enrollments } from '../../platform/enrollments.js';
import type { PlatformDatabase } from '../../platform/schema.js';
import { Catalog } from '../../platform/catalog.js';
import { MemberRecords } from '../../platform/member-records.js';
import { Orders } from '../../platform/orders.js';
import { EventRegistrations } from '../../platform/events.js';
import { Progress } from '../../platform/progress.js';
import { ANY_KIND_SCOPE, authenticate, readBearerToken, type ScopeHint } from '../bearer.js';
import { docsLink } from '../../http/docs-links.js';
import { readJsonRpcBody, type JsonRpcBody } from './body.js';
import { JsonRpcHttpError, sendJsonRpcError } from './errors.js';
import { calledToolScopes, gateToolCalls } from './gate.js';
import { originGuard } from './origin-guard.js';
import { buildMcpServer } from './server.js';
import { serveWithSdk } from './transport.js';
import { scopeMap } from './scope-map.js';
import { renderError } from '../../errors/render.js';
import type { Caller, ToolServices } from './tools/types.js';
import type { AdminServices } from '../admin-api/operation.js';

/** What `/mcp` needs from the composition root. */
export interface McpDeps {
  provider: Provider;
  baseUrl: string;
  /** DOCS_URL: challenges link the developer docs. */
  docsUrl: string;
  accounts: Accounts;
  enrollments: Enrollments;
  db: Kysely<PlatformDatabase>;
  logger: Logger;
  /** The `/openapi.json` document, for the admin operations of the scope map. */
  openapi: Record<string, unknown>;
  /** The admin services the operator tools (views of admin operations) run against. */
  admin: AdminServices;
}

interface McpState {
  body: JsonRpcBody;
  caller: Caller;
}

const state = (ctx: Context): McpState => ctx.state as McpState;

/**
 * Renders every refusal of the pipeline on the JSON-RPC surface (src/errors/surfaces/jsonrpc.ts):
 * transport errors as JSON-RPC error objects, a store outage anywhere (bearer lookup, a tool) as
 * 503 + Retry-After (issue #14), bearer challenges as RFC 6749 JSON with `WWW-Authenticate`.
 */
function renderJsonRpcErrors(deps: McpDeps): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      renderError(ctx, err, { docsUrl: deps.docsUrl, logger: deps.logger }, 'jsonrpc');
    }
  };
}

/** MCP Streamable HTTP: POST only here; GET (no server-initiated SSE stream) and DELETE (no sessions) → 405. */
const allowPostOnly: Middleware = async (ctx, next) => {
  if (ctx.method !== 'POST') {
    throw new JsonRpcHttpError(405, -32000, `Method Not Allowed: ${ctx.method} /mcp (this server is stateless: POST JSON-RPC only)`, { Allow: 'POST' });
  }
  await next();
};

const readBody: Middleware = async (ctx, next) => {
  state(ctx).body = await readJsonRpcBody(ctx);
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
    const token = readBearerToken(ctx, deps.baseUrl, hint);
    if (token === undefined) {
      state(ctx).caller = { roles: [] };
    } else {
      const principal = await authenticate(deps.provider, deps.baseUrl, token, deps.accounts, hint);
      state(ctx).caller = { principal, roles: [...(principal.roles ?? [])] };
    }
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
  return async (ctx) => {
    const requestId = String(ctx.state.requestId ?? '');
    let outage: unknown;
    const parsed = state(ctx).body.parsed as { method?: unknown; params?: { name?: unknown } } | unknown[] | null;
    // One tools/call (not a batch): a server holding that tool only answers it the same way.
    const only = parsed && !Array.isArray(parsed) && parsed.method === 'tools/call' && typeof parsed.params?.name === 'string' ? parsed.params.name : undefined;
    const server = buildMcpServer(state(ctx).caller, services, deps.logger, requestId, (err) => (outage ??= err), only);
    await serveWithSdk(ctx, server, state(ctx).body, deps.baseUrl);
    if (outage) throw outage;
  };
}

/** Path of the published scope map (generated from the tool registry). */
export const SCOPE_MAP_PATH = '/.well-known/coursegate-scope-map.json';

/** Adds `/mcp` (all methods) and the scope map to the router. */
export function mountMcp(router: Router, deps: McpDeps): void {
  const services: ToolServices = {
    accounts: deps.accounts,
    enrollments: deps.enrollments,
    catalog: new Catalog(deps.db),
    records: new MemberRecords(deps.db),
    orders: new Orders(deps.db),
    eventRegistrations: new EventRegistrations(deps.db),
    progress: new Progress(deps.db),
    operator: deps.admin.operator,
    admin: deps.admin,
    baseUrl: deps.baseUrl,
  };
  router.all(
    '/mcp',
    renderJsonRpcErrors(deps),
    originGuard(deps.baseUrl),
    allowPostOnly,
    readBody,
    authenticateCaller(deps),
    gate(deps.baseUrl, deps.docsUrl),
    serveMcp(deps, services),
  );
  const map = scopeMap(deps.baseUrl, deps.openapi);
  router.get(SCOPE_MAP_PATH, (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = map;
  });
}
