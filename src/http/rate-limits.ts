/**
 * Rate limits of DESIGN.md D7, on rate-limiter-flexible, driven by the route table
 * (`ctx.state.route.spec.rateLimit`, src/http/route-table.ts): every spelling of a route has them.
 *
 * | limit            | routes                                | keyed by                                   |
 * |------------------|---------------------------------------|--------------------------------------------|
 * | `token`          | POST /api/oauth/token                 | client_id + IP, and client_id (ceiling)    |
 * | `revocation`     | POST /api/oauth/revoke                | client_id + IP, and client_id (ceiling)    |
 * | `introspection`  | POST /api/oauth/introspect            | client_id + IP, and client_id (ceiling)    |
 * | `registration`   | POST /api/oauth/register              | client IP                                  |
 * | `login_failures` | POST /interaction/:uid/login          | account (e-mail) + client IP               |
 *
 * A point is reserved atomically **before** the work (Redis INCR / one in-process counter), so
 * parallel requests cannot pass a limit. Failed logins: the point is taken before the password
 * check and given back when the sign-in succeeds. The client-wide ceiling is
 * `CLIENT_CEILING_FACTOR` × the per-address points: one address cannot spend a client's budget,
 * and many addresses together still meet a ceiling.
 *
 * client_id comes from HTTP Basic credentials (RFC 6749 §2.3.1) or the `client_id` form field; a
 * request naming no client is counted per IP under its own bucket (it will fail client
 * authentication anyway). Counters live in Redis when Redis holds the OIDC state (so the limits
 * hold across processes), else in process memory (one process). If Redis is unreachable the
 * counters fall back to process memory rather than failing requests.
 *
 * Over the limit: `429 Too Many Requests` (RFC 6585 §4), `Retry-After: <seconds>` and the RFC 6749
 * §5.2-shaped body `{"error":"too_many_requests","error_description":"…"}`; the login page shows
 * the message in the form instead.
 */
import type Koa from 'koa';
import type { Context } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimit, RateLimits } from '../config.js';
import type { RedisClient } from '../../adapters/redis.js';
import { TooManyRequests, type ErrorCode, type HttpError } from '../errors/catalogue.js';
import { readText } from './body.js';
import { CLIENT_CEILING_FACTOR } from './route-table.js';

/** The error code of a 429 answer (not an RFC 6749 code: none fits a per-client quota). */
export const RATE_LIMIT_ERROR: ErrorCode = 'too_many_requests';

type LimitName = keyof RateLimits;

/** What the rate-limit layer needs. */
export interface RateLimitDeps {
  limits: RateLimits;
  /** Shared counters; undefined = process memory. */
  redis?: RedisClient;
  /** Key prefix of the counters in Redis. */
  prefix?: string;
  /** Called on each 429 (metrics). */
  onLimited?: (limit: LimitName) => void;
}

/** The Koa middleware and the login hooks of `src/interaction/routes.ts`. */
export interface RateLimiting {
  /** 429 on the routes whose table row has a per-request policy (token, revocation, introspection, registration). */
  middleware: Koa.Middleware;
  /**
   * Reserves one failed-login point for `email` + client IP before the password is checked.
   * @throws TooManyRequests 429 when the account + IP has no point left
   */
  reserveLogin(ctx: Context, email: string): Promise<void>;
  /** Gives the reserved point back after a successful sign-in. */
  releaseLogin(ctx: Context, email: string): Promise<void>;
}

function limiter(name: string, limit: RateLimit, deps: RateLimitDeps): RateLimiterAbstract {
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
  const names = Object.keys(deps.limits) as LimitName[];
  const limiters = Object.fromEntries(names.map((name) => [name, limiter(name, deps.limits[name], deps)])) as Record<LimitName, RateLimiterAbstract>;
  const ceilings = Object.fromEntries(
    names.map((name) => {
      const { points, duration } = deps.limits[name];
      return [name, limiter(`${name}-client`, { points: points * CLIENT_CEILING_FACTOR, duration }, deps)];
    }),
  ) as Record<LimitName, RateLimiterAbstract>;

  function tooMany(name: LimitName, res: RateLimiterRes, description: string): HttpError {
    deps.onLimited?.(name);
    return new TooManyRequests(description, retryAfterSeconds(res));
  }

  async function consume(name: LimitName, store: RateLimiterAbstract, key: string, description: string): Promise<void> {
    try {
      await store.consume(key);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw tooMany(name, rejection, description);
      throw rejection;
    }
  }

  const middleware: Koa.Middleware = async (ctx, next) => {
    const policy = ctx.state.route?.spec.rateLimit;
    if (!policy || policy.on === 'failure' || !policy.methods.includes(ctx.method)) return next();
    const name = policy.limit;
    if (policy.key === 'ip') {
      const what = name === 'registration' ? 'client registrations' : `${name} requests`;
      await consume(name, limiters[name], `ip:${ctx.ip}`, `too many ${what} from this address; retry later`);
      return next();
    }
    const form = ctx.is('application/x-www-form-urlencoded') ? new URLSearchParams(await readText(ctx)) : new URLSearchParams();
    const clientId = clientIdOf(ctx.get('authorization') || undefined, form)?.slice(0, 512);
    if (!clientId) {
      await consume(name, limiters[name], `anonymous-ip:${ctx.ip}`, `too many ${name} requests from this address; retry later`);
      return next();
    }
    await consume(name, limiters[name], `client:${clientId}|${ctx.ip}`, `too many ${name} requests for this client from this address; retry later`);
    if (policy.clientCeiling) await consume(name, ceilings[name], `client:${clientId}`, `too many ${name} requests for this client; retry later`);
    return next();
  };

  const loginKey = (ctx: Context, email: string) => `${email.trim().toLowerCase()}|${ctx.ip}`;

  return {
    middleware,
    async reserveLogin(ctx, email) {
      try {
        await limiters.loginFailures.consume(loginKey(ctx, email));
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const minutes = Math.max(1, Math.ceil(rejection.msBeforeNext / 60_000));
        throw tooMany('loginFailures', rejection, `Too many failed sign-in attempts for this account. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
      }
    },
    async releaseLogin(ctx, email) {
      await limiters.loginFailures.reward(loginKey(ctx, email));
    },
  };
}
