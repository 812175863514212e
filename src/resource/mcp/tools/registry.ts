/**
 * The tool registry of `/mcp`: every tool, once. `tools/list`, the 401/403 gate (DESIGN D4) and
 * the published scope map (`scope-map.ts`) are all derived from this list.
 */
import { z } from 'zod';
import { SCOPES } from '../../../domain/scopes.js';
import { resourceMetadataUrl } from '../../../http/challenge.js';
import { defineTool, READ, type AnyTool } from './types.js';
import { searchCourses, getCourse } from './public.js';
import { myEnrollments, continueWatching, myOrders, myEventRegistrations, recordProgress } from './member.js';
import { OPERATOR_TOOLS } from '../../admin-api/mcp-tools.js';

const DOMAIN_TOOLS: readonly AnyTool[] = [
  searchCourses,
  getCourse,
  myEnrollments,
  continueWatching,
  myOrders,
  myEventRegistrations,
  recordProgress,
  // Operator tools: generated views of the admin operations (src/operations/).
  ...OPERATOR_TOOLS,
];

/** Scope → the tools it unlocks (tools needing several scopes appear under each). */
export function toolsByScope(tools: readonly AnyTool[] = DOMAIN_TOOLS): Map<string, AnyTool[]> {
  const map = new Map<string, AnyTool[]>();
  for (const t of tools) for (const s of t.scopes) map.set(s, [...(map.get(s) ?? []), t]);
  return map;
}

const howToConnect = defineTool({
  name: 'how_to_connect',
  title: 'How to connect',
  description:
    'Explains how to sign in (OAuth 2.1 authorization code + PKCE against this server) and which scope unlocks which tool. Members use account:read / account:write; site owners and admins use the operator scopes.',
  audience: 'public',
  scopes: [],
  input: {},
  output: {
    resource: z.string(),
    authorizationServer: z.string(),
    resourceMetadata: z.string(),
    flow: z.string(),
    scopes: z.array(
      z.object({
        scope: z.string(),
        description: z.string(),
        audience: z.enum(['member', 'operator']),
        tools: z.array(z.string()),
      }),
    ),
  },
  annotations: READ,
  async run(_args, ctx) {
    const base = ctx.services.baseUrl;
    return {
      resource: base,
      authorizationServer: base,
      resourceMetadata: resourceMetadataUrl(base),
      flow:
        'Authorization Code with PKCE (S256) and resource=' +
        base +
        '. Loopback apps register at /api/oauth/register; members use a client created by their site operator.',
      scopes: [...toolsByScope()].map(([scope, tools]) => ({
        scope,
        description: SCOPES[scope] ?? scope,
        audience: tools[0]!.audience === 'member' ? ('member' as const) : ('operator' as const),
        tools: tools.map((t) => t.name),
      })),
    };
  },
});

/** Every tool of `/mcp`, in `tools/list` order. */
export const TOOLS: readonly AnyTool[] = [howToConnect, ...DOMAIN_TOOLS];

const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

/** The tool with this name, or undefined. */
export const findTool = (name: string): AnyTool | undefined => BY_NAME.get(name);
