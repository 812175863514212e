/**
 * `/account/graphql`: the member Account API (SPEC §1, §2.4, §4.3; DESIGN D4) on graphql-yoga.
 *
 * Authentication and the `account:read` requirement are the shared bearer middleware's job
 * (mounted in front of this handler); `account:write` for mutations is write-scope.ts; the limits
 * are limits.ts; resolvers only ever see the principal's (site, user).
 */
import { readFileSync } from 'node:fs';
import type { Context, Middleware } from 'koa';
import { GraphQLError, lexicographicSortSchema, printSchema } from 'graphql';
import { createSchema, createYoga, type Plugin, type YogaLogger } from 'graphql-yoga';
import type { Principal } from '../bearer.js';
import type { AccountContext, AccountServices } from './context.js';
import { KnownDocuments, plainParameters } from './known-documents.js';
import { resolvers } from './resolvers.js';
import { limitPlugins } from './limits.js';
import { writeScopePlugin } from './write-scope.js';
import { PersistedQueryStore, persistedQueriesPlugin } from './persisted-queries.js';
import { errorCodesPlugin } from './error-codes.js';
import { isStoreOutage } from '../../ops/store-outage.js';
import { readText } from '../../http/body.js';

export type { AccountContext, AccountServices } from './context.js';

const typeDefs = readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8');
const schema = createSchema<KoaServerContext & AccountContext>({ typeDefs, resolvers });

/**
 * The Account API schema as SDL, as introspection shows it (types sorted by name): served at
 * `GET /account/graphql/schema.graphql` and committed as docs/account-api.graphql (a test keeps
 * the three equal).
 */
export const ACCOUNT_SCHEMA_SDL = `${printSchema(lexicographicSortSchema(schema))}\n`;

/** Where unexpected resolver errors are reported (type and message only: no request data, no tokens). */
export interface ErrorLog {
  error(fields: Record<string, unknown>, message: string): void;
}

export interface AccountApiDeps {
  services: AccountServices;
  /** BASE_URL: names the RFC 9728 metadata in the 403 challenge. */
  baseUrl: string;
  /** Production: no field suggestions (introspection stays open to authenticated callers). */
  production: boolean;
  log?: ErrorLog;
}

/** The server context yoga receives from Koa. */
export interface KoaServerContext {
  koa: Pick<Context, 'state'>;
}

function yogaLogger(log?: ErrorLog): YogaLogger | false {
  if (!log) return false;
  const ignore = () => undefined;
  return {
    debug: ignore,
    info: ignore,
    warn: ignore,
    error: (...args: unknown[]) => {
      const found = args.find((a): a is Error => a instanceof Error);
      // yoga hands over the GraphQLError wrapping the resolver's error: report the cause.
      const err = found instanceof GraphQLError && found.originalError ? found.originalError : found;
      log.error(
        { err: { type: err?.name ?? 'unknown', message: err?.message ?? String(args[0]) } },
        'account graphql error',
      );
    },
  };
}

/** Where the outage plugin leaves a store outage met by a resolver (`koa.state`). */
const OUTAGE = 'accountGraphqlStoreOutage';

/**
 * Issue #14: a resolver that met a store outage must not become HTTP 200 with a masked
 * "Unexpected error." — the handler answers the whole request 503 (src/ops/store-outage.ts).
 * Runs before yoga's masking (user plugins come first), so it still sees the original error.
 */
const storeOutagePlugin = {
  onExecute() {
    return {
      onExecuteDone({ args, result }: { args: { contextValue: unknown }; result: unknown }) {
        const errors = (result as { errors?: readonly GraphQLError[] }).errors ?? [];
        const outage = errors.find((e) => isStoreOutage(e.originalError));
        if (outage) (args.contextValue as KoaServerContext).koa.state[OUTAGE] = outage.originalError;
      },
    };
  },
};

/**
 * The yoga instance of the Account API; `koa.state.principal` must be set by the bearer middleware.
 * @param known where the documents yoga ran are learnt for the short path (known-documents.ts)
 * @param persisted the automatic persisted queries of this process (persisted-queries.ts)
 */
export function createAccountYoga(
  deps: AccountApiDeps,
  known?: KnownDocuments,
  persisted: PersistedQueryStore = new PersistedQueryStore(),
) {
  return createYoga<KoaServerContext, AccountContext>({
    schema,
    graphqlEndpoint: '/account/graphql',
    // The handler reads the body within the route's limit (64 KiB) before yoga sees it.
    maxRequestBodySize: false,
    graphiql: false,
    landingPage: false,
    logging: yogaLogger(deps.log),
    // Unexpected errors become "Unexpected error." with code INTERNAL_SERVER_ERROR; never a stack trace.
    maskedErrors: { isDev: false },
    plugins: [
      // First: a hash-only request becomes its stored query before any other plugin sees it.
      persistedQueriesPlugin(persisted),
      storeOutagePlugin,
      ...limitPlugins(deps.production),
      writeScopePlugin(deps.baseUrl),
      errorCodesPlugin,
      ...(known ? [known.plugin() as Plugin] : []),
    ],
    context: ({ koa }) => accountContext(koa, deps.services),
  });
}

