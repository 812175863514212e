/**
 * The shape of an MCP tool of coursegate (DESIGN D4): each tool names its audience and the scopes
 * that unlock it, declares zod input and output schemas and MCP annotations, and runs against the
 * platform services for the caller. The registry (`registry.ts`) is the single source of truth for
 * `tools/list`, the 401/403 decisions and the published scope map.
 */
import type { z } from 'zod';
import type { Principal } from '../../bearer.js';
import type { Accounts } from '../../../platform/accounts.js';
import type { Enrollments } from '../../../platform/enrollments.js';
import type { MemberRef } from '../../../platform/accounts.js';
import type { Catalog } from '../../../platform/catalog.js';
import type { MemberRecords } from '../../../platform/member-records.js';
import type { Orders } from '../../../platform/orders.js';
import type { EventRegistrations } from '../../../platform/events.js';
import type { Progress } from '../../../platform/progress.js';
import type { OperatorServices } from '../../../platform/operator/index.js';
import { PlatformError } from '../../../platform/errors.js';
import type { AdminServices, Hints } from '../../../operations/operation.js';
import type { OperatorLoopShare } from '../../../http/operator-share.js';

export { READ, WRITE, WRITE_IDEMPOTENT, DESTRUCTIVE, type Hints } from '../../../operations/operation.js';

/** Who may see a tool: everyone, a member (account scopes), or a site operator (operator scopes + role). */
export type Audience = 'public' | 'member' | 'operator';

/** The caller of one `/mcp` request. */
export interface Caller {
  /** Undefined for anonymous requests (no token). */
  principal?: Principal;
  /** The principal's roles at its site, read at request time (empty when anonymous). */
  roles: readonly string[];
}

/** The platform services tools run against. */
export interface ToolServices {
  accounts: Accounts;
  enrollments: Enrollments;
  catalog: Catalog;
  /** Continue-watching view (MCP only). */
  records: MemberRecords;
  /** The same member-data services as the Account API (one implementation of each rule). */
  orders: Orders;
  eventRegistrations: EventRegistrations;
  progress: Progress;
  operator: OperatorServices;
  /** The admin API's services: operator tools are views of admin operations (DESIGN D9). */
  admin: AdminServices;
  /** Issue #29: operator tools wait for the operators' share of the event loop (src/http/operator-share.ts). */
  loopShare: Pick<OperatorLoopShare, 'admit'>;
  /** BASE_URL: issuer and protected-resource identifier (for `how_to_connect`). */
  baseUrl: string;
}

export interface ToolContext {
  caller: Caller;
  services: ToolServices;
}

/** One tool. `I`/`O` are zod raw shapes of the arguments and of the structured result. */
export interface ToolDefinition<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  audience: Audience;
  /** Every scope the token must carry (SPEC §2.5); empty for public tools. */
  scopes: readonly string[];
  input: I;
  output: O;
  annotations: Hints;
  /** Runs the tool. Throws `PlatformError` for refusals the caller can fix. */
  run(args: z.infer<z.ZodObject<I>>, ctx: ToolContext): Promise<z.infer<z.ZodObject<O>>>;
}

/** A tool with its types erased, as stored in the registry. */
export interface AnyTool {
  name: string;
  title: string;
  description: string;
  audience: Audience;
  scopes: readonly string[];
  input: z.ZodRawShape;
  output: z.ZodRawShape;
  annotations: Hints;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<Record<string, unknown>>;
}

/** Type-checks a definition and erases its types for the registry. */
export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(def: ToolDefinition<I, O>): AnyTool {
  return def as unknown as AnyTool;
}

/** The member the caller acts as. @throws PlatformError when anonymous (the gate prevents it) */
export function memberOf(ctx: ToolContext): MemberRef {
  const p = ctx.caller.principal;
  if (!p) throw new PlatformError('forbidden', 'this tool needs a signed-in member');
  return { siteId: p.siteId, userId: p.userId };
}

/** The site an operator tool acts on: the token's site (DESIGN D5). */
export function siteOf(ctx: ToolContext): string {
  return memberOf(ctx).siteId;
}
