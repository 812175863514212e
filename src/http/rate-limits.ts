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
 * valid code or refresh token). Everything else is bounded by the per-address limit only; a
 * revocation or introspection request that presents no client credential cannot prove anything,
 * so no ceiling point is taken for it at all ({@link mayProve}).
 *
 * On Redis the two points of a request (the address's and the client's ceiling) are reserved in
 * **one round trip** (issue #29): {@link redisReservation} runs a small Lua script that does for
 * both keys what rate-limiter-flexible's `consume` does for one, in the same keys, so the
 * semantics are today's: the address's point is taken first; over its limit the ceiling is not
 * touched; a ceiling over its limit keeps both points taken. Refunds stay rate-limiter-flexible's
 * `reward`. `test/http/rate-limit-reservation.test.ts` runs the same cases against the script and
 * against two rate-limiter-flexible `consume` calls ({@link flexibleReservation}).
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
import { readFormPairs } from './body.js';
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

/** A counter a reservation takes a point of: its rate-limiter-flexible limiter and the key within it. */
export interface ReservedPoint {
  limiter: RateLimiterAbstract;
  key: string;
}

/** The answer of a reservation: both points taken, or which limit refused, with its state. */
export type ReservationOutcome = { ok: true } | { ok: false; refusedBy: 'key' | 'ceiling'; res: RateLimiterRes };

/**
 * Reserves one point of `point` and then, when given and the first was within its limit, one of
 * `ceiling` (DESIGN D7; see the module comment).
 * @throws what the store throws when neither it nor the insurance limiter can count
 */
export type Reserve = (point: ReservedPoint, ceiling?: ReservedPoint) => Promise<ReservationOutcome>;

/** The reservation as two rate-limiter-flexible `consume` calls: two round trips on Redis. */
export const flexibleReservation: Reserve = async (point, ceiling) => {
  for (const [which, p] of [
    ['key', point],
    ['ceiling', ceiling],
  ] as const) {
    if (!p) continue;
    try {
      await p.limiter.consume(p.key);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return { ok: false, refusedBy: which, res: rejection };
      throw rejection;
    }
  }
  return { ok: true };
};

/**
 * KEYS: the address's counter, then the ceiling's (absent: no ceiling). ARGV: points and duration
 * (seconds) of the first, then of the second. Each counter is handled as rate-limiter-flexible's
 * `RateLimiterRedis` script handles one (create with its expiry, INCRBY 1, PTTL, repair a missing
 * expiry); the ceiling only when the first stayed within its points. Returns
 * `{consumed1, pttl1, consumed2, pttl2}` (the last two 0 when the ceiling was not touched).
 */
const RESERVE_LUA = `
local function take(key, duration)
  redis.call('set', key, 0, 'EX', duration, 'NX')
  local consumed = redis.call('incrby', key, 1)
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, duration)
    ttl = 1000 * duration
  end
  return consumed, ttl
end
local c1, t1 = take(KEYS[1], ARGV[2])
if c1 > tonumber(ARGV[1]) or #KEYS < 2 then return {c1, t1, 0, 0} end
local c2, t2 = take(KEYS[2], ARGV[4])
return {c1, t1, c2, t2}
`;

/** The ioredis command the script is defined as (ioredis `defineCommand`: EVALSHA, EVAL on NOSCRIPT). */
const RESERVE_COMMAND = 'coursegateReservePoints';

type LimiterShape = { keyPrefix: string; points: number; duration: number; getKey(key: string): string };

/**
 * The reservation in one round trip on Redis: the Lua script above, in the very keys of the
 * rate-limiter-flexible limiters given (so their `reward`, `get` and other processes agree).
 * Falls back to {@link flexibleReservation} (and with it each limiter's in-memory insurance
 * limiter) when Redis is not ready or the script fails, and is that on a Redis Cluster.
 * @param redis the client the limiters count in (the script is defined on it once)
 */
export function redisReservation(redis: RedisClient): Reserve {
  // On a Redis Cluster the two keys may live on different nodes (a script touching both fails
  // with CROSSSLOT): there the two rate-limiter-flexible calls stay.
  if (redis.isCluster) return flexibleReservation;
  const client = redis as RedisClient & { [RESERVE_COMMAND]?: (...args: Array<string | number>) => Promise<number[]> };
  if (typeof client[RESERVE_COMMAND] !== 'function') client.defineCommand(RESERVE_COMMAND, { lua: RESERVE_LUA });
  const shape = (p: ReservedPoint) => p.limiter as unknown as LimiterShape;
  const refusal = (p: ReservedPoint, consumed: number, ttl: number) => {
    const { points } = shape(p);
    return new RateLimiterRes(Math.max(points - consumed, 0), ttl, consumed, consumed === 1);
  };
  return async (point, ceiling) => {
    if (redis.status !== 'ready') return flexibleReservation(point, ceiling);
    const first = shape(point);
    const keys = [first.getKey(point.key)];
    const args: Array<string | number> = [first.points, first.duration];
    if (ceiling) {
      const second = shape(ceiling);
      keys.push(second.getKey(ceiling.key));
      args.push(second.points, second.duration);
    }
    let reply: number[];
    try {
      reply = await client[RESERVE_COMMAND]!(keys.length, ...keys, ...args);
    } catch {
      return flexibleReservation(point, ceiling);
    }
    const [c1, t1, c2, t2] = reply.map(Number) as [number, number, number, number];
    if (c1 > first.points) return { ok: false, refusedBy: 'key', res: refusal(point, c1, t1) };
    if (ceiling && c2 > shape(ceiling).points)
      return { ok: false, refusedBy: 'ceiling', res: refusal(ceiling, c2, t2) };
    return { ok: true };
  };
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

/** A canonical IPv4 address: four decimal octets 0–255 without leading zeros. */
const DOTTED_QUAD = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** How Node reports an IPv4 peer of a dual-stack (`::`) listener. */
const MAPPED_PREFIX = '::ffff:';

/**
 * The rate-limit key of a client address: an IPv4 address as it is; an IPv6 address as its /64
 * prefix (`2001:db8:1:2::/64`: a subscriber gets at least a /64 and can pick any address in it);
 * an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) as the IPv4 address. A string that is no
 * address is returned as it is.
 * @param ip `ctx.ip`
 */
export function addressKey(ip: string): string {
  // The common case, a dotted-quad IPv4 address as the socket reports it, is its own key: no
  // parse per request (issue #29: ipaddr.js was ~2 % of an introspection's CPU).
  if (DOTTED_QUAD.test(ip)) return ip;
  // A server listening on `::` reports IPv4 peers IPv4-mapped (`::ffff:127.0.0.1`): the same fast
  // path for the dotted quad after the prefix (issue #29: the bench's clients came this way, and
  // ipaddr.js was ~4 % of an introspection's CPU).
  if (ip.startsWith(MAPPED_PREFIX)) {
    const v4 = ip.slice(MAPPED_PREFIX.length);
    if (DOTTED_QUAD.test(v4)) return v4;
  }
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

/**
 * Whether a request may still prove a client or a grant (see {@link provedClientOrGrant}): at the
 * token endpoint always (a public client proves a grant with a valid code or refresh token);
 * elsewhere only when it presents a client credential (HTTP Basic, `client_secret`,
 * `client_assertion`). A request that cannot would have its ceiling point given back whatever
 * the provider answers, so none is taken for it.
 */
export function mayProve(ctx: Context, limit: LimitName, form: URLSearchParams): boolean {
  if (limit === 'token') return true;
  if (ctx.get('authorization').toLowerCase().startsWith('basic ')) return true;
  return form.has('client_secret') || form.has('client_assertion');
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

  const reserve: Reserve = deps.redis ? redisReservation(deps.redis) : flexibleReservation;

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
    const form = ctx.is('application/x-www-form-urlencoded') ? await readFormPairs(ctx) : new URLSearchParams();
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
    // Both points reserved now, in one round trip on Redis (parallel requests cannot pass either
    // limit); the ceiling's is kept only for a proven client or grant. A request that cannot prove
    // anything (see `mayProve`) is bounded by the address's limit only: no ceiling point to take
    // and give back (issue #29: a round trip less per public client's introspection on Redis).
    const ceilingKey = `client:${clientId}`;
    const ceiling = policy.clientCeiling && mayProve(ctx, name, form);
    const outcome = await reserve(
      { limiter: limiters[name], key: `client:${clientId}|${address}` },
      ceiling ? { limiter: ceilings[name], key: ceilingKey } : undefined,
    );
    if (!outcome.ok) {
      const description =
        outcome.refusedBy === 'key'
          ? `too many ${name} requests for this client from this address; retry later`
          : `too many ${name} requests for this client; retry later`;
      throw tooMany(name, outcome.res, description);
    }
    if (!ceiling) return next();
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
