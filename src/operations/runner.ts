/**
 * The one runner of operator actions (issue #27; DESIGN D9, D10, D11). Every surface that offers
 * an admin operation is an adapter over it:
 *
 *   - `/api/v1` (src/resource/admin-api/router.ts): HTTP request → input → `runOperation`;
 *   - MCP operator tools (src/resource/admin-api/mcp-tools.ts): tool arguments → input → `runOperation`;
 *   - `/admin` (src/operator/): form fields → input (`validateInput`) → `runOperation`.
 *
 * One call is: (If-Match precondition, claimed atomically) → the operation's `run` → one audit
 * record naming the site, the acting user and client, the target and the surface. So an action
 * runs the same rules, the same compositions (e.g. "revoke every grant, then delete") and leaves the
 * same audit row whichever surface it came through. Imports no server (no Koa, no MCP SDK).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { auditTarget, type AuditSurface } from '../platform/audit.js';
import { PlatformError } from '../platform/errors.js';
import type { AdminServices, Operation, OperationValues } from './operation.js';
import { OPERATIONS } from './index.js';

export type Surface = AuditSurface;

/** Who runs a call: the operator (already authorized at `siteId`) and where the call came from. */
export interface Actor {
  siteId: string;
  userId: string;
  /** The OAuth client of the token (`/api/v1`, MCP); null in the operator area (a web session). */
  clientId: string | null;
  surface: Surface;
}

/** How each surface is named in audit details. */
export const SURFACE_LABEL: Record<Surface, string> = { api: 'admin API', mcp: 'MCP tool', admin: 'admin area' };

const BY_ID = new Map(OPERATIONS.map((o) => [o.id, o]));
/** Readers whose representation some update guards with If-Match (their tags carry a version). */
const GUARDED: ReadonlySet<string> = new Set(OPERATIONS.flatMap((o) => (o.ifMatch ? [o.ifMatch] : [])));

/** The operation with this id. @throws Error when there is none (a programming error) */
export function operation(id: string): Operation {
  const op = BY_ID.get(id);
  if (!op) throw new Error(`no operation ${id}`);
  return op;
}

/** The key of the representation an If-Match update guards: its reader and its path parameters. */
const resourceKey = (readerId: string, params: Record<string, unknown>): string =>
  `${readerId} ${JSON.stringify(params)}`;

/**
 * The version tag of a representation (the `/api/v1` strong ETag, RFC 9110 §8.8.3): a hash of its
 * version and its JSON. Either changing changes the tag.
 */
export const versionTag = (body: unknown, version: number): string =>
  `"${createHash('sha256')
    .update(`${version}\n${JSON.stringify(body)}`)
    .digest('base64url')
    .slice(0, 27)}"`;

/** The refusal of a stale precondition (`conflict`, reason `precondition_failed`: 412 on `/api/v1`). */
const stale = () =>
  new PlatformError(
    'conflict',
    'the resource changed since you read it (If-Match does not match its ETag); read it again and retry',
    { reason: 'precondition_failed' },
  );

/**
 * The version tag of a call's result: of a reader (`get`) or of an update that declares `ifMatch`
 * (the tag its reader answers now). Representations no update guards have version 0.
 */
export async function tagOf(
  op: Operation,
  input: OperationValues,
  result: unknown,
  actor: Actor,
  services: AdminServices,
): Promise<string> {
  const readerId = op.method === 'get' ? op.id : op.ifMatch;
  const version =
    readerId && GUARDED.has(readerId)
      ? await services.versions.current(actor.siteId, resourceKey(readerId, input.params))
      : 0;
  return versionTag(result, version);
}

/** The default audit target of a write: `<tag>:<path parameters>`, else the created row's id. */
function defaultTarget(op: Operation, input: OperationValues, result: unknown): string {
  const params = Object.values(input.params).map(String);
  if (params.length > 0) return auditTarget(op.tag, params.join('/'));
  const row = result as { id?: unknown; slug?: unknown; clientId?: unknown } | undefined;
  const id = row?.id ?? row?.slug ?? row?.clientId;
  return auditTarget(op.tag, typeof id === 'string' ? id : '');
}

/** The audit target of a call (the operation's own `target`, else the default). */
export const targetOf = (op: Operation, input: OperationValues, result: unknown): string =>
  op.target ? op.target(input, result) : defaultTarget(op, input, result);

