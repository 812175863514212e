/**
 * Who may call which tool (DESIGN D2, D4; SPEC §5.7), as one function used both to filter
 * `tools/list` and to answer `tools/call` with the HTTP challenge the MCP authorization spec
 * expects (401 starts OAuth, 403 `insufficient_scope` asks for step-up).
 */
import { isOperator } from '../../platform/accounts.js';
import { MEMBER_SCOPES } from '../../domain/scopes.js';
import type { AnyTool, Caller } from './tools/types.js';

/** The outcome for one tool and one caller. `scope` is what the client should ask for next. */
export type ToolAccess =
  | { allowed: true }
  | {
      allowed: false;
      status: 401 | 403;
      error: 'invalid_token' | 'insufficient_scope';
      description: string;
      scope: string;
      /** True when the refusal is about member data, which needs the site's member client. */
      memberData: boolean;
    };

/**
 * Decides whether `caller` may call `tool`.
 * - public tools: everyone;
 * - no token: 401 `invalid_token` with the tool's scopes (the client starts OAuth);
 * - token without a needed scope: 403 `insufficient_scope`, `scope` = the token's scopes plus the
 *   missing ones, so that step-up keeps what was granted;
 * - operator tools also need an `owner` or `admin` role at the token's site, read now (a role
 *   taken away after the token was issued ends access at once): 403 otherwise.
 */
export function decide(tool: AnyTool, caller: Caller): ToolAccess {
  if (tool.audience === 'public') return { allowed: true };
  const needed = tool.scopes.join(' ');
  const { principal } = caller;
  // Member tools need the site's member client (DESIGN D2): say so to a caller without a member
  // token, since a generic MCP client's step-up to account:* is refused by the authorization server.
  const memberData = tool.audience === 'member' && !(principal && [...principal.scopes].some((s) => MEMBER_SCOPES.has(s)));
  const how = memberData ? "; member tools need a token from the site's member client (ask the site operator for its client_id)" : '';
  if (!principal) {
    return { allowed: false, status: 401, error: 'invalid_token', description: `the tool ${tool.name} needs an access token with the scope ${needed}${how}`, scope: needed, memberData };
  }
  const missing = tool.scopes.filter((s) => !principal.scopes.has(s));
  if (missing.length > 0) {
    const wanted = [...new Set([...principal.scopes, ...tool.scopes])].join(' ');
    return { allowed: false, status: 403, error: 'insufficient_scope', description: `the tool ${tool.name} needs the scope ${missing.join(' ')}: authorize again for the scopes named in this challenge${how}`, scope: wanted, memberData };
  }
  if (tool.audience === 'operator' && !isOperator(caller.roles)) {
    return { allowed: false, status: 403, error: 'insufficient_scope', description: `the tool ${tool.name} needs an owner or admin role at the site ${principal.siteId}`, scope: needed, memberData: false };
  }
  return { allowed: true };
}

/** The tools `caller` may call: exactly what `tools/list` shows. */
export function visibleTools(tools: readonly AnyTool[], caller: Caller): AnyTool[] {
  return tools.filter((t) => decide(t, caller).allowed);
}
