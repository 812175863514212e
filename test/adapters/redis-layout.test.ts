/**
 * Redis-specific guarantees of adapters/redis.ts beyond the shared contract: every key carries a
 * TTL, grant indexes stay bounded by the live tokens of the grant, and all keys of one grant share
 * one Cluster hash tag. On a standalone server a refresh rotation is one command (issue #15).
 */
import { Redis } from 'ioredis';
import { redisAdapterFactory } from '../../adapters/redis.js';
import { TEST_REDIS_URL, deleteRedisPrefix, describeWith, randomPrefix } from '../helpers/services.js';

describeWith('redis')('Redis adapter key layout', () => {
  let redis: Redis;
  const prefix = randomPrefix();
  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL!);
  });
  afterAll(async () => {
    redis.disconnect();
    await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
  });

  const hashTag = (key: string) => /\{([^}]*)\}/.exec(key)?.[1];

  test('every key of a grant-bound token has a TTL; the grant’s keys share one hash tag', async () => {
    const Adapter = redisAdapterFactory(redis, { prefix });
    const at = new Adapter('AccessToken');
    const rt = new Adapter('RefreshToken');
    await at.upsert('at1', { jti: 'at1', grantId: 'G1' }, 3600);
    await rt.upsert('rt1', { jti: 'rt1', grantId: 'G1' }, 7200);
    const sess = new Adapter('Session');
    await sess.upsert('s1', { jti: 's1', uid: 'U1' }, 600);
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys.length).toBeGreaterThanOrEqual(7);
    for (const key of keys) expect(await redis.pttl(key)).toBeGreaterThan(0);
    const grantKeys = keys.filter((k) => k.includes('{g:G1}'));
    expect(grantKeys.sort()).toEqual(
      [
        `${prefix}:{g:G1}:AccessToken:at1`,
        `${prefix}:{g:G1}:AccessToken:idx`,
        `${prefix}:{g:G1}:RefreshToken:idx`,
        `${prefix}:{g:G1}:RefreshToken:rt1`,
      ].sort(),
    );
    expect(new Set(grantKeys.map(hashTag))).toEqual(new Set(['g:G1']));
    // The index lives as long as its longest-lived member.
    expect(await redis.pttl(`${prefix}:{g:G1}:RefreshToken:idx`)).toBeGreaterThan(7_000_000);
  });

  test('a rotating refresh chain keeps the grant index bounded by its live tokens', async () => {
    const Adapter = redisAdapterFactory(redis, { prefix });
    const rt = new Adapter('RefreshToken');
    for (let i = 0; i < 50; i++) await rt.upsert(`chain-${i}`, { jti: `chain-${i}`, grantId: 'G2' }, 1);
    await new Promise((r) => setTimeout(r, 1100));
    await rt.upsert('chain-last', { jti: 'chain-last', grantId: 'G2' }, 60);
    expect(await redis.zcard(`${prefix}:{g:G2}:RefreshToken:idx`)).toBe(1);
  });

  test('consume of an expired code does not recreate a payload-less key', async () => {
    const Adapter = redisAdapterFactory(redis, { prefix });
    const code = new Adapter('AuthorizationCode');
    await expect(code.consume('gone')).rejects.toThrow();
    expect(await redis.keys(`${prefix}:*gone*`)).toEqual([]);
  });

  test('standalone server: a refresh rotation is one command, and leaves the keys the rotation left before', async () => {
    const commands: string[] = [];
    const counted = new Redis(TEST_REDIS_URL!);
    const send = counted.sendCommand.bind(counted);
    counted.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
      commands.push(command.name);
      return (send as (...a: unknown[]) => unknown)(command, ...rest);
    }) as typeof counted.sendCommand;
    try {
      const Adapter = redisAdapterFactory(counted, { prefix });
      const rt = new Adapter('RefreshToken');
      // No grace window: tombstones beyond the bound are evicted at once (inside a window they stay).
      const policy = { graceSeconds: 0, tombstoneSeconds: 3600, keepTombstones: 2 };
      const chain = ['c0'];
      await rt.upsert('c0', { jti: 'c0', grantId: 'G4' }, 7200);
      for (let i = 1; i <= 4; i++) {
        commands.length = 0;
        const along = { model: 'AccessToken', id: `a${i}`, payload: { jti: `a${i}`, grantId: 'G4' }, expiresIn: 600 };
        expect(
          (await rt.rotateRefreshToken(chain.at(-1)!, `c${i}`, { jti: `c${i}`, grantId: 'G4' }, 7200, policy, along))
            .result,
        ).toBe('rotated');
        chain.push(`c${i}`);
        // The script is loaded once (EVALSHA, after one EVAL or SCRIPT LOAD at first use).
        if (i > 1) expect(commands).toEqual(['evalsha']);
      }
      // c0 and c1 were evicted (2 tombstones kept): neither data nor locator is left.
      expect(await redis.keys(`${prefix}:*c0*`)).toEqual([]);
      expect(await redis.keys(`${prefix}:*c1*`)).toEqual([]);
      // Tombstones' locators live as long as the tombstone; the successors' point at their grant.
      for (const id of ['c2', 'c3']) {
        const ttl = await redis.pttl(`${prefix}:RefreshToken:{${id}}`);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(3_600_000);
      }
      expect(await redis.hgetall(`${prefix}:RefreshToken:{c4}`)).toEqual({ g: 'G4' });
      expect(await redis.pttl(`${prefix}:RefreshToken:{c4}`)).toBeGreaterThan(3_600_000);
      expect(await redis.hgetall(`${prefix}:AccessToken:{a4}`)).toEqual({ g: 'G4' });
      expect(await redis.zrange(`${prefix}:{g:G4}:RefreshToken:idx`, '0', '-1')).toEqual(['c2', 'c3', 'c4']);
      expect((await new Adapter('AccessToken').find('a4'))?.jti).toBe('a4');
    } finally {
      counted.disconnect();
    }
  });
});
