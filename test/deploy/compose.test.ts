/**
 * Issue #28: the deploy files in `deploy/` (no Docker engine here, so they are checked, not run):
 * `compose.yaml` is valid YAML of the Compose shape, uses only settings coursegate knows, runs the
 * migration job before two processes that start with `MIGRATE_ON_START=false`, reaches Redis
 * through the three sentinels under the name `sentinel.conf` monitors, gives Docker more time to
 * stop a process than its drain takes, and haproxy routes on `/readyz`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { SETTINGS } from '../../src/config-settings.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (f: string) => readFileSync(path.join(ROOT, 'deploy', f), 'utf8');

interface Service {
  image?: string;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  stop_grace_period?: string;
  healthcheck?: { test: string[] };
  secrets?: string[];
}

const compose = parse(read('compose.yaml'), { merge: true }) as {
  services: Record<string, Service>;
  secrets: Record<string, unknown>;
  volumes: Record<string, unknown>;
};
const seconds = (v: string) => Number(/^(\d+)s$/.exec(v)?.[1]);

describe('deploy/compose.yaml (issue #28)', () => {
  const known = new Set(SETTINGS.map((s) => s.env));
  const apps = ['coursegate-a', 'coursegate-b'].map((n) => compose.services[n]!);

  test('two coursegate processes, a migration job, haproxy, PostgreSQL, a Redis primary + replica and three sentinels', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [
        'coursegate-a',
        'coursegate-b',
        'haproxy',
        'migrate',
        'postgres',
        'redis-primary',
        'redis-replica',
        'redis-sentinel-1',
        'redis-sentinel-2',
        'redis-sentinel-3',
      ].sort(),
    );
    for (const s of Object.values(compose.services)) expect(s.image).toMatch(/\S/);
  });

  test('every variable the processes get is a documented setting; production with the required ones', () => {
    for (const app of apps) {
      for (const name of Object.keys(app.environment!)) expect(known).toContain(name);
      expect(app.environment).toMatchObject({
        NODE_ENV: 'production',
        MIGRATE_ON_START: 'false',
        REDIS_MIN_REPLICAS_ACKED: '1',
      });
      for (const required of SETTINGS.filter((s) => s.requiredInProduction).map((s) => s.env))
        expect(Object.keys(app.environment!)).toContain(required);
      expect(app.secrets).toContain('signing_key');
    }
    expect(Object.keys(compose.secrets)).toContain('signing_key');
  });

  test('migrations run first, as their own job, with the command the image ships', () => {
    const migrate = compose.services.migrate!;
    expect(migrate.command).toEqual(['node', 'dist/src/cli/migrate.js']);
    expect(existsSync(path.join(ROOT, 'src/cli/migrate.ts'))).toBe(true); // compiled to dist/src/cli/migrate.js
    for (const app of apps)
      expect((app.depends_on as Record<string, { condition: string }>).migrate).toEqual({
        condition: 'service_completed_successfully',
      });
  });

  test('Redis through the sentinels, under the name sentinel.conf monitors', () => {
    const monitor = /^sentinel monitor (\S+) (\S+) (\d+) (\d+)$/m.exec(read('sentinel.conf'));
    expect(monitor?.[1]).toBe(apps[0]!.environment!.REDIS_SENTINEL_NAME);
    expect(monitor?.[2]).toBe('redis-primary');
    expect(Number(monitor?.[4])).toBe(2); // quorum of 3
    const sentinels = apps[0]!.environment!.REDIS_SENTINELS!.split(',');
    expect(sentinels).toHaveLength(3);
    for (const s of sentinels) expect(Object.keys(compose.services)).toContain(s.split(':')[0]);
    expect(compose.services['redis-replica']!.command).toEqual(
      expect.arrayContaining(['--replicaof', 'redis-primary']),
    );
    for (const n of ['redis-primary', 'redis-replica'])
      expect(compose.services[n]!.command).toEqual(expect.arrayContaining(['--appendfsync', 'always']));
  });

  test('Docker waits longer than the drain; haproxy takes a process out on /readyz', () => {
    for (const app of apps) {
      const drain = Number(app.environment!.SHUTDOWN_DELAY_SECONDS) + Number(app.environment!.SHUTDOWN_GRACE_SECONDS);
      expect(seconds(app.stop_grace_period!)).toBeGreaterThan(drain);
      expect(app.healthcheck!.test.join(' ')).toContain('/readyz');
    }
    const haproxy = read('haproxy.cfg');
    expect(haproxy).toMatch(/option httpchk GET \/readyz/);
    expect(haproxy).toMatch(/server a coursegate-a:3000 check/);
    expect(haproxy).toMatch(/server b coursegate-b:3000 check/);
    // The check interval is shorter than the delay during which a draining process still serves.
    const inter = Number(/inter (\d+)s/.exec(haproxy)?.[1]);
    expect(inter).toBeLessThan(Number(apps[0]!.environment!.SHUTDOWN_DELAY_SECONDS));
  });
});
