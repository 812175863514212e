/**
 * The MCP operator tools as generated views of admin operations (DESIGN D9): an operation with an
 * `mcp` view becomes a tool whose arguments are its path parameters, query and body merged, whose
 * structured result is its response (or `mcp.present` of it), whose input leaves out the fields the
 * view withholds (`mcp.withheld`: a call naming one is refused with the reason), and whose run is the operations
 * runner's (src/operations/runner.ts: the operation's `run` and its audit record, surface `mcp`,
 * issue #25 finding 7). Scope and audience come from the operation; the MCP gate checks them as for
 * any tool.
 */
import { z } from 'zod';
import type { AnyTool, ToolContext } from '../mcp/tools/types.js';
import type { Operation } from '../../operations/operation.js';
import { OPERATIONS } from '../../operations/index.js';
import { runOperation } from '../../operations/runner.js';

const pick = (
  shape: z.ZodRawShape | undefined,
  args: Record<string, unknown>,
  withheld: Readonly<Record<string, string>>,
): Record<string, unknown> =>
  Object.fromEntries(
    Object.keys(shape ?? {})
      .filter((k) => args[k] !== undefined && !(k in withheld))
      .map((k) => [k, args[k]]),
  );

/**
 * The tool's input: the operation's path parameters, query and body, each withheld field replaced
 * by one that accepts no value (absent is fine) and says why in its description and its refusal.
 */
function inputOf(op: Operation, withheld: Readonly<Record<string, string>>): z.ZodRawShape {
  const refusing = Object.fromEntries(
    Object.entries(withheld).map(([field, why]) => [field, z.never({ error: why }).optional().describe(why)]),
  );
  return { ...op.params, ...op.query, ...op.body, ...refusing };
}

/** One operation → one tool. @throws Error at start when an operation's MCP output is not an object */
export function toolOf(op: Operation): AnyTool {
  const view = op.mcp!;
  const withheld = view.withheld ?? {};
  const output = view.output ?? (op.response as unknown as { shape?: z.ZodRawShape } | undefined)?.shape;
  if (!output) throw new Error(`operation ${op.id}: an MCP view needs an object response or mcp.output`);
  return {
    name: view.name,
    title: view.title,
    description: view.description ?? op.description ?? op.summary,
    audience: 'operator',
    scopes: [op.scope],
    input: inputOf(op, withheld),
    output,
    annotations: view.annotations,
    async run(args: Record<string, unknown>, ctx: ToolContext) {
      const principal = ctx.caller.principal;
      if (!principal) throw new Error('operator tools need a signed-in operator (the gate prevents this)');
      const input = {
        params: pick(op.params, args, withheld),
        query: pick(op.query, args, withheld),
        body: pick(op.body, args, withheld),
      };
      const actor = {
        siteId: principal.siteId,
        userId: principal.userId,
        clientId: principal.clientId,
        surface: 'mcp' as const,
      };
      // Issue #29: an operator tool takes its share of the event loop, as `/api/v1` does.
      // `/mcp` is not an operator row: the edge counted this request as other traffic.
      const release = await ctx.services.loopShare.admit({ countedAsOther: true });
      let result: unknown;
      try {
        result = await runOperation(op, input, actor, ctx.services.admin);
      } finally {
        release();
      }
      return view.present ? view.present(result, args) : (result as Record<string, unknown>);
    },
  };
}

/** The operator tools, in operation order. */
export const OPERATOR_TOOLS: readonly AnyTool[] = OPERATIONS.filter((o) => o.mcp).map(toolOf);
