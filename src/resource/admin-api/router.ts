/**
 * The `/api/v1` router, generated from the operation list (DESIGN D4, D9). Each route is a named
 * pipeline, read top to bottom:
 *
 *   renderProblems → authenticate → requireScope → requireOperatorRole → readJsonBody
 *     → parseRequest → checkIfMatch → replayIdempotent → runOperation
 *
 * Refusals are RFC 9457 problem+json (`problem.ts`). GET answers carry a strong `ETag` (and honour
 * `If-None-Match`); updates that declare `ifMatch` refuse a stale `If-Match` with 412; creating
 * POSTs (201) honour `Idempotency-Key` and send `Location`.
 */
import { createHash } from 'node:crypto';
import Router from '@koa/router';
import { parseJson } from '../../http/body.js';
import type { Context, Middleware } from 'koa';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import { isOperator } from '../../platform/accounts.js';
import type { IdempotencyKeys } from '../../platform/idempotency.js';
import { bearer, requireScopes, type Principal } from '../bearer.js';
import { challenge } from '../../http/challenge.js';
import type { AdminServices, Operation, OperationContext } from '../../operations/operation.js';
import { inputSchemas, parseInput } from './input.js';
import { renderProblems } from './problem.js';
import { InputError, MethodNotAllowed, NotFound, PreconditionFailed } from '../../errors/catalogue.js';
import { OPERATIONS } from '../../operations/index.js';
import type { AuditTrail } from '../../platform/audit.js';
import { readUpload, type UploadedPart } from './upload.js';

export interface AdminRouterDeps {
  provider: Provider;
  baseUrl: string;
  docsUrl: string;
  services: AdminServices;
  idempotency: IdempotencyKeys;
  logger?: Logger;
  /** Defaults to every declared operation. */
  operations?: readonly Operation[];
  /** DESIGN D10: every successful non-GET operation is recorded as an operator action. */
  audit?: AuditTrail;
  /** Largest uploaded file in bytes (`UPLOAD_MAX_BYTES`); defaults to 5 MiB. */
  uploadMaxBytes?: number;
}

interface AdminState {
  principal: Principal;
  input: { params: Record<string, unknown>; query: Record<string, unknown>; body: Record<string, unknown>; file?: UploadedPart };
  idempotencyKey?: string;
}

const state = (ctx: Context): AdminState => ctx.state as AdminState;

