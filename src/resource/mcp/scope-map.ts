/**
 * The machine-readable scope map: which scope (SPEC §2.5) unlocks which MCP tool, Account API
 * GraphQL field and admin API operation. Generated from the code, never kept by hand:
 * - MCP tools from the tool registry (`tools/registry.ts`);
 * - GraphQL fields from `account-graphql/schema.graphql` (DESIGN D4: queries need `account:read`,
 *   mutations `account:write`);
 * - admin operations from the OpenAPI document's `security` requirements (`/openapi.json`).
 * Served at `/.well-known/coursegate-scope-map.json` (see docs/mcp.md).
 */
import { readFileSync } from 'node:fs';
import { buildSchema, isObjectType } from 'graphql';
import { ALL_SCOPES, IDENTITY_SCOPES, IMPLIES, MEMBER_SCOPES, SCOPES } from '../../domain/scopes.js';
import { TOOLS } from './tools/registry.js';

export interface ScopeEntry {
  description: string;
  audience: 'identity' | 'member' | 'operator';
  /**
   * The scopes this one satisfies too (DESIGN D4 scope hierarchy): `X:write` → `[X:read]`. A token
   * with this scope also unlocks what the implied scopes' entries list.
   */
  implies: string[];
  mcp_tools: string[];
  graphql_fields: string[];
  admin_operations: string[];
}

export interface ScopeMap {
  resource: string;
  generated_from: string[];
  scopes: Record<string, ScopeEntry>;
  mcp_public_tools: string[];
  mcp_tools: Record<string, { scopes: string[]; audience: string; read_only: boolean; destructive: boolean }>;
}

/** `Type.field` of every object-type field of the Account API, by the scope it needs. */
function graphqlFields(): { read: string[]; write: string[] } {
  const sdl = readFileSync(new URL('../account-graphql/schema.graphql', import.meta.url), 'utf8');
  const schema = buildSchema(sdl);
  const mutation = schema.getMutationType()?.name;
  const read: string[] = [];
  const write: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.keys(type.getFields()))
      (type.name === mutation ? write : read).push(`${type.name}.${field}`);
  }
  return { read, write };
}

/** `METHOD /path` of every OpenAPI operation that names oauth2 scopes, by scope. */
function adminOperations(openapi: Record<string, unknown>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const paths = (openapi.paths ?? {}) as Record<string, Record<string, { security?: Array<Record<string, string[]>> }>>;
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/api/v1/')) continue; // the admin API only (UserInfo and GraphQL are listed elsewhere)
    for (const [method, op] of Object.entries(item)) {
      for (const requirement of op?.security ?? []) {
        for (const scope of requirement.oauth2 ?? [])
          out.set(scope, [...(out.get(scope) ?? []), `${method.toUpperCase()} ${path}`]);
      }
    }
  }
  return out;
}

/** Builds the map for one deployment. */
export function scopeMap(baseUrl: string, openapi: Record<string, unknown>): ScopeMap {
  const gql = graphqlFields();
  const admin = adminOperations(openapi);
  const scopes: Record<string, ScopeEntry> = {};
  for (const scope of ALL_SCOPES) {
    scopes[scope] = {
      description: SCOPES[scope]!,
      audience: IDENTITY_SCOPES.has(scope) ? 'identity' : MEMBER_SCOPES.has(scope) ? 'member' : 'operator',
      implies: [...(IMPLIES[scope] ?? [])],
      mcp_tools: TOOLS.filter((t) => t.scopes.includes(scope)).map((t) => t.name),
      graphql_fields: scope === 'account:read' ? gql.read : scope === 'account:write' ? gql.write : [],
      admin_operations: admin.get(scope) ?? [],
    };
  }
  return {
    resource: baseUrl,
    generated_from: [
      'src/resource/mcp/tools/registry.ts',
      'src/resource/account-graphql/schema.graphql',
      '/openapi.json',
    ],
    scopes,
    mcp_public_tools: TOOLS.filter((t) => t.scopes.length === 0).map((t) => t.name),
    mcp_tools: Object.fromEntries(
      TOOLS.map((t) => [
        t.name,
        {
          scopes: [...t.scopes],
          audience: t.audience,
          read_only: t.annotations.readOnlyHint,
          destructive: t.annotations.destructiveHint,
        },
      ]),
    ),
  };
}
