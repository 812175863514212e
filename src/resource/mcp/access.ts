/**
 * Who may call which tool (DESIGN D2, D4; SPEC §5.7), as one function used to answer `tools/call`
 * with the HTTP challenge the MCP authorization spec expects (401 starts OAuth, 403
 * `insufficient_scope` asks for step-up), and how each tool says so in `tools/list` (issue #26:
 * every tool is listed to every caller, with whom it is for and what it needs).
 */
import { isOperator } from '../../platform/accounts.js';
import { MEMBER_SCOPES, narrowest, satisfies } from '../../domain/scopes.js';
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
 * - token without a needed scope (a held `X:write` counts for `X:read`, DESIGN D4): 403
 *   `insufficient_scope`, `scope` = the token's scopes plus the tool's (narrowest, `narrowest`), so
 *   that step-up keeps what was granted and the consent page names it all again;
 * - operator tools also need an `owner` or `admin` role at the token's site, read now (a role
 *   taken away after the token was issued ends access at once): 403 otherwise.
 */
export function decide(tool: AnyTool, caller: Caller): ToolAccess {
  if (tool.audience === 'public') return { allowed: true };
  const needed = narrowest(tool.scopes).join(' ');
  const { principal } = caller;
  // Member tools need the site's member client (DESIGN D2): say so to a caller without a member
  // token, since a generic MCP client's step-up to account:* is refused by the authorization server.
  const memberToken = !!principal && [...principal.scopes].some((s) => MEMBER_SCOPES.has(s));
  const memberData = tool.audience === 'member' && !memberToken;
  const how = memberData
    ? "; member tools need a token from the site's member client (ask the site operator for its client_id)"
    : tool.audience === 'operator' && memberToken
      ? ": this is an operator tool for the site's owners and admins, which a member client cannot request (sign in with an application registered at /api/oauth/register as an owner or admin)"
      : '';
  if (!principal) {
    return {
      allowed: false,
      status: 401,
      error: 'invalid_token',
      description: `the tool ${tool.name} needs an access token with the scope ${needed}${how}`,
      scope: needed,
      memberData,
    };
  }
  const missing = tool.scopes.filter((s) => !satisfies(principal.scopes, s));
  if (missing.length > 0) {
    // A member token cannot grow into operator scopes (its client may not ask for them): name the tool's own.
    const wanted =
      tool.audience === 'operator' && memberToken
        ? needed
        : [...new Set([...principal.scopes, ...narrowest(tool.scopes)])].join(' ');
    return {
      allowed: false,
      status: 403,
      error: 'insufficient_scope',
      description: `the tool ${tool.name} needs the scope ${missing.join(' ')}: authorize again for the scopes named in this challenge${how}`,
      scope: wanted,
      memberData,
    };
  }
  if (tool.audience === 'operator' && !isOperator(caller.roles)) {
    return {
      allowed: false,
      status: 403,
      error: 'insufficient_scope',
      description: `the tool ${tool.name} needs an owner or admin role at the site ${principal.siteId}`,
      scope: needed,
      memberData: false,
    };
  }
  return { allowed: true };
}

/** Whom each audience is for, as the first words of a listed tool's description. */
const FOR: Readonly<Record<AnyTool['audience'], string>> = {
  public: 'For everyone, no sign-in needed.',
  member:
    "For members of the site, about their own enrollments, progress and orders: sign in through the site's member client.",
  operator: "For the site's owners and admins only (operator tool): sign in as an owner or admin.",
};

/**
 * The description `tools/list` shows for `tool` (DESIGN D4): whom it is for, then what it does,
 * then the scopes it needs, so that a model choosing among listed tools, and a person reading
 * them, can tell a member's tool from an operator's.
 */
export function listedDescription(tool: AnyTool): string {
  const needs = tool.scopes.length
    ? ` Needs the OAuth scope ${tool.scopes.join(' ')}; calling it without that answers HTTP 401/403 with the scope to ask for.`
    : '';
  // Operation summaries shared with the OpenAPI document end without a full stop; the listed text
  // is read as sentences, so it gets one before the scope sentence.
  const what = tool.description.trim();
  return `${FOR[tool.audience]} ${/[.!?]$/.test(what) ? what : `${what}.`}${needs}`;
}

/**
 * The `_meta` of a listed tool (MCP 2025-11-25 `Tool._meta`):
 * - `securitySchemes`: the per-tool authentication of the OpenAI Apps SDK, which ChatGPT reads
 *   (`noauth` for public tools, `oauth2` with the tool's scopes otherwise);
 * - `coursegate/audience` (`public` | `member` | `operator`) and `coursegate/scopes`, the same
 *   facts for any other host (also in `/.well-known/coursegate-scope-map.json`).
 */
export function listedMeta(tool: AnyTool): Record<string, unknown> {
  return {
    securitySchemes: tool.scopes.length ? [{ type: 'oauth2', scopes: [...tool.scopes] }] : [{ type: 'noauth' }],
    'coursegate/audience': tool.audience,
    'coursegate/scopes': [...tool.scopes],
  };
}
