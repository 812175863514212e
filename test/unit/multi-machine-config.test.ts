/**
 * Issue #28 settings (DESIGN D12): how `loadConfig` reads and refuses the Redis Sentinel, replica
 * acknowledgment, migration, drain, pool and bind-address settings; and which Redis replies count
 * as a temporary store outage (503, never 500).
 */
import { ConfigError, loadConfig } from '../../src/config.js';
import { isStoreOutage } from '../../src/errors/outage.js';
import { ReplicaAckTimeout } from '../../adapters/replica-acks.js';
import { reconnectOnStaleNode } from '../../adapters/redis.js';

const load = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env });

describe('issue #28 settings', () => {
  test('defaults keep the single-process behaviour', () => {
    const c = load({});
    expect(c).toMatchObject({
      redisSentinel: undefined,
      redisMinReplicasAcked: 0,
      databasePoolMax: 10,
      migrateOnStart: true,
      host: undefined,
      metricsHost: undefined,
      // A balancer needs a few seconds to notice /readyz 503 before the port closes.
      shutdown: { delaySeconds: 5, graceSeconds: 10 },
      healthProbeSeconds: 5,
    });
  });

  test('REDIS_SENTINELS + REDIS_SENTINEL_NAME: sentinel mode, one replica acknowledgment by default', () => {
    const c = load({
      REDIS_SENTINELS: 's1:26379, s2:26379,s3:26379',
      REDIS_SENTINEL_NAME: 'coursegate',
      REDIS_SENTINEL_PASSWORD: 'pw',
    });
    expect(c.redisSentinel).toEqual({
      sentinels: ['s1:26379', 's2:26379', 's3:26379'],
      name: 'coursegate',
      password: 'pw',
    });
    expect(c.redisMinReplicasAcked).toBe(1);
    expect(
      load({ REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'm', REDIS_MIN_REPLICAS_ACKED: '0' })
        .redisMinReplicasAcked,
    ).toBe(0);
  });

  test.each([
    [{ REDIS_SENTINELS: 's1:26379' }, /REDIS_SENTINEL_NAME: required with REDIS_SENTINELS/],
    [{ REDIS_SENTINEL_NAME: 'm' }, /REDIS_SENTINELS: required with REDIS_SENTINEL_NAME/],
    [{ REDIS_SENTINELS: 's1', REDIS_SENTINEL_NAME: 'm' }, /REDIS_SENTINELS: comma-separated host:port list/],
    [
      { REDIS_SENTINELS: 's1:1', REDIS_SENTINEL_NAME: 'm', REDIS_CLUSTER_NODES: 'n1:1' },
      /not together with REDIS_CLUSTER_NODES/,
    ],
    [
      { REDIS_CLUSTER_NODES: 'n1:1', REDIS_MIN_REPLICAS_ACKED: '1' },
      /REDIS_MIN_REPLICAS_ACKED: not supported with REDIS_CLUSTER_NODES/,
    ],
    [{ REDIS_MIN_REPLICAS_ACKED: '1' }, /REDIS_MIN_REPLICAS_ACKED: needs REDIS_URL or REDIS_SENTINELS/],
    [
      { REDIS_URL: 'redis://x', REDIS_MIN_REPLICAS_ACKED: '9' },
      /REDIS_MIN_REPLICAS_ACKED: a whole number of replicas from 0 to 5/,
    ],
    [{ MIGRATE_ON_START: 'no' }, /MIGRATE_ON_START: `true` or `false`/],
    [{ SHUTDOWN_DELAY_SECONDS: '-1' }, /SHUTDOWN_DELAY_SECONDS/],
    [{ SHUTDOWN_GRACE_SECONDS: '0' }, /SHUTDOWN_GRACE_SECONDS/],
    [{ DATABASE_POOL_MAX: '0' }, /DATABASE_POOL_MAX/],
    [{ HOST: 'bad host' }, /HOST: an IP address or host name/],
  ])('%j is refused by name', (env, message) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(message);
  });

  test('the other settings are read', () => {
    const c = load({
      MIGRATE_ON_START: 'false',
      SHUTDOWN_DELAY_SECONDS: '7',
      SHUTDOWN_GRACE_SECONDS: '20',
      DATABASE_POOL_MAX: '25',
      HOST: '127.0.0.1',
      METRICS_HOST: '10.0.0.5',
    });
    expect(c).toMatchObject({
      migrateOnStart: false,
      shutdown: { delaySeconds: 7, graceSeconds: 20 },
      databasePoolMax: 25,
      host: '127.0.0.1',
      metricsHost: '10.0.0.5',
    });
  });
});

describe('Redis replies of a node that cannot take the command now', () => {
  test.each([
    "READONLY You can't write against a read only replica.",
    'LOADING Redis is loading the dataset in memory',
    'MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no',
  ])('%s: a store outage (503) and a reconnection', (message) => {
    expect(isStoreOutage(new Error(message))).toBe(true);
    expect(reconnectOnStaleNode(new Error(message))).toBe(1);
  });
  test('too few replica acknowledgments is a store outage; other errors are not', () => {
    expect(isStoreOutage(new ReplicaAckTimeout(0, 1))).toBe(true);
    expect(isStoreOutage(new Error('ERR wrong number of arguments'))).toBe(false);
    expect(reconnectOnStaleNode(new Error('ERR unknown command'))).toBe(false);
  });
});
