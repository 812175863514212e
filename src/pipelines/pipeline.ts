/**
 * Endpoint pipelines and the dispatcher (issue #9), in the style of oidc-provider's
 * `lib/actions/*.js`: each route-table row (`src/http/route-table.ts`, keyed by its `name`) has one
 * list of named steps, read top to bottom as the endpoint's story, e.g.
 *
 *   token: [limitBody, limitByClient, answerOutageAs503, explainMetadataFailure, nameIdentityScopes, settleRefreshRotation, handToProvider]
 *
 * of which a family declares only its own (`nameIdentityScopes, settleRefreshRotation`); the others
 * are produced by the row's columns (`body`, `rateLimit`, `auth`, `owner`) and placed by
 * `assemblePipelines` (src/pipelines/assemble.ts, issue #27).
 *
 * After the edge steps (src/app.ts) the route is resolved once (`ctx.state.route`) and `dispatch`
 * runs **only that route's pipeline**: no router walk, no step a route does not need. A request no
 * row matches gets the 404 answer; a method the row does not list gets 405 with `Allow` (OPTIONS:
 * 204 with `Allow`), unless the pipeline answers every method itself (oidc-provider's own router
 * and its CORS preflights; `/mcp`'s JSON-RPC 405).
 *
 * The pipelines are declared by family, one file each: `oauth.ts` (oidc-provider's endpoints),
 * `resource.ts` (UserInfo, `/account/graphql`, `/mcp`, files), `admin-api.ts` (`/api/v1/*`),
 * `interaction.ts` (login, site choice, consent, invitations), `people.ts` (`/`, `/signin`,
 * `/account/connections`, `/set-password`, `/admin`), `ops.ts` (health, metrics, metadata, docs).
 */
import compose from 'koa-compose';
import type Koa from 'koa';
import { MethodNotAllowed, NotFound } from '../errors/catalogue.js';
import { ROUTE_TABLE, type RouteSpec } from '../http/route-table.js';

/** One named step of a pipeline: a Koa middleware (a named function, so a reader sees its name). */
export type Step = Koa.Middleware;

/** One endpoint's declared steps. */
export interface Pipeline {
  readonly steps: readonly Step[];
  /**
   * `row` (default): a method the route-table row does not list is answered 405 + `Allow` before
   * any step runs. `steps`: the steps answer every method (oidc-provider's router, `/mcp`).
   */
  readonly methods: 'row' | 'steps';
  /**
   * Steps that answer before the row's authentication (`withPublicPage`, src/pipelines/assemble.ts):
   * a page a browser asks for without a token (GraphiQL in development). Usually none.
   */
  readonly publicSteps?: readonly Step[];
}

/** The pipelines of a family, keyed by route-table row name. */
export type Pipelines = Record<string, Pipeline>;

/** A pipeline whose method check is the row's `methods`. */
export const pipeline = (...steps: Step[]): Pipeline => ({ steps, methods: 'row' });

/** A pipeline whose steps answer every method themselves. */
export const answersEveryMethod = (...steps: Step[]): Pipeline => ({ steps, methods: 'steps' });

/**
 * The 404 of the origin, rendered by the one error renderer (src/errors/render.ts, via the edge):
 * with no route the OAuth surface (RFC 6749 §5.2 JSON, SPEC §7), else the route's surface.
 * @throws NotFound always
 */
export function answerNotFound(ctx: Koa.Context): never {
  throw new NotFound(`no resource at ${ctx.path}`);
}

const noop = () => Promise.resolve();

interface Compiled {
  run: (ctx: Koa.Context, next: () => Promise<void>) => Promise<unknown>;
  /** Whether the row's `methods` are checked before the steps run (OPTIONS: see `preflightToSteps`). */
  check: boolean;
  /**
   * OPTIONS goes to the steps instead of the generic 204: oidc-provider's rows, whose router
   * answers CORS preflights (RFC 9110 §9.3.7 and the Fetch standard) with its own headers.
   */
  preflightToSteps: boolean;
  methods: ReadonlySet<string>;
  allowed: readonly string[];
  allow: string;
}

/**
 * The last step of the edge: runs the pipeline of `ctx.state.route`.
 * @param pipelines every family's pipelines (each row name of `table` must have one)
 * @throws Error at build time when a row has no pipeline or a pipeline names no row
 */
export function dispatch(pipelines: Pipelines, table: readonly RouteSpec[] = ROUTE_TABLE): Koa.Middleware {
  const compiled = new Map<string, Compiled>();
  for (const spec of table) {
    const declared = pipelines[spec.name];
    if (!declared) throw new Error(`route ${spec.name} (${spec.path}) has no pipeline`);
    if (compiled.has(spec.name)) continue;
    compiled.set(spec.name, {
      run: compose(declared.steps as Koa.Middleware[]) as Compiled['run'],
      // oidc-provider's rows are checked too (their router would answer an unlisted method 404):
      // every row's `methods` column gives 405 + Allow, whoever owns the row.
      check: declared.methods === 'row' || spec.owner === 'provider',
      preflightToSteps: declared.methods === 'steps' && spec.owner === 'provider',
      methods: new Set(spec.methods),
      allowed: spec.methods,
      allow: spec.methods.join(', '),
    });
  }
  for (const name of Object.keys(pipelines)) {
    if (!compiled.has(name)) throw new Error(`pipeline ${name} names no route-table row`);
  }
  return async function dispatchRoute(ctx) {
    const route = ctx.state.route;
    const target = route && compiled.get(route.spec.name);
    if (!target) return answerNotFound(ctx);
    if (target.check && !target.methods.has(ctx.method) && !(ctx.method === 'OPTIONS' && target.preflightToSteps)) {
      ctx.set('Allow', target.allow);
      if (ctx.method === 'OPTIONS') {
        ctx.status = 204;
        return;
      }
      throw new MethodNotAllowed(`${ctx.method} is not allowed here; allowed: ${target.allow}`, target.allowed);
    }
    await target.run(ctx, noop);
    // A family's router found nothing under its prefix (e.g. /admin/<site>/unknown).
    if (ctx.body === undefined && ctx.status === 404) answerNotFound(ctx);
  };
}

/** A family's router as one step (its own matching among the family's few paths). */
export function routerStep(router: { routes(): unknown }): Step {
  return router.routes() as Step;
}

/**
 * A family router's 405 as a step after its routes: a path of the family that exists with other
 * methods is answered 405 with `Allow`, rendered by the row's surface (src/app.ts edge).
 */
export function methodNotAllowedOf(router: { allowedMethods(): unknown }): Step {
  const allowed = router.allowedMethods() as Step;
  return async function answerMethodNotAllowed(ctx, next) {
    await allowed(ctx, next);
    if (ctx.status === 405 && ctx.body === undefined) {
      const allow = ctx.response.get('Allow');
      throw new MethodNotAllowed(`${ctx.method} is not allowed here; allowed: ${allow}`, allow.split(/,\s*/));
    }
  };
}
