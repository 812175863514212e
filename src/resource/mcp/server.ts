/**
 * The MCP servers of `/mcp` (stateless, DESIGN §1): each request is served by an `McpServer` holding
 * every tool (DESIGN D4, issue #26: `tools/list` shows every tool to every caller, each saying whom
 * it is for and which scopes it needs, so a host that hands the model only listed tools can reach
 * the 401/403 challenge of `gate.ts` that starts sign-in or step-up); built servers are kept and
 * reused (`McpServerPool`). Tool results carry both
 * `structuredContent` (checked against the output schema) and a JSON text block for clients that
 * read `content` only.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type CallToolResult, McpServer, type ProtocolEra } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { z } from 'zod';
import { isStoreOutage } from '../../ops/store-outage.js';
import { toolError } from '../../errors/surfaces/jsonrpc.js';
import { listedDescription, listedMeta } from './access.js';
import { TOOLS } from './tools/registry.js';
import type { AnyTool, Caller, ToolServices } from './tools/types.js';
import { DirectTransport } from './transport.js';

export const SERVER_INFO = { name: 'coursegate', title: 'coursegate course platform', version: '0.2.0' } as const;

const INSTRUCTIONS = [
  'Tools of an online-course platform.',
  'Every tool is listed to every caller; each description starts with whom it is for and the scopes it needs.',
  'Without a token: the public catalogue (search_courses, get_course) and how_to_connect.',
  "Members (account:read / account:write, through their site's member client): their enrollments, progress, orders and event registrations.",
  'Site owners and admins (operator scopes): courses, curriculum, students, members, orders, analytics, events and coupons.',
  'Calling a tool you cannot use yet answers HTTP 401 (sign in) or 403 insufficient_scope (step up) with the scope to ask for.',
  'Call how_to_connect to see which scope unlocks which tool.',
].join(' ');

/** Runs a tool and maps its outcome to an MCP result; never lets an internal error text out. */
async function runTool(
  tool: AnyTool,
  args: Record<string, unknown>,
  caller: Caller,
  services: ToolServices,
  logger: Logger,
  requestId: string,
  onOutage?: (err: unknown) => void,
): Promise<CallToolResult> {
  // Audit line per call: who (sub, site), which tool, outcome. Never arguments or tokens.
  const audit = {
    req_id: requestId,
    tool: tool.name,
    sub: caller.principal?.userId,
    org_id: caller.principal?.siteId,
    client_id: caller.principal?.clientId,
  };
  try {
    const result = await tool.run(args, { caller, services });
    logger.info({ ...audit, outcome: 'ok' }, 'mcp tool call');
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (err) {
    const refused = toolError(err);
    if (refused) {
      logger.info({ ...audit, outcome: refused.code }, 'mcp tool call');
      return refused.result;
    }
    // Issue #14: a store outage is the whole request's 503 (index.ts), not a tool error in a 200.
    if (onOutage && isStoreOutage(err)) onOutage(err);
    logger.error(
      { req_id: requestId, tool: tool.name, err: { type: (err as Error)?.name, message: (err as Error)?.message } },
      'mcp tool failed',
    );
    return {
      isError: true,
      content: [{ type: 'text', text: `internal error in ${tool.name} (request id ${requestId}); try again later` }],
    };
  }
}

/** The zod object schemas of a tool, built once per process (issue #15) and shared by every server. */
const SCHEMAS = new WeakMap<AnyTool, { input: z.ZodObject; output: z.ZodObject }>();

/** A tool's input and output shapes as zod objects (Standard Schema with JSON Schema, as SDK v2 takes them). */
function schemasOf(tool: AnyTool): { input: z.ZodObject; output: z.ZodObject } {
  let schemas = SCHEMAS.get(tool);
  if (!schemas) {
    schemas = { input: z.object(tool.input), output: z.object(tool.output) };
    SCHEMAS.set(tool, schemas);
  }
  return schemas;
}

/** `ttlMs`/`cacheScope` of `tools/list` and `server/discover` (2026-07-28): not reused. */
const NO_CACHE = { ttlMs: 0, cacheScope: 'private' } as const;

/** What a tool call needs to know of the request it serves. */
export interface CallScope {
  caller: Caller;
  /** The request id, quoted in internal-error results for support. */
  requestId: string;
  /** Told when a tool met a store outage (the request then answers 503). */
  onOutage?: (err: unknown) => void;
}

/**
 * A server holding `tools`, whose tool calls run for the request `scope()` names at call time.
 * `tools/list` shows exactly `tools`.
 */
function serverWith(
  tools: readonly AnyTool[],
  services: ToolServices,
  logger: Logger,
  scope: () => CallScope,
): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
    // MCP 2026-07-28 caching: `tools/list` and `server/discover` carry `ttlMs: 0`, `cacheScope:
    // 'private'` (the SDK's defaults, named here). The list is the same for everyone, but a listing
    // is also where a host with a revoked or expired token meets the 401 that names the scope to
    // sign in with again (DESIGN D4): a cached listing would skip it.
    cacheHints: { 'tools/list': NO_CACHE, 'server/discover': NO_CACHE },
  });
  for (const tool of tools) {
    const { input, output } = schemasOf(tool);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: listedDescription(tool),
        inputSchema: input,
        outputSchema: output,
        annotations: { title: tool.title, ...tool.annotations },
        _meta: listedMeta(tool),
      },
      (async (args: Record<string, unknown>) => {
        const { caller, requestId, onOutage } = scope();
        return runTool(tool, args, caller, services, logger, requestId, onOutage);
      }) as never,
    );
  }
  // McpServer announces `tools.listChanged: true` once a tool is registered, but a stateless
  // endpoint (GET /mcp is 405) never sends notifications/tools/list_changed: say so (issue #12).
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}

