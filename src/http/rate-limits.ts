/**
 * Rate limits of DESIGN.md D7, on rate-limiter-flexible, driven by the route table
 * (`ctx.state.route.spec.rateLimit`, src/http/route-table.ts): every spelling of a route has them.
 *
 * | limit            | routes                                | keyed by                                   |
 * |------------------|---------------------------------------|--------------------------------------------|
 * | `token`          | POST /api/oauth/token                 | client_id + IP, and client_id (ceiling, proven requests only) |
 * | `revocation`     | POST /api/oauth/revoke                | client_id + IP, and client_id (ceiling, proven requests only) |
 * | `introspection`  | POST /api/oauth/introspect            | client_id + IP, and client_id (ceiling, proven requests only) |
 * | `registration`   | POST /api/oauth/register              | client IP                                  |
 * | `login_failures` | POST /interaction/:uid/login          | account (e-mail) + client IP               |
 *
 * A point is reserved atomically **before** the work (Redis INCR / one in-process counter), so
 * parallel requests cannot pass a limit. Failed logins: the point is taken before the password
 * check and given back when the sign-in succeeds. The client-wide ceiling is
 * `CLIENT_CEILING_FACTOR` × the per-address points: one address cannot spend a client's budget,
 * and many addresses together still meet a ceiling.
 *
 * The ceiling is spent only by requests that **proved** something (issue #25 finding 8): a
 * client_id in a form is no proof, and a public client's is public, so strangers sending junk
 * with it must not spend the budget of its real users. Its point is reserved before the work (as
 * every point) and given back after the provider answered unless the request authenticated the
 * client with a credential (`client_secret_*`, `private_key_jwt`: anything but `none`, and not
 * answered `invalid_client`) or, at the token endpoint, proved a grant (tokens were issued: a
 * valid code or refresh token). Everything else is bounded by the per-address limit only.
 *
 * Addresses (`ctx.ip`, from `TRUST_PROXY` hops) are keyed as {@link addressKey}: an IPv6 address
 * by its /64 (one subscriber's prefix; RFC 6177), an IPv4-mapped IPv6 address as its IPv4 address.
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
import ipaddr from 'ipaddr.js';
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

/**
 * The rate-limit key of a client address: an IPv4 address as it is; an IPv6 address as its /64
 * prefix (`2001:db8:1:2::/64`: a subscriber gets at least a /64 and can pick any address in it);
 * an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) as the IPv4 address. A string that is no
 * address is returned as it is.
 * @param ip `ctx.ip`
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

interface ProvenClient {
  clientId: string;
  clientAuthMethod?: string;
}

/**
 * Whether a request answered by oidc-provider proved a client or a grant (issue #25 finding 8):
 * the client authenticated with a credential, or the token endpoint issued tokens.
 */
function provedClientOrGrant(ctx: Context, limit: LimitName): boolean {
  const client = (ctx as unknown as { oidc?: { client?: ProvenClient } }).oidc?.client;
  if (!client) return false;
  const error = (ctx.body as { error?: unknown } | null | undefined)?.error;
  if (limit === 'token' && ctx.status >= 200 && ctx.status < 300 && error === undefined) return true;
  return (
    !!client.clientAuthMethod && client.clientAuthMethod !== 'none' && ctx.status !== 401 && error !== 'invalid_client'
  );
}

/** Builds the limiters and the middleware of DESIGN D7. */
export function rateLimiting(deps: RateLimitDeps): RateLimiting {
  const names = Object.keys(deps.limits) as LimitName[];
  const limiters = Object.fromEntries(names.map((name) => [name, limiter(name, deps.limits[name], deps)])) as Record<
    LimitName,
    RateLimiterAbstract
  >;
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
    const address = addressKey(ctx.ip);
    if (policy.key === 'ip') {
      const what = name === 'registration' ? 'client registrations' : `${name} requests`;
      await consume(name, limiters[name], `ip:${address}`, `too many ${what} from this address; retry later`);
      return next();
    }
    const form = ctx.is('application/x-www-form-urlencoded')
      ? new URLSearchParams(await readText(ctx))
      : new URLSearchParams();
    const clientId = clientIdOf(ctx.get('authorization') || undefined, form)?.slice(0, 512);
    if (!clientId) {
      await consume(
        name,
        limiters[name],
        `anonymous-ip:${address}`,
        `too many ${name} requests from this address; retry later`,
      );
      return next();
    }
    await consume(
      name,
      limiters[name],
      `client:${clientId}|${address}`,
      `too many ${name} requests for this client from this address; retry later`,
    );
    if (!policy.clientCeiling) return next();
    // Reserved now (parallel requests cannot pass the ceiling), kept only for a proven client or grant.
    const ceilingKey = `client:${clientId}`;
    await consume(name, ceilings[name], ceilingKey, `too many ${name} requests for this client; retry later`);
    let proved = false;
    try {
      await next();
      proved = provedClientOrGrant(ctx, name);
    } finally {
      if (!proved) await ceilings[name].reward(ceilingKey).catch(() => undefined);
    }
  };

  const loginKey = (ctx: Context, email: string) => `${email.trim().toLowerCase()}|${addressKey(ctx.ip)}`;

  return {
    middleware,
    async reserveLogin(ctx, email) {
      try {
        await limiters.loginFailures.consume(loginKey(ctx, email));
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const minutes = Math.max(1, Math.ceil(rejection.msBeforeNext / 60_000));
        throw tooMany(
          'loginFailures',
          rejection,
          `Too many failed sign-in attempts for this account. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        );
      }
    },
    async releaseLogin(ctx, email) {
      await limiters.loginFailures.reward(loginKey(ctx, email));
    },
  };
}