/** `{name}` (OpenAPI) → `:name` (Koa router). */
export const koaPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** A strong entity tag of a JSON representation (RFC 9110 §8.8.3). */
export const etagOf = (body: unknown): string => `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** Builds the router of every operation, plus problem+json 404s for unknown `/api/v1` paths. */
/**
 * Fields of a creating answer that are shown once and must never be stored (a confidential
 * client's `clientSecret`, an invitation's `acceptUrl`, whose token is kept only as a SHA-256).
 * The idempotency record keeps the answer without them, so a replayed `Idempotency-Key` answers
 * the same status, `Location` and body minus these fields, and the platform store never holds a
 * usable secret in clear.
 */
export const ONE_TIME_FIELDS: ReadonlySet<string> = new Set(['clientSecret', 'acceptUrl']);

/** `body` with {@link ONE_TIME_FIELDS} removed at its top level (other values unchanged). */
function withoutOneTimeSecrets(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([name]) => !ONE_TIME_FIELDS.has(name)));
}

export function adminApiRouter(deps: AdminRouterDeps): Router {
  const router = new Router();
  const operations = deps.operations ?? OPERATIONS;
  const byId = new Map(operations.map((o) => [o.id, o]));
  const problems = renderProblems(deps.docsUrl, deps.logger);
  const authenticate = bearer(deps.provider, deps.baseUrl, deps.services.accounts);
  const json = parseJson(['application/json', 'application/merge-patch+json']);
  const contextOf = (ctx: Context): OperationContext => ({ siteId: state(ctx).principal.siteId, userId: state(ctx).principal.userId, services: deps.services });

  /**
   * DESIGN D2: the admin API needs an operator role at the token's site *now*. The 403 carries the
   * `WWW-Authenticate` challenge like every 401/403 (issue #9, `challenge()`).
   */
  const requireOperatorRole =
    (scope: string): Middleware =>
    async (ctx, next) => {
      // The roles the shared bearer step read at this request (`Accounts.liveMemberAt`).
      const { roles } = (ctx.state as { principal: Principal }).principal;
      if (!isOperator(roles ?? [])) throw challenge(deps.baseUrl, 403, 'access_denied', 'the admin API needs an owner or admin role at the site', scope);
      await next();
    };

  for (const op of operations) {
    const schemas = inputSchemas(op);
    const requireScope: Middleware = async (ctx, next) => {
      requireScopes(deps.baseUrl, (ctx.state as { principal: Principal }).principal, [op.scope]);
      await next();
    };
    const parseRequest: Middleware = async (ctx, next) => {
      state(ctx).input = parseInput(op, schemas, { params: ctx.params as Record<string, unknown>, query: ctx.query as Record<string, unknown>, body: ctx.request.body });
      if (ctx.state.upload) state(ctx).input.file = ctx.state.upload;
      await next();
    };
    const checkIfMatch: Middleware = async (ctx, next) => {
      const wanted = ctx.get('if-match');
      const reader = op.ifMatch ? byId.get(op.ifMatch) : undefined;
      if (wanted && reader) {
        const current = etagOf(await reader.run({ params: state(ctx).input.params, query: {}, body: {} }, contextOf(ctx)));
        const tags = wanted.split(',').map((t) => t.trim());
        if (!tags.includes('*') && !tags.includes(current)) throw new PreconditionFailed('the resource changed since you read it (If-Match does not match its ETag); read it again and retry');
      }
      await next();
    };
    const replayIdempotent: Middleware = async (ctx, next) => {
      const key = ctx.get('idempotency-key');
      if (!key) return next();
      if (!IDEMPOTENCY_KEY.test(key)) throw new InputError([{ in: 'header', pointer: '/Idempotency-Key', detail: 'must be 1–255 visible ASCII characters' }]);
      const siteId = state(ctx).principal.siteId;
      const { file, ...input } = state(ctx).input;
      const fileHash = file ? createHash('sha256').update(file.bytes).digest('hex') : undefined;
      const fingerprint = createHash('sha256').update(`${op.id}\n${JSON.stringify({ ...input, file: fileHash })}`).digest('hex');
      const stored = await deps.idempotency.claim(siteId, `${op.id} ${key}`, fingerprint);
      if (stored) {
        ctx.status = stored.status;
        if (stored.location) ctx.set('Location', stored.location);
        ctx.set('Idempotent-Replayed', 'true');
        ctx.body = stored.body;
        return;
      }
      state(ctx).idempotencyKey = key;
      try {
        await next();
      } catch (err) {
        await deps.idempotency.release(siteId, `${op.id} ${key}`);
        throw err;
      }
      await deps.idempotency.complete(siteId, `${op.id} ${key}`, { status: ctx.status, body: withoutOneTimeSecrets(ctx.body), location: ctx.response.get('Location') || null });
    };
    const runOperation: Middleware = async (ctx) => {
      const result = await op.run(state(ctx).input, contextOf(ctx));
      if (op.method !== 'get' && deps.audit) {
        // The operation and its path parameters only: bodies and results may carry one-time links.
        const { principal, input } = state(ctx);
        await deps.audit.record({ kind: 'operator_action', siteId: principal.siteId, clientId: principal.clientId, userId: principal.userId, detail: `${op.id} ${JSON.stringify(input.params)} (admin API)` });
      }
      const status = op.status ?? 200;
      ctx.set('Cache-Control', 'no-store');
      if (status === 204) {
        ctx.status = 204;
        return;
      }
      ctx.status = status;
      ctx.body = result;
      if (status === 201 && op.location) ctx.set('Location', op.location(result));
      if (op.method === 'get' || op.ifMatch) {
        ctx.set('ETag', etagOf(result));
        if (op.method === 'get' && ctx.fresh) ctx.status = 304;
      }
    };
    const steps: Middleware[] = [problems, authenticate, requireScope, requireOperatorRole(op.scope)];
    if (op.body) steps.push(json);
    if (op.upload) steps.push(readUpload(op.upload.field, deps.uploadMaxBytes ?? 5 * 1024 * 1024));
    steps.push(parseRequest);
    if (op.ifMatch) steps.push(checkIfMatch);
    if (op.status === 201) steps.push(replayIdempotent);
    steps.push(runOperation);
    router.register(koaPath(op.path), [op.method.toUpperCase()], steps, { name: op.id });
  }

  // Unknown paths under /api/v1 answer problem+json too (not the OAuth JSON of other surfaces).
  const CATCH_ALL = '/api/v1/{*rest}';
  router.all(CATCH_ALL, problems, (ctx) => {
    const allowed = [...new Set((ctx.matched ?? []).filter((l) => l.path !== CATCH_ALL).flatMap((l) => l.methods))];
    if (allowed.length > 0) {
      throw new MethodNotAllowed(`${ctx.method} is not allowed on ${ctx.path} (allowed: ${allowed.join(', ')})`, allowed);
    }
    throw new NotFound(`no admin operation at ${ctx.method} ${ctx.path}; see /openapi.json`);
  });
  return router;
}
