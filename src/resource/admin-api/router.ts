/**
 * The `/api/v1` router, generated from the operation list (DESIGN D4, D9). Each route is a named
 * pipeline, read top to bottom:
 *
 *   requireScope → requireOperatorRole → readJsonBody → parseRequest → replayIdempotent
 *     → runThroughOperations (src/operations/runner.ts: If-Match, run, audit)
 *
 * The bearer step runs before the router: it is the `admin_api` row's (route table `auth: bearer`,
 * src/pipelines/assemble.ts), so no path under `/api/v1` answers a caller without a valid token.
 * Refusals are thrown to the edge, whose renderer draws them as RFC 9457 problem+json (the row's
 * surface `problem`, src/errors/render.ts); the router catches nothing. GET answers carry a strong `ETag` (and honour
 * `If-None-Match`); updates that declare `ifMatch` refuse a stale `If-Match` with 412; creating
 * POSTs (201) honour `Idempotency-Key` (per site, client and user) and send `Location`.
 *
 * This router is one of three adapters over the operations layer (src/operations/runner.ts): the
 * precondition, the operation and its audit record are the runner's; the router adds HTTP (token,
 * scope, JSON, ETag, Idempotency-Key, status codes).
 */
import { createHash } from 'node:crypto';
import Router from '@koa/router';
import { parseJson } from '../../http/body.js';
import type { Context, Middleware } from 'koa';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import { isOperator } from '../../platform/accounts.js';
import type { IdempotencyKeys } from '../../platform/idempotency.js';
import { requireScopes, type Principal } from '../bearer.js';
import { challenge } from '../../http/challenge.js';
import type { AdminServices, Operation } from '../../operations/operation.js';
import { runOperation, tagOf, type Actor } from '../../operations/runner.js';
import { inputSchemas, parseInput } from './input.js';
import { InputError, MethodNotAllowed, NotFound } from '../../errors/catalogue.js';
import { OPERATIONS } from '../../operations/index.js';
import type { AuditTrail } from '../../platform/audit.js';
import { readUpload, type UploadedPart } from './upload.js';
import { CSV_MEDIA_TYPE, csvColumns, csvExport, wantsCsv } from './csv-export.js';

export interface AdminRouterDeps {
  provider: Provider;
  baseUrl: string;
  docsUrl: string;
  services: AdminServices;
  idempotency: IdempotencyKeys;
  logger?: Logger;
  /** Defaults to every declared operation. */
  operations?: readonly Operation[];
  /** Unused: every successful non-GET operation is recorded by the runner (src/operations/runner.ts) in `services.audit`. */
  audit?: AuditTrail;
  /** Largest uploaded file in bytes (`UPLOAD_MAX_BYTES`); defaults to 5 MiB. */
  uploadMaxBytes?: number;
}

interface AdminState {
  principal: Principal;
  input: {
    params: Record<string, unknown>;
    query: Record<string, unknown>;
    body: Record<string, unknown>;
    file?: UploadedPart;
  };
  idempotencyKey?: string;
}

const state = (ctx: Context): AdminState => ctx.state as AdminState;