/**
 * A server for one request, holding every tool (the gate decides who may call which).
 * @param caller who calls (anonymous or a principal with its roles)
 * @param requestId the request id, quoted in internal-error results for support
 * @param onOutage told when a tool met a store outage (the request then answers 503)
 */
export function buildMcpServer(
  caller: Caller,
  services: ToolServices,
  logger: Logger,
  requestId: string,
  onOutage?: (err: unknown) => void,
): McpServer {
  const scope = { caller, requestId, onOutage };
  return serverWith(TOOLS, services, logger, () => scope);
}

/**
 * Built servers, kept and reused (building one registers every tool, and its first `tools/list`
 * converts every schema to JSON Schema: per-request work otherwise). Two kinds: servers the SDK's
 * HTTP handling connects to a request's own transport and closes once answered (`take()`, kept
 * again by `run()`), and 2025-era servers that stay connected to a `DirectTransport` (`direct()`).
 * Each serves one request at a time. Nothing of a request stays on a server: tool calls read the
 * request being served from an `AsyncLocalStorage` entered by `run()`, and a stateless server
 * keeps no session.
 */
export class McpServerPool {
  /**
   * Idle servers by protocol era: connecting a server binds it to the era of the request it
   * serves (a server that answered 2026-07-28 requires the `_meta` envelope from then on).
   */
  private readonly idle: Record<ProtocolEra, McpServer[]> = { legacy: [], modern: [] };
  /** Idle 2025-era servers that stay connected to their `DirectTransport` (transport.ts). */
  private readonly idleDirect: Array<{ server: McpServer; transport: DirectTransport }> = [];
  private readonly current = new AsyncLocalStorage<CallScope & { taken: Array<[ProtocolEra, McpServer]> }>();

  /** @param maxIdle most idle servers kept (more are built under load, then dropped) */
  constructor(
    private readonly services: ToolServices,
    private readonly logger: Logger,
    private readonly maxIdle = 16,
  ) {}

  /** A new server holding every tool, whose tool calls read the request `run` serves. */
  private build(): McpServer {
    return serverWith(TOOLS, this.services, this.logger, () => {
      const scope = this.current.getStore();
      if (!scope) throw new Error('mcp: tool call outside a request');
      return scope;
    });
  }

  /**
   * An idle server, or a new one holding every tool (DESIGN D4: all tools are listed to all); it
   * is given back when the request `run` serves is answered.
   */
  take(era: ProtocolEra): McpServer {
    const server = this.idle[era].pop() ?? this.build();
    this.current.getStore()?.taken.push([era, server]);
    return server;
  }

  /**
   * Runs `use` with an idle 2025-era server that stays connected to a `DirectTransport` (one
   * request at a time), or a new one; it is kept for the next request once `use` answered, and
   * closed when `use` failed half-way (the request may still be running on it).
   */
  async direct<T>(use: (transport: DirectTransport) => Promise<T>): Promise<T> {
    let entry = this.idleDirect.pop();
    if (!entry) {
      const server = this.build();
      const transport = new DirectTransport();
      await server.connect(transport);
      entry = { server, transport };
    }
    let answered = false;
    try {
      const result = await use(entry.transport);
      answered = true;
      return result;
    } finally {
      if (answered && this.idleDirect.length < this.maxIdle) this.idleDirect.push(entry);
      else void entry.server.close();
    }
  }

  /**
   * Runs `serve` with `scope` as the request every tool call of it reads, then keeps the servers
   * it took for the next request (a server still connected, e.g. after a failure half-way, is
   * dropped instead).
   */
  async run<T>(scope: CallScope, serve: () => Promise<T>): Promise<T> {
    const store = { ...scope, taken: [] as Array<[ProtocolEra, McpServer]> };
    try {
      return await this.current.run(store, serve);
    } finally {
      for (const [era, server] of store.taken)
        if (!server.isConnected() && this.idle[era].length < this.maxIdle) this.idle[era].push(server);
    }
  }
}
