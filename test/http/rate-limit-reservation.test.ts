/**
 * DESIGN D7 / issue #29: on Redis the address's point and the client's ceiling point are reserved
 * in one round trip by a Lua script (`redisReservation`, src/http/rate-limits.ts). Contract: the
 * same cases, run against the script and against two rate-limiter-flexible `consume` calls
 * (`flexibleReservation`) on a real Redis, give the same answers (allowed or which limit refused,
 * remaining and consumed points, first-in-duration, time to reset) and leave the same counters and
 * expiries behind; refunds through rate-limiter-flexible's `reward` (issue #25 finding 8) work on
 * the script's counters.
 */
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import {
  flexibleReservation,
  redisReservation,
  type Reserve,
  type ReservationOutcome,
} from '../../src/http/rate-limits.js';
import { TEST_REDIS_URL, deleteRedisPrefix, describeWith, randomPrefix } from '../helpers/services.js';

const d = describeWith('redis');

/** One step of a case: reserve for an address (with or without the client's ceiling), refund the ceiling, or wait. */
type Step = { reserve: string; ceiling?: boolean } | { refund: true } | { wait: number } | { raw: [string, string] };

/** Per-address 3 points, ceiling 6 (the factor is the route table's; any two values do for the contract). */
const POINTS = 3;
const CEILING = 6;

const cases: Record<string, { duration: number; steps: Step[] }> = {
  'an address past its points is refused by its own limit; the ceiling is not touched then': {
    duration: 60,
    steps: [{ reserve: 'a' }, { reserve: 'a' }, { reserve: 'a' }, { reserve: 'a' }, { reserve: 'a' }],
  },
  'addresses together meet the ceiling; a refused ceiling keeps both points taken': {
    duration: 60,
    steps: [
      ...Array.from({ length: 3 }, () => ({ reserve: 'a' })),
      ...Array.from({ length: 3 }, () => ({ reserve: 'b' })),
      { reserve: 'c' },
      { reserve: 'c' },
      { reserve: 'd' },
    ],
  },
  'a refunded ceiling point (unproven request) lets the next request through': {
    duration: 60,
    steps: [
      ...Array.from({ length: 3 }, () => ({ reserve: 'a' })),
      ...Array.from({ length: 3 }, () => ({ reserve: 'b' })),
      { reserve: 'c' },
      { refund: true },
      { refund: true },
      { reserve: 'c' },
      { reserve: 'c' },
    ],
  },
  'without a ceiling only the address counts': {
    duration: 60,
    steps: [
      { reserve: 'a', ceiling: false },
      { reserve: 'a', ceiling: false },
      { reserve: 'a', ceiling: false },
      { reserve: 'a', ceiling: false },
    ],
  },
  'counters reset after their duration': {
    duration: 1,
    steps: [{ reserve: 'a' }, { reserve: 'a' }, { reserve: 'a' }, { reserve: 'a' }, { wait: 1100 }, { reserve: 'a' }],
  },
  'a counter left without an expiry gets one and counts on': {
    duration: 60,
    steps: [{ raw: ['client:app|a', '1'] }, { reserve: 'a' }, { reserve: 'a' }, { reserve: 'a' }],
  },
};

d('rate-limit reservation on Redis: one Lua round trip = two rate-limiter-flexible consumes (issue #29)', () => {
  let redis: Redis;
  const prefixes: string[] = [];
  beforeAll(async () => {
    redis = new Redis(TEST_REDIS_URL!);
    await redis.ping(); // ready: before that both fall back to the in-memory insurance limiters
  });
  afterAll(async () => {
    redis.disconnect();
    for (const p of prefixes) await deleteRedisPrefix(TEST_REDIS_URL!, p);
  });

  function limiters(prefix: string, duration: number) {
    const make = (name: string, points: number): RateLimiterAbstract =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${prefix}:rl:${name}`,
        points,
        duration,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ points, duration }),
      });
    return { key: make('token', POINTS), ceiling: make('token-client', CEILING) };
  }

  /** Runs a case against `reserve`; returns what each step answered and the counters left behind. */
  async function run(reserve: Reserve, duration: number, steps: Step[]) {
    const prefix = randomPrefix();
    prefixes.push(prefix);
    const { key, ceiling } = limiters(prefix, duration);
    const trace: unknown[] = [];
    const brief = (o: ReservationOutcome) =>
      o.ok
        ? 'ok'
        : {
            refusedBy: o.refusedBy,
            remaining: o.res.remainingPoints,
            consumed: o.res.consumedPoints,
            first: o.res.isFirstInDuration,
            // The time to reset, to the 1/4 s: both read the key's PTTL.
            resetIn: Math.round(o.res.msBeforeNext / 250) * 250,
          };
    for (const step of steps) {
      if ('reserve' in step) {
        const outcome = await reserve(
          { limiter: key, key: `client:app|${step.reserve}` },
          step.ceiling === false ? undefined : { limiter: ceiling, key: 'client:app' },
        );
        trace.push(brief(outcome));
      } else if ('refund' in step) {
        await ceiling.reward('client:app');
        trace.push('refund');
      } else if ('wait' in step) {
        await new Promise((r) => setTimeout(r, step.wait));
      } else {
        await redis.set(`${prefix}:rl:token:${step.raw[0]}`, step.raw[1]);
      }
    }
    const counters: Record<string, [string | null, boolean]> = {};
    for (const k of await redis.keys(`${prefix}:*`)) {
      const ttl = await redis.pttl(k);
      counters[k.slice(prefix.length)] = [await redis.get(k), ttl > 0 && ttl <= duration * 1000];
    }
    return { trace, counters };
  }

  for (const [name, { duration, steps }] of Object.entries(cases)) {
    test(name, async () => {
      const script = await run(redisReservation(redis), duration, steps);
      const flexible = await run(flexibleReservation, duration, steps);
      expect(script).toEqual(flexible);
      expect(script.trace.some((t) => t !== 'ok' && t !== 'refund')).toBe(true); // every case reaches a limit
    }, 20_000);
  }

  test('the script reserves both points in one command; rate-limiter-flexible needs two', async () => {
    const prefix = randomPrefix();
    prefixes.push(prefix);
    const counted = new Redis(TEST_REDIS_URL!);
    await counted.ping();
    let sent = 0;
    const send = counted.sendCommand.bind(counted);
    counted.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
      sent += 1;
      return send(...args);
    }) as Redis['sendCommand'];
    const make = (name: string, points: number) =>
      new RateLimiterRedis({ storeClient: counted, keyPrefix: `${prefix}:rl:${name}`, points, duration: 60 });
    const point = { limiter: make('token', POINTS), key: 'client:app|a' };
    const ceiling = { limiter: make('token-client', CEILING), key: 'client:app' };
    const script = redisReservation(counted);
    await script(point, ceiling); // loads the script (EVALSHA, then EVAL on NOSCRIPT)
    sent = 0;
    await script(point, ceiling);
    expect(sent).toBe(1);
    sent = 0;
    await flexibleReservation(point, ceiling);
    expect(sent).toBe(2);
    expect(await counted.get(`${prefix}:rl:token-client:client:app`)).toBe('3');
    counted.disconnect();
  });
});