/**
 * Runs one call of `op` for `actor` and records it.
 *
 * - Updates that declare `ifMatch`: with `options.ifMatch` (entity tags, `*` allowed) the tag must
 *   be the current one and the version is claimed atomically (src/platform/versions.ts), so of
 *   parallel updates sent with one tag exactly one runs; without, the version moves on anyway.
 * - Every call that is not a read (`get`) is recorded once in the audit trail, after it succeeded
 *   (DESIGN D10): kind `operator_action`, the actor's user and client, `target`, `surface`, and a
 *   detail of the operation id and the surface (never bodies or results: they may carry one-time
 *   links or secrets).
 * @param input validated input (`validateInput`, or the surface's own parser)
 * @throws PlatformError the operation's refusals; `conflict`/`precondition_failed` for a stale tag
 */
export function runOperation(
  op: Operation,
  input: OperationValues,
  actor: Actor,
  services: AdminServices,
  options: { ifMatch?: readonly string[] } = {},
): Promise<unknown> {
  const run = () => runTraced(op, input, actor, services, options);
  return operationSpan
    ? operationSpan(`operation ${op.id}`, { 'coursegate.operation': op.id, 'coursegate.surface': actor.surface }, run)
    : run();
}

/**
 * Set by the tracer when traces are exported (src/ops/tracing.ts): runs an operation inside a span
 * of its own. Undefined when tracing is off (the call then costs one check).
 */
let operationSpan:
  | (<T>(name: string, attributes: Record<string, string>, work: () => Promise<T>) => Promise<T>)
  | undefined;

/** Makes every {@link runOperation} a span of `span` (tracing on), or of nothing (`undefined`). */
export function traceOperationsWith(span: typeof operationSpan): void {
  operationSpan = span;
}

async function runTraced(
  op: Operation,
  input: OperationValues,
  actor: Actor,
  services: AdminServices,
  options: { ifMatch?: readonly string[] },
): Promise<unknown> {
  if (op.ifMatch) {
    const resource = resourceKey(op.ifMatch, input.params);
    const tags = options.ifMatch ?? [];
    if (tags.length > 0 && !tags.includes('*')) {
      const version = await services.versions.current(actor.siteId, resource);
      const current = await operation(op.ifMatch).run(
        { params: input.params, query: {}, body: {} },
        { siteId: actor.siteId, userId: actor.userId, services },
      );
      if (!tags.includes(versionTag(current, version))) throw stale();
      if (!(await services.versions.claim(actor.siteId, resource, version))) throw stale();
    } else {
      await services.versions.bump(actor.siteId, resource);
    }
  }
  const result = await op.run(input, { siteId: actor.siteId, userId: actor.userId, services });
  if (op.method !== 'get') {
    const target = targetOf(op, input, result);
    await services.audit.record({
      kind: 'operator_action',
      siteId: actor.siteId,
      clientId: actor.clientId,
      userId: actor.userId,
      target,
      surface: actor.surface,
      detail: `${op.id} (${SURFACE_LABEL[actor.surface]})`,
    });
  }
  return result;
}

/** One failing input field: `path` into the input part (e.g. `['redirectUris', 0]`), a message for people. */
export interface InputIssue {
  part: 'params' | 'query' | 'body';
  path: (string | number)[];
  message: string;
}

/**
 * Validates raw input against `op`'s zod shapes (params, query, body; unknown body fields refused).
 * For surfaces whose values are already typed (forms mapped by the page, tool arguments);
 * `/api/v1` keeps its own parser, which also turns query strings into numbers and booleans.
 * @returns the validated input, or every failing field
 */
export function validateInput(
  op: Operation,
  raw: { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: Record<string, unknown> },
): { ok: true; input: OperationValues } | { ok: false; issues: InputIssue[] } {
  const parts = [
    ['params', z.object(op.params ?? {}), raw.params ?? {}],
    ['query', z.object(op.query ?? {}), raw.query ?? {}],
    ['body', z.object(op.body ?? {}).strict(), raw.body ?? {}],
  ] as const;
  const out: Record<string, Record<string, unknown>> = {};
  const issues: InputIssue[] = [];
  for (const [part, schema, value] of parts) {
    const parsed = schema.safeParse(value);
    if (parsed.success) out[part] = parsed.data as Record<string, unknown>;
    else
      for (const i of parsed.error.issues)
        issues.push({ part, path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message });
  }
  return issues.length > 0
    ? { ok: false, issues }
    : { ok: true, input: { params: out.params!, query: out.query!, body: out.body! } };
}
