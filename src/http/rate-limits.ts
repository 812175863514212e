/**
 * Rate limits and body-size limit of DESIGN.md D7, on rate-limiter-flexible.
 *
 * | limit            | endpoint                              | keyed by                         |
 * |------------------|---------------------------------------|----------------------------------|
 * | `token`          | POST /api/oauth/token                 | client_id                        |
 * | `revocation`     | POST /api/oauth/revoke                | client_id                        |
 * | `introspection`  | POST /api/oauth/introspect            | client_id                        |
 * | `registration`   | POST /api/oauth/register              | client IP                        |
 * | `login_failures` | POST /interaction/:uid/login failures | account (e-mail) + client IP     |
 *
 * client_id comes from HTTP Basic credentials (RFC 6749 §2.3.1) or the `client_id` form field; a
 * request naming no client is counted per IP under its own bucket (it will fail client
 * authentication anyway). Counters live in Redis when Redis holds the OIDC state (so the limits
 * hold across processes), else in process memory (one process). If Redis is unreachable the
 * counters fall back to process memory rather than failing requests.
 *
 * Over the limit: `429 Too Many Requests` (RFC 6585 §4), `Retry-After: <seconds>` and the RFC 6749
 * §5.2-shaped body `{"error":"too_many_requests","error_description":"…"}`; the login page shows
 * the message in the form instead. The body of a limited endpoint is read here (64 KiB cap, see
 * `body-limit.ts`) and handed to oidc-provider on `req.body`.
 */
import type Koa from 'koa';
import type { Context } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimit, RateLimits } from '../config.js';
import type { RedisClient } from '../../adapters/redis.js';
import { HttpError } from './errors.js';
import { bufferBody } from './body-limit.js';

/** The error code of a 429 answer (not an RFC 6749 code: none fits a per-client quota). */
export const RATE_LIMIT_ERROR = 'too_many_requests';

type LimitName = keyof RateLimits;

/** Routes of the limited OAuth endpoints (see src/oauth/provider.ts ROUTES). */
export interface LimitedRoutes {
  token: string;
  revocation: string;
  introspection: string;
  registration: string;
}

/** What the rate-limit layer needs. */
export interface RateLimitDeps {
  limits: RateLimits;
  routes: LimitedRoutes;
  /** Shared counters; undefined = process memory. */
  redis?: RedisClient;
  /** Key prefix of the counters in Redis. */
  prefix?: string;
  /** Called on each 429 (metrics). */
  onLimited?: (limit: LimitName) => void;
}

/** The Koa middleware and the login hooks of `src/interaction/routes.ts`. */
export interface RateLimiting {
  /** 429 at the token, revocation, introspection and registration endpoints. */
  middleware: Koa.Middleware;
  /** Throws HttpError 429 while `email` + client IP is locked out. */
  beforeLogin(ctx: Context, email: string): Promise<void>;
  /** Counts a failed login of `email` from the client IP. */
  onLoginFailure(ctx: Context, email: string): Promise<void>;
}

function limiter(name: LimitName, limit: RateLimit, deps: RateLimitDeps): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix: name, points: limit.points, duration: limit.duration });
  if (!deps.redis) return memory;
  return new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: `${deps.prefix ?? 'cg'}:rl:${name}`,
    points: limit.points,
    duration: limit.duration,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

const retryAfterSeconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/** The client_id of a token-endpoint-style request: HTTP Basic user, else the form field. */
export function clientIdOf(authorization: string | undefined, form: URLSearchParams): string | undefined {
  if (authorization?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      try {
        return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      } catch {
        return undefined;
      }
    }
  }
  return form.get('client_id') ?? undefined;
}

/** Builds the limiters and the middleware of DESIGN D7. */
export function rateLimiting(deps: RateLimitDeps): RateLimiting {
  const limiters = Object.fromEntries(
    (Object.keys(deps.limits) as LimitName[]).map((name) => [name, limiter(name, deps.limits[name], deps)]),
  ) as Record<LimitName, RateLimiterAbstract>;
  const byRoute = new Map<string, LimitName>([
    [deps.routes.token, 'token'],
    [deps.routes.revocation, 'revocation'],
    [deps.routes.introspection, 'introspection'],
  ]);

  function tooMany(name: LimitName, res: RateLimiterRes, description: string): HttpError {
    deps.onLimited?.(name);
    return new HttpError(429, RATE_LIMIT_ERROR, description, { 'Retry-After': String(retryAfterSeconds(res)) });
  }

  async function consume(name: LimitName, key: string, description: string): Promise<void> {
    try {
      await limiters[name].consume(key);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw tooMany(name, rejection, description);
      throw rejection;
    }
  }

  const middleware: Koa.Middleware = async (ctx, next) => {
    if (ctx.method !== 'POST') return next();
    if (ctx.path === deps.routes.registration) {
      await consume('registration', ctx.ip, 'too many client registrations from this address; retry later');
      return next();
    }
    const name = byRoute.get(ctx.path);
    if (!name) return next();
    const form = ctx.is('application/x-www-form-urlencoded') ? new URLSearchParams(await bufferBody(ctx)) : new URLSearchParams();
    const clientId = clientIdOf(ctx.get('authorization') || undefined, form);
    const key = clientId ? `client:${clientId.slice(0, 512)}` : `anonymous-ip:${ctx.ip}`;
    await consume(name, key, `too many ${name} requests for this client; retry later`);
    return next();
  };

  const loginKey = (ctx: Context, email: string) => `${email.trim().toLowerCase()}|${ctx.ip}`;

  return {
    middleware,
    async beforeLogin(ctx, email) {
      const res = await limiters.loginFailures.get(loginKey(ctx, email));
      if (res && res.consumedPoints >= deps.limits.loginFailures.points) {
        const minutes = Math.ceil(res.msBeforeNext / 60_000);
        throw tooMany('loginFailures', res, `Too many failed sign-in attempts for this account. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
      }
    },
    async onLoginFailure(ctx, email) {
      try {
        await limiters.loginFailures.consume(loginKey(ctx, email));
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
      }
    },
  };
}
