/**
 * Redis-specific guarantees of adapters/redis.ts beyond the shared contract: every key carries a
 * TTL, grant indexes stay bounded by the live tokens of the grant, and all keys of one grant share
 * one Cluster hash tag.
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
      [`${prefix}:{g:G1}:AccessToken:at1`, `${prefix}:{g:G1}:AccessToken:idx`, `${prefix}:{g:G1}:RefreshToken:idx`, `${prefix}:{g:G1}:RefreshToken:rt1`].sort(),
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
});