/** `{name}` (OpenAPI) → `:name` (Koa router). */
export const koaPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

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
  const json = parseJson(['application/json', 'application/merge-patch+json']);
  const actorOf = (ctx: Context): Actor => {
    const { principal } = state(ctx);
    return { siteId: principal.siteId, userId: principal.userId, clientId: principal.clientId, surface: 'api' };
  };

  /**
   * DESIGN D2: the admin API needs an operator role at the token's site *now*. The 403 carries the
   * `WWW-Authenticate` challenge like every 401/403 (issue #9, `challenge()`).
   */
  const requireOperatorRole =
    (scope: string): Middleware =>
    async (ctx, next) => {
      // The roles the shared bearer step read at this request (`Accounts.liveMemberAt`).
      const { roles } = (ctx.state as { principal: Principal }).principal;
      if (!isOperator(roles ?? []))
        throw challenge(
          deps.baseUrl,
          403,
          'access_denied',
          'the admin API needs an owner or admin role at the site',
          scope,
        );
      await next();
    };

  for (const op of operations) {
    const schemas = inputSchemas(op);
    const requireScope: Middleware = async (ctx, next) => {
      requireScopes(deps.baseUrl, (ctx.state as { principal: Principal }).principal, [op.scope]);
      await next();
    };
    const parseRequest: Middleware = async (ctx, next) => {
      state(ctx).input = parseInput(op, schemas, {
        params: ctx.params as Record<string, unknown>,
        query: ctx.query as Record<string, unknown>,
        body: ctx.request.body,
      });
      if (ctx.state.upload) state(ctx).input.file = ctx.state.upload;
      await next();
    };
    const replayIdempotent: Middleware = async (ctx, next) => {
      const key = ctx.get('idempotency-key');
      if (!key) return next();
      if (!IDEMPOTENCY_KEY.test(key))
        throw new InputError([
          { in: 'header', pointer: '/Idempotency-Key', detail: 'must be 1–255 visible ASCII characters' },
        ]);
      // Issue #25 finding 16: keys are the caller's own (site, client, user).
      const { siteId, clientId, userId } = state(ctx).principal;
      const owner = { siteId, clientId, userId };
      const { file, ...input } = state(ctx).input;
      const fileHash = file ? createHash('sha256').update(file.bytes).digest('hex') : undefined;
      const fingerprint = createHash('sha256')
        .update(`${op.id}\n${JSON.stringify({ ...input, file: fileHash })}`)
        .digest('hex');
      const stored = await deps.idempotency.claim(owner, `${op.id} ${key}`, fingerprint);
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
        await deps.idempotency.release(owner, `${op.id} ${key}`);
        throw err;
      }
      await deps.idempotency.complete(owner, `${op.id} ${key}`, {
        status: ctx.status,
        body: withoutOneTimeSecrets(ctx.body),
        location: ctx.response.get('Location') || null,
      });
    };
    const columns = op.csv ? csvColumns(op) : undefined;
    const runThroughOperations: Middleware = async (ctx) => {
      if (columns) {
        // The JSON page or the whole list as CSV, chosen by Accept (RFC 9110 §12.5.1).
        ctx.vary('Accept');
        if (wantsCsv(ctx)) {
          const day = new Date().toISOString().slice(0, 10);
          ctx.set('Cache-Control', 'no-store');
          ctx.set('Content-Disposition', `attachment; filename="${op.tag}-${actorOf(ctx).siteId}-${day}.csv"`);
          ctx.type = CSV_MEDIA_TYPE;
          ctx.body = csvExport(op, columns, state(ctx).input, actorOf(ctx), deps.services);
          return;
        }
      }
      const wanted = op.ifMatch ? ctx.get('if-match') : '';
      const ifMatch = wanted
        ? wanted
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean)
        : undefined;
      const result = await runOperation(op, state(ctx).input, actorOf(ctx), deps.services, { ifMatch });
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
        ctx.set('ETag', await tagOf(op, state(ctx).input, result, actorOf(ctx), deps.services));
        if (op.method === 'get' && ctx.fresh) ctx.status = 304;
      }
    };
    const steps: Middleware[] = [requireScope, requireOperatorRole(op.scope)];
    if (op.body) steps.push(json);
    if (op.upload) steps.push(readUpload(op.upload.field, deps.uploadMaxBytes ?? 5 * 1024 * 1024));
    steps.push(parseRequest);
    if (op.status === 201) steps.push(replayIdempotent);
    steps.push(runThroughOperations);
    router.register(koaPath(op.path), [op.method.toUpperCase()], steps, { name: op.id });
  }

  // Unknown paths under /api/v1 answer problem+json too (not the OAuth JSON of other surfaces).
  const CATCH_ALL = '/api/v1/{*rest}';
  router.all(CATCH_ALL, (ctx) => {
    const allowed = [...new Set((ctx.matched ?? []).filter((l) => l.path !== CATCH_ALL).flatMap((l) => l.methods))];
    if (allowed.length > 0) {
      throw new MethodNotAllowed(
        `${ctx.method} is not allowed on ${ctx.path} (allowed: ${allowed.join(', ')})`,
        allowed,
      );
    }
    throw new NotFound(`no admin operation at ${ctx.method} ${ctx.path}; see /openapi.json`);
  });
  return router;
}