/** The resolvers' context of a request (`koa.state.principal` set by the bearer step). */
function accountContext(koa: Pick<Context, 'state'>, services: AccountServices): AccountContext {
  const principal = koa.state.principal as Principal;
  return { principal, member: { siteId: principal.siteId, userId: principal.userId }, services };
}

/** `GET /account/graphql/schema.graphql`: the SDL, public (the contract clients build against). */
export const accountSchemaHandler: Middleware = (ctx) => {
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.set('Content-Disposition', 'inline; filename="account-api.graphql"');
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = ACCOUNT_SCHEMA_SDL;
};

/** The request `Content-Type` values of the short path (known-documents.ts). */
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);
/** Yoga's answer types for a single (non-streamed) result. */
const REGULAR_TYPES = new Set(['application/json; charset=utf-8', 'application/graphql-response+json; charset=utf-8']);

/** Koa handler of `/account/graphql`; expects `ctx.state.principal` from the bearer middleware. */
export function accountGraphqlHandler(deps: AccountApiDeps): Middleware {
  const known = new KnownDocuments();
  const endpointOrigin = new URL(deps.baseUrl).origin;
  const yoga = createAccountYoga(deps, known);
  /** `Accept` value ('' when absent) → the `Content-Type` yoga answered a successful query with. */
  const acceptedTypes = new Map<string, string>();

  /** The short path of known-documents.ts: true when it answered. */
  const answerKnown = async (ctx: Context, text: string): Promise<boolean> => {
    const type = acceptedTypes.get(ctx.get('accept'));
    if (type === undefined || ctx.get('origin') !== '' || !JSON_TYPES.has(ctx.get('content-type'))) return false;
    const request = plainParameters(text);
    const document = request && known.documentOf(request.query, request.operationName);
    if (!request || !document) return false;
    const json = await known.run(schema, document, request, accountContext(ctx, deps.services));
    if (json === undefined) return false;
    ctx.body = json;
    ctx.status = 200;
    ctx.set('Content-Type', type);
    return true;
  };

  return async (ctx) => {
    // GraphQL over HTTP GET: yoga's JSON.parse of `variables` / `extensions` would surface as a
    // masked 500; malformed input is the client's error (DESIGN D8: never a 500 for bad input).
    if (ctx.querystring !== '')
      for (const name of ['variables', 'extensions']) {
        const raw = ctx.query[name];
        if (typeof raw !== 'string' || raw === '') continue;
        try {
          JSON.parse(raw);
        } catch {
          ctx.status = 400;
          ctx.body = {
            errors: [{ message: `the ${name} parameter is not valid JSON`, extensions: { code: 'BAD_REQUEST' } }],
          };
          return;
        }
      }
    // The body is read here, within the route's 64 KiB (src/http/body.ts), and handed to yoga
    // as text (issue #15: yoga's own Node-stream reading and abort wiring cost more than the query).
    const text = ctx.method === 'POST' ? await readText(ctx) : undefined;
    if (text !== undefined && (await answerKnown(ctx, text))) return;
    // The route table resolved this request case-insensitively, with or without a trailing slash
    // (oidc-provider's matching rules, src/http/route-table.ts); yoga compares its endpoint exactly,
    // so it is handed the canonical path (SPEC §4.3 `/account/graphql`) with the request's query.
    const response = await yoga.fetch(
      `${endpointOrigin}/account/graphql${ctx.search}`,
      { method: ctx.method, headers: ctx.req.headers as Record<string, string>, body: text },
      { koa: ctx },
    );
    // Rendered as 503 + Retry-After by the outage middleware (the same answer on every surface).
    if (ctx.state[OUTAGE]) throw ctx.state[OUTAGE];
    const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
    ctx.body = body;
    // After the body: Koa turns a null body into 204 otherwise (yoga's 415/405 carry none).
    ctx.status = response.status;
    response.headers.forEach((value, key) => {
      ctx.set(key, value);
    });
    // Yoga's choice for this Accept value, replayed by the short path (a bounded set: clients send few).
    const type = response.headers.get('content-type');
    if (response.status === 200 && type !== null && REGULAR_TYPES.has(type) && acceptedTypes.size < 100)
      acceptedTypes.set(ctx.get('accept'), type);
  };
}
