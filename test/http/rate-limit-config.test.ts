/** DESIGN D7 limits are configurable: config/default.yaml `rate_limits`, env `RATE_LIMIT_<NAME>=points/seconds`. */
import { ConfigError, loadConfig } from '../../src/config.js';
import { clientIdOf } from '../../src/http/rate-limits.js';

describe('rate-limit configuration', () => {
  test('defaults come from config/default.yaml', () => {
    const c = loadConfig({ NODE_ENV: 'test' });
    expect(c.rateLimits).toEqual({
      token: { points: 600, duration: 60 },
      revocation: { points: 600, duration: 60 },
      introspection: { points: 6000, duration: 60 },
      loginFailures: { points: 5, duration: 900 },
      registration: { points: 60, duration: 600 },
    });
  });

  test('env overrides one limit as points/seconds', () => {
    const c = loadConfig({ NODE_ENV: 'test', RATE_LIMIT_TOKEN: '10/1', RATE_LIMIT_LOGIN_FAILURES: '3/60' });
    expect(c.rateLimits.token).toEqual({ points: 10, duration: 1 });
    expect(c.rateLimits.loginFailures).toEqual({ points: 3, duration: 60 });
  });

  test.each(['10', '10/0', 'ten/60', '-1/60'])('a malformed value (%s) stops start-up naming the setting', (value) => {
    expect(() => loadConfig({ NODE_ENV: 'test', RATE_LIMIT_REGISTRATION: value })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', RATE_LIMIT_REGISTRATION: value })).toThrow(/RATE_LIMIT_REGISTRATION/);
  });

  test('storage settings: DATABASE_URL must be postgres://, REDIS_CLUSTER_NODES host:port, prefix without braces', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ NODE_ENV: 'test', REDIS_CLUSTER_NODES: 'a:1,b' })).toThrow(/REDIS_CLUSTER_NODES/);
    expect(() => loadConfig({ NODE_ENV: 'test', REDIS_KEY_PREFIX: 'x{y}' })).toThrow(/REDIS_KEY_PREFIX/);
    const c = loadConfig({ NODE_ENV: 'test', REDIS_CLUSTER_NODES: 'a:7000, b:7001' });
    expect(c.redisClusterNodes).toEqual(['a:7000', 'b:7001']);
    expect(c.redisKeyPrefix).toBe('cg');
  });
});

describe('client_id of a rate-limited request', () => {
  test('HTTP Basic user (form-urlencoded per RFC 6749 §2.3.1) wins over the form field', () => {
    const basic = `Basic ${Buffer.from('my%20client:secret').toString('base64')}`;
    expect(clientIdOf(basic, new URLSearchParams('client_id=other'))).toBe('my client');
    expect(clientIdOf(undefined, new URLSearchParams('client_id=other'))).toBe('other');
    expect(clientIdOf('Basic !!!', new URLSearchParams())).toBeUndefined();
    expect(clientIdOf(`Basic ${Buffer.from('%E0%A4%A:x').toString('base64')}`, new URLSearchParams())).toBeUndefined();
  });
});
