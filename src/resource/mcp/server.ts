/**
 * Builds the MCP server of one request (stateless, DESIGN §1): a fresh `McpServer` holding only
 * the tools the caller may call, so `tools/list` shows exactly those. Tool results carry both
 * `structuredContent` (checked against the output schema) and a JSON text block for clients that
 * read `content` only.
 */
import { isStoreOutage } from '../../ops/store-outage.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Logger } from 'pino';
import { toolError } from '../../errors/surfaces/jsonrpc.js';
import { visibleTools } from './access.js';
import { TOOLS } from './tools/registry.js';
import type { AnyTool, Caller, ToolServices } from './tools/types.js';

export const SERVER_INFO = { name: 'coursegate', title: 'coursegate course platform', version: '0.1.0' } as const;

const INSTRUCTIONS = [
  'Tools of an online-course platform.',
  'Without a token: the public catalogue (search_courses, get_course) and how_to_connect.',
  'Members (account:read / account:write): their enrollments, progress, orders and event registrations.',
  'Site owners and admins (operator scopes): courses, curriculum, students, members, orders, analytics, events and coupons.',
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
async function runTool(tool: AnyTool, args: Record<string, unknown>, caller: Caller, services: ToolServices, logger: Logger, requestId: string, onOutage?: (err: unknown) => void): Promise<CallToolResult> {
  // Audit line per call: who (sub, site), which tool, outcome. Never arguments or tokens.
  const audit = { req_id: requestId, tool: tool.name, sub: caller.principal?.userId, org_id: caller.principal?.siteId, client_id: caller.principal?.clientId };
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
    logger.error({ req_id: requestId, tool: tool.name, err: { type: (err as Error)?.name, message: (err as Error)?.message } }, 'mcp tool failed');
    return { isError: true, content: [{ type: 'text', text: `internal error in ${tool.name} (request id ${requestId}); try again later` }] };
  }
}

/**
 * A server for one request.
 * @param caller who calls (anonymous or a principal with its roles)
 * @param requestId the request id, quoted in internal-error results for support
 * @param onOutage told when a tool met a store outage (the request then answers 503)
 * @param onlyTool when the request is one `tools/call` of a tool the caller may call: register that
 *   tool only (the answer is the same; registering every visible tool's schemas is per-request work
 *   a single call does not need, issue #15)
 */
export function buildMcpServer(
  caller: Caller,
  services: ToolServices,
  logger: Logger,
  requestId: string,
  onOutage?: (err: unknown) => void,
  onlyTool?: string,
): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator: JSON_SCHEMA_VALIDATOR });
  const visible = visibleTools(TOOLS, caller);
  const single = onlyTool === undefined ? undefined : visible.find((t) => t.name === onlyTool);
  for (const tool of single ? [single] : visible) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.scopes.length ? `${tool.description} Needs: ${tool.scopes.join(' ')}.` : tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.title, ...tool.annotations },
        _meta: { 'coursegate/scopes': [...tool.scopes], 'coursegate/audience': tool.audience },
      },
      (async (args: Record<string, unknown>) => runTool(tool, args, caller, services, logger, requestId, onOutage)) as never,
    );
  }
  // McpServer announces `tools.listChanged: true` once a tool is registered, but a stateless
  // endpoint (GET /mcp is 405) never sends notifications/tools/list_changed: say so (issue #12).
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}
