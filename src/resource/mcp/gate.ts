/**
 * Looks into the JSON-RPC body before the SDK does (DESIGN D4, MCP authorization spec "scope
 * challenge"): a `tools/call` of a protected tool the caller may not call is answered at the HTTP
 * level, 401 `invalid_token` (no token: start OAuth) or 403 `insufficient_scope` (step-up), with
 * the tool's scopes in `WWW-Authenticate`. A call of a tool that does not exist gets the JSON-RPC
 * error `-32602` (MCP 2025-11-25 tools, "Error Handling").
 */
import { challenge, dpopChallenge } from '../../http/challenge.js';
import { docsLink, withDocs } from '../../http/docs-links.js';
import { decide } from './access.js';
import { findTool } from './tools/registry.js';
import type { Caller } from './tools/types.js';

type RpcId = string | number | null;

/** What the gate found: nothing to say, or a JSON-RPC error to answer instead of the SDK. */
export type GateResult = { pass: true } | { pass: false; id: RpcId; code: number; message: string };

interface ToolCall {
  id: RpcId;
  /** Undefined when `params.name` is missing or not a string. */
  name: string | undefined;
}

function toolCalls(parsed: unknown): ToolCall[] {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const calls: ToolCall[] = [];
  for (const m of messages) {
    if (!m || typeof m !== 'object') continue;
    const msg = m as { method?: unknown; id?: unknown; params?: { name?: unknown } };
    if (msg.method !== 'tools/call') continue;
    const id = typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : null;
    calls.push({ id, name: typeof msg.params?.name === 'string' ? msg.params.name : undefined });
  }
  return calls;
}

/**
 * The scopes of the protected tools a body calls (`tools/call`), space-delimited, or undefined when
 * it calls none: the `scope` a 401 names for it (DESIGN D4).
 */
export function calledToolScopes(parsed: unknown): string | undefined {
  const scopes = new Set<string>();
  for (const call of toolCalls(parsed)) {
    const tool = call.name === undefined ? undefined : findTool(call.name);
    for (const s of tool?.scopes ?? []) scopes.add(s);
  }
  return scopes.size ? [...scopes].join(' ') : undefined;
}

/**
 * Checks every `tools/call` of the body.
 * @param docsUrl DOCS_URL, for the `error_uri` and the member-data advice of the challenge
 * @throws HttpError 401/403 with the `WWW-Authenticate` challenge of SPEC §5.7
 */
export function gateToolCalls(parsed: unknown, caller: Caller, baseUrl: string, docsUrl: string): GateResult {
  for (const call of toolCalls(parsed)) {
    const tool = call.name === undefined ? undefined : findTool(call.name);
    if (!tool) {
      if (Array.isArray(parsed)) continue; // inside a batch the SDK answers that entry itself
      const message =
        call.name === undefined
          ? 'Invalid params: tools/call needs params.name (a string)'
          : `Unknown tool: ${call.name.slice(0, 100)}`;
      return { pass: false, id: call.id, code: -32602, message };
    }
    const decision = decide(tool, caller);
    if (!decision.allowed) {
      const topic = decision.memberData ? 'memberAccess' : 'challenges';
      const description = withDocs(decision.description, docsUrl, topic);
      // RFC 9449 §7.1: a request made with DPoP is challenged in the DPoP scheme (the 403 step-up).
      throw caller.principal?.scheme === 'DPoP' && decision.error === 'insufficient_scope'
        ? dpopChallenge(baseUrl, 'insufficient_scope', description, decision.scope, docsLink(docsUrl, topic))
        : challenge(baseUrl, decision.status, decision.error, description, decision.scope, docsLink(docsUrl, topic));
    }
  }
  return { pass: true };
}
