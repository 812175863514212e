/**
 * The MCP servers of `/mcp` (stateless, DESIGN §1): each request is served by an `McpServer` holding
 * every tool (DESIGN D4, issue #26: `tools/list` shows every tool to every caller, each saying whom
 * it is for and which scopes it needs, so a host that hands the model only listed tools can reach
 * the 401/403 challenge of `gate.ts` that starts sign-in or step-up); built servers are kept and
 * reused (`McpServerPool`). Tool results carry both
 * `structuredContent` (checked against the output schema) and a JSON text block for clients that
 * read `content` only.
 */
import { isStoreOutage } from '../../ops/store-outage.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Logger } from 'pino';
import * as z4mini from 'zod/v4-mini';
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

/**
 * One JSON Schema validator for every per-request server. The SDK would otherwise build a new Ajv
 * instance (meta-schemas, formats) in each `Server` constructor, ~40 % of a tool call's CPU time;
 * the validator holds no per-request state (it is only used for elicitation answers, which these
 * stateless servers never request).
 */
const JSON_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

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
const SCHEMAS = new WeakMap<AnyTool, { input: z4mini.ZodMiniObject; output: z4mini.ZodMiniObject }>();

/** A tool's input and output shapes as zod objects, built as the SDK builds them from raw shapes. */
function schemasOf(tool: AnyTool): { input: z4mini.ZodMiniObject; output: z4mini.ZodMiniObject } {
  let schemas = SCHEMAS.get(tool);
  if (!schemas) {
    schemas = { input: z4mini.object(tool.input), output: z4mini.object(tool.output) };
    SCHEMAS.set(tool, schemas);
  }
  return schemas;
}

/** What a tool call needs to know of the request it serves. */
interface CallScope {
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
    jsonSchemaValidator: JSON_SCHEMA_VALIDATOR,
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

/** A pooled server, the request it serves now (none while idle), and its direct transport if it has one. */
interface Pooled {
  server: McpServer;
  serving?: CallScope;
  /** Set for a server that stays connected (transport.ts `DirectTransport`). */
  direct?: DirectTransport;
}

/** The one tool set of every pooled server. */
const ALL = { tools: TOOLS, key: 'all' } as const;

/**
 * Built servers, kept by the set of tools they hold (issue #15: building a server and registering
 * every visible tool's schemas was per-request work). The SDK connects a server to one transport
 * at a time, so each serves one request at a time: a request takes an idle server holding its
 * caller's tools, or builds one, and gives it back once answered. Two kinds are kept apart:
 * servers connected to each request's own SDK transport (`serve`, connected and closed per
 * request) and servers that stay connected to a `DirectTransport` (`serveDirect`). Nothing of a
 * request stays on a server: tool calls read the caller from the request being served, and a
 * stateless server keeps no session.
 */
export class McpServerPool {
  private readonly idle = new Map<string, Pooled[]>();

  /** @param maxIdle most idle servers kept per tool set and kind (more are built under load, then dropped) */
  constructor(
    private readonly services: ToolServices,
    private readonly logger: Logger,
    private readonly maxIdle = 16,
  ) {}

  /** Every caller is served by a server holding every tool (DESIGN D4: all tools are listed). */
  private toolsFor(_caller: Caller): { tools: readonly AnyTool[]; key: string } {
    return ALL;
  }

  /** An idle server of `key`, or a new one holding `tools` (connected to a direct transport when `direct`). */
  private async take(key: string, tools: readonly AnyTool[], direct: boolean): Promise<Pooled> {
    const entry = this.idle.get(key)?.pop();
    if (entry) return entry;
    const built: Pooled = { server: undefined as unknown as McpServer };
    built.server = serverWith(tools, this.services, this.logger, () => {
      if (!built.serving) throw new Error('mcp: tool call outside a request');
      return built.serving;
    });
    if (direct) {
      built.direct = new DirectTransport();
      await built.server.connect(built.direct);
    }
    return built;
  }

  private giveBack(key: string, entry: Pooled): void {
    const kept = this.idle.get(key) ?? [];
    if (kept.length < this.maxIdle) {
      kept.push(entry);
      this.idle.set(key, kept);
    } else if (entry.direct) {
      void entry.server.close();
    }
  }

  /**
   * Runs `use` with a pooled server; `use` must connect
   * it to a transport and close it before it returns (as `serveWithSdk` does).
   */
  async serve(scope: CallScope, use: (server: McpServer) => Promise<void>): Promise<void> {
    const { tools, key } = this.toolsFor(scope.caller);
    const entry = await this.take(key, tools, false);
    entry.serving = scope;
    try {
      await use(entry.server);
    } finally {
      entry.serving = undefined;
      // A server still connected (its request failed half-way) is dropped, not reused.
      if (!entry.server.isConnected()) this.giveBack(key, entry);
    }
  }

  /**
   * Runs `use` with a pooled server and the direct
   * transport it stays connected to (transport.ts `serveDirect`).
   */
  async serveDirect(scope: CallScope, use: (transport: DirectTransport) => Promise<void>): Promise<void> {
    const { tools, key } = this.toolsFor(scope.caller);
    const directKey = `direct:${key}`;
    const entry = await this.take(directKey, tools, true);
    entry.serving = scope;
    let answered = false;
    try {
      await use(entry.direct!);
      answered = true;
    } finally {
      entry.serving = undefined;
      // A request that failed half-way may still be running on the server: drop it.
      if (answered) this.giveBack(directKey, entry);
      else void entry.server.close();
    }
  }
}
