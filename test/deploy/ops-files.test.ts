/**
 * Issue #28 item 5: the operations files in `deploy/` are checked against the server they describe
 * (no cluster and no Prometheus server here; `promtool check rules` and `promtool test rules
 * alerts.test.yaml` run when the Debian `prometheus` package's promtool is installed):
 *
 * - every YAML and JSON file under `deploy/` parses;
 * - `deploy/kubernetes/`: the Deployment's probes, ports and settings match coursegate's (`/readyz`
 *   readiness, `/healthz` liveness, PORT and METRICS_PORT), it runs as the image's numeric user
 *   (1000, `runAsNonRoot`) on a read-only root with every capability dropped, Kubernetes waits longer
 *   than SHUTDOWN_DELAY_SECONDS + SHUTDOWN_GRACE_SECONDS, the migrate Job runs the command the image
 *   ships, and the environment both build from the ConfigMap and the Secret is one a production
 *   start accepts (`loadConfig`), while the example Secret's placeholders are refused;
 * - `deploy/prometheus/alerts.yaml` and `deploy/grafana/coursegate.json`: every metric their PromQL
 *   names is in a live server's `/metrics` (a renamed metric fails here), every `kind` label value
 *   is one src/ops/metrics.ts counts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments, parse } from 'yaml';
import { SETTINGS } from '../../src/config-settings.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { generateSigningKey } from '../../src/oauth/keys.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DEPLOY = path.join(ROOT, 'deploy');
const K8S = path.join(DEPLOY, 'kubernetes');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/* eslint-disable @typescript-eslint/no-explicit-any -- Kubernetes objects are read as parsed YAML */
type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
};

function objectsOf(file: string): K8sObject[] {
  return parseAllDocuments(readFileSync(path.join(K8S, file), 'utf8'))
    .map((d) => d.toJS() as K8sObject)
    .filter(Boolean);
}

describe('every file under deploy/ parses', () => {
  // A Helm chart's templates are YAML only once rendered (test/deploy/helm-chart.test.ts renders them).
  const files = filesUnder(DEPLOY).filter(
    (f) => /\.(ya?ml|json)$/.test(f) && !f.includes(`${path.sep}templates${path.sep}`),
  );
  test.each(files.map((f) => path.relative(ROOT, f)))('%s', (file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    if (file.endsWith('.json')) expect(() => JSON.parse(text)).not.toThrow();
    else for (const doc of parseAllDocuments(text)) expect(doc.errors).toEqual([]);
  });
  test('the files the docs name are there', () => {
    const names = files.map((f) => path.relative(DEPLOY, f));
    expect(names).toEqual(
      expect.arrayContaining([
        'compose.yaml',
        'kubernetes/kustomization.yaml',
        'kubernetes/deployment.yaml',
        'kubernetes/migrate-job.yaml',
        'prometheus/alerts.yaml',
        'grafana/coursegate.json',
      ]),
    );
  });
});

describe('deploy/kubernetes', () => {
  const kustomization = parse(readFileSync(path.join(K8S, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
  const all = kustomization.resources.flatMap(objectsOf);
  const one = (kind: string, name?: string) => {
    const found = all.filter((o) => o.kind === kind && (!name || o.metadata.name === name));
    expect(found).toHaveLength(1);
    return found[0]!;
  };
  const deployment = one('Deployment');
  const job = one('Job');
  const configMap = one('ConfigMap');
  const exampleSecret = objectsOf('secret.example.yaml')[0]!;
  const settings = configMap.data!;
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const known = new Set(SETTINGS.map((s) => s.env));

  test('kustomize lists every manifest but the example Secret (apply -k never overwrites the real one)', () => {
    const manifests = readdirSync(K8S).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(manifests.filter((f) => f !== 'secret.example.yaml').sort());
    expect(exampleSecret.kind).toBe('Secret');
    expect(all.map((o) => o.kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'Job',
      'PodDisruptionBudget',
      'Service',
      'Service',
    ]);
  });

  test('two replicas; readiness on /readyz, liveness on /healthz, on the port PORT names; metrics on METRICS_PORT', () => {
    expect(deployment.spec.replicas).toBe(2);
    const ports = Object.fromEntries(
      (container.ports as { name: string; containerPort: number }[]).map((p) => [p.name, p.containerPort]),
    );
    expect(ports).toEqual({ http: Number(settings.PORT), metrics: Number(settings.METRICS_PORT) });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    // A start waits up to 30 s for PostgreSQL (docs/deployment.md §8a): the startup probe allows it.
    expect(container.startupProbe.periodSeconds * container.startupProbe.failureThreshold).toBeGreaterThanOrEqual(30);
    expect(deployment.spec.template.metadata.annotations['prometheus.io/port']).toBe(settings.METRICS_PORT);
  });

  test('Kubernetes waits longer than the drain; no preStop (the delay covers endpoint removal)', () => {
    const drain = Number(settings.SHUTDOWN_DELAY_SECONDS) + Number(settings.SHUTDOWN_GRACE_SECONDS);
    expect(Number(settings.SHUTDOWN_DELAY_SECONDS)).toBeGreaterThanOrEqual(5);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(drain);
    expect(container.lifecycle?.preStop).toBeUndefined();
  });

  test('the image user by number, non-root, read-only root with /tmp and DATA_DIR writable, no capabilities', () => {
    const user = /^USER (\d+):(\d+)$/m.exec(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
    expect(user?.slice(1)).toEqual(['1000', '1000']);
    for (const spec of [pod, job.spec.template.spec]) {
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000 });
      expect(spec.automountServiceAccountToken).toBe(false);
      for (const c of spec.containers) {
        expect(c.securityContext).toMatchObject({
          runAsNonRoot: true,
          runAsUser: 1000,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        const mounted = (c.volumeMounts as { name: string; mountPath: string }[]).map((m) => [
          m.mountPath,
          spec.volumes.find((v: { name: string }) => v.name === m.name),
        ]);
        for (const [mountPath, volume] of mounted) if (mountPath === '/tmp') expect(volume.emptyDir).toBeDefined();
        expect(mounted.map(([p]) => p)).toContain('/tmp');
      }
    }
    const dataMount = container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === settings.DATA_DIR);
    expect(pod.volumes.find((v: { name: string }) => v.name === dataMount.name).emptyDir).toBeDefined();
  });

  test('the migrate Job reads the signing key as the server pods do: same security contexts, fsGroup, key volume', () => {
    const jobPod = job.spec.template.spec;
    // The key is mounted 0400 root-owned; only fsGroup gives the image's user (1000) read access.
    expect(pod.securityContext.fsGroup).toBe(pod.securityContext.runAsGroup);
    expect(jobPod.securityContext).toEqual(pod.securityContext);
    expect(jobPod.containers[0].securityContext).toEqual(container.securityContext);
    const keyVolume = (spec: { volumes: { name: string }[] }) => spec.volumes.find((v) => v.name === 'signing-key');
    expect(keyVolume(jobPod)).toEqual(keyVolume(pod));
    const keyMount = (c: { volumeMounts: { name: string }[] }) => c.volumeMounts.find((m) => m.name === 'signing-key');
    expect(keyMount(jobPod.containers[0])).toEqual(keyMount(container));
  });

  test('resources from the sizing in docs/deployment.md (~250 MB per process under load)', () => {
    const mib = (v: string) => Number(/^(\d+)Mi$/.exec(v)?.[1]);
    expect(mib(container.resources.requests.memory)).toBeGreaterThanOrEqual(250);
    expect(mib(container.resources.limits.memory)).toBeGreaterThan(mib(container.resources.requests.memory));
    expect(container.resources.requests.cpu).toMatch(/^\d+m?$/);
  });

  test('the Services and the disruption budget select the pods; metrics on a Service of their own', () => {
    const podLabels = deployment.spec.template.metadata.labels;
    expect(deployment.spec.selector.matchLabels).toEqual(podLabels);
    const services = all.filter((o) => o.kind === 'Service');
    for (const s of services) expect(podLabels).toMatchObject(s.spec.selector);
    const main = one('Service', 'coursegate');
    const metrics = one('Service', 'coursegate-metrics');
    expect(main.spec.ports.map((p: { targetPort: string }) => p.targetPort)).toEqual(['http']);
    expect(metrics.spec.ports.map((p: { targetPort: string }) => p.targetPort)).toEqual(['metrics']);
    const pdb = one('PodDisruptionBudget');
    expect(podLabels).toMatchObject(pdb.spec.selector.matchLabels);
    expect(pdb.spec.maxUnavailable).toBeLessThan(deployment.spec.replicas);
  });

  test('the migrate Job runs the command the image ships; the processes do not migrate', () => {
    expect(settings.MIGRATE_ON_START).toBe('false');
    const [migrate] = job.spec.template.spec.containers;
    expect(migrate.image).toBe(container.image);
    expect(migrate.command).toEqual(['node', 'dist/src/cli/migrate.js']);
    // The image layout: WORKDIR /app, dist/ copied from the build stage, where `tsc` (rootDir ".",
    // outDir "dist", src included) compiles src/cli/migrate.ts to dist/src/cli/migrate.js.
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^WORKDIR \/app$/m);
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    const tsconfig = JSON.parse(
      readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, ''),
    ) as { compilerOptions: { rootDir: string; outDir: string } };
    expect(tsconfig.compilerOptions).toMatchObject({ rootDir: '.', outDir: 'dist' });
    expect(
      (JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.build.json'), 'utf8')) as { include: string[] }).include,
    ).toContain('src');
    expect(statSync(path.join(ROOT, 'src/cli/migrate.ts')).isFile()).toBe(true);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
  });

  describe('the environment the manifests build is one a production start accepts', () => {
    let dir: string;
    let keyFile: string;
    const valid: Record<string, string> = {
      COOKIE_SECRETS: 'k'.repeat(48),
      DATABASE_URL: 'postgres://coursegate:pw@postgres:5432/coursegate',
      REDIS_URL: 'redis://:pw@redis:6379/0',
    };
    beforeAll(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-ops-'));
      keyFile = path.join(dir, 'signing-key.json');
      writeFileSync(keyFile, JSON.stringify(await generateSigningKey()));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** The container's environment as the kubelet builds it, with `secrets` for the Secret's values. */
    function envOf(
      c: {
        envFrom?: { configMapRef: { name: string } }[];
        env?: { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }[];
      },
      secrets: Record<string, string>,
    ) {
      const env: Record<string, string> = {};
      for (const from of c.envFrom ?? []) {
        expect(from.configMapRef.name).toBe(configMap.metadata.name);
        Object.assign(env, configMap.data);
      }
      for (const e of c.env ?? []) {
        if (e.valueFrom) {
          expect(e.valueFrom.secretKeyRef.name).toBe(exampleSecret.metadata.name);
          expect(Object.keys(exampleSecret.stringData!)).toContain(e.valueFrom.secretKeyRef.key);
          env[e.name] = secrets[e.valueFrom.secretKeyRef.key]!;
        } else env[e.name] = e.value!;
      }
      return env;
    }

    test.each([
      ['the Deployment', () => container],
      ['the migrate Job', () => job.spec.template.spec.containers[0]],
    ])('%s', (_, which) => {
      const env = envOf(which(), valid);
      for (const name of Object.keys(env)) expect(known).toContain(name);
      // The signing key is the Secret's `signing-key.json`, mounted where SIGNING_KEY_FILE points.
      const mount = which().volumeMounts.find((m: { mountPath: string }) =>
        env.SIGNING_KEY_FILE!.startsWith(`${m.mountPath}/`),
      );
      expect(mount).toBeDefined();
      const config = loadConfig({ ...env, SIGNING_KEY_FILE: keyFile, PATH: process.env.PATH! }, dir);
      expect(config.baseUrl).toBe(settings.BASE_URL);
      expect(config.migrateOnStart).toBe(false);
    });

    test('the example Secret is refused as it is (no placeholder can go to production)', () => {
      const env = envOf(container, exampleSecret.stringData!);
      expect(() => loadConfig({ ...env, SIGNING_KEY_FILE: keyFile }, dir)).toThrow(ConfigError);
      expect(() => loadConfig({ ...env, SIGNING_KEY_FILE: keyFile }, dir)).toThrow(/COOKIE_SECRETS/);
    });

    test('compose: the migrate service gets a configuration a production start accepts too', () => {
      const compose = parse(readFileSync(path.join(DEPLOY, 'compose.yaml'), 'utf8'), { merge: true }) as {
        services: Record<string, { environment: Record<string, string>; secrets?: string[] }>;
      };
      const interpolate = (v: string) =>
        v.replace(
          /\$\{(\w+)(?::[-?]([^}]*))?\}/g,
          (_m, name: string, fallback: string | undefined) =>
            ({ COOKIE_SECRETS: valid.COOKIE_SECRETS!, POSTGRES_PASSWORD: 'pw' })[name] ?? fallback ?? '',
        );
      const migrate = compose.services.migrate!;
      expect(migrate.secrets).toContain('signing_key');
      const env = Object.fromEntries(Object.entries(migrate.environment).map(([k, v]) => [k, interpolate(String(v))]));
      expect(() => loadConfig({ ...env, SIGNING_KEY_FILE: keyFile }, dir)).not.toThrow();
    });
  });
});

/** Identifiers a PromQL expression uses as metric names (not functions, keywords, labels, ranges). */
function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const keywords = new Set([
    'by',
    'without',
    'on',
    'ignoring',
    'group_left',
    'group_right',
    'bool',
    'and',
    'or',
    'unless',
    'offset',
    'inf',
    'nan',
  ]);
  const names = new Set<string>();
  for (const m of stripped.matchAll(/(?<![\w$.])([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\()?/g)) {
    if (m[2] || keywords.has(m[1]!.toLowerCase())) continue; // a function call or a keyword
    names.add(m[1]!);
  }
  return [...names];
}

describe('alert rules and dashboard name only metrics the server exports', () => {
  let server: TestServer;
  let exported: Set<string>;
  let routes: Set<string>;
  beforeAll(async () => {
    server = await startTestServer();
    // A token request and a readiness probe, so that their `route` label values are in /metrics.
    await fetch(`${server.baseUrl}/api/oauth/token`, {
      method: 'POST',
      body: 'grant_type=nope',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await fetch(`${server.baseUrl}/readyz`);
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    exported = new Set();
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      exported.add(name!);
      if (type === 'histogram' || type === 'summary')
        for (const suffix of ['_bucket', '_sum', '_count']) exported.add(name! + suffix);
    }
    routes = new Set([...text.matchAll(/route="([^"]+)"/g)].map((m) => m[1]!));
  });
  afterAll(() => server.close());

  const alerts = parse(readFileSync(path.join(DEPLOY, 'prometheus/alerts.yaml'), 'utf8')) as {
    groups: {
      name: string;
      rules: {
        alert: string;
        expr: string;
        for?: string;
        labels: { severity: string };
        annotations: { summary: string };
      }[];
    }[];
  };
  const rules = alerts.groups.flatMap((g) => g.rules);
  const dashboard = JSON.parse(readFileSync(path.join(DEPLOY, 'grafana/coursegate.json'), 'utf8')) as {
    uid: string;
    panels: { id: number; type: string; title: string; targets?: { expr: string }[] }[];
    templating: { list: { query: string }[] };
    annotations: { list: { expr: string }[] };
  };
  const dashboardExprs = [
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
    ...dashboard.templating.list
      .map((t) => /label_values\((\w+)/.exec(t.query)?.[1])
      .filter((m): m is string => Boolean(m)),
    ...dashboard.annotations.list.map((a) => a.expr),
  ];
  // Prometheus' own series for each scrape target.
  const synthetic = new Set(['up']);

  test('the rules cover what issue #28 asks for, each with a severity and a summary', () => {
    for (const r of rules) {
      expect(r.labels.severity).toMatch(/^(page|warning)$/);
      expect(r.annotations.summary).toMatch(/\S/);
    }
    const all = rules.map((r) => r.expr).join('\n');
    expect(all).toMatch(/kind=~"http_5xx/); // 5xx defects
    expect(all).toMatch(/http_503_unavailable\|oidc_store_outage/); // outage 503s
    expect(all).toMatch(/histogram_quantile\(0\.99,[\s\S]*route="token"/); // token p99
    expect(all).toMatch(/coursegate_rate_limited_total/);
    expect(all).toMatch(/route="\/readyz",status="503"/);
    expect(all).toMatch(/changes\(process_start_time_seconds/);
  });

  test('every metric in alerts.yaml is in /metrics', () => {
    const used = new Set(rules.flatMap((r) => metricNamesIn(r.expr)));
    expect(used.size).toBeGreaterThanOrEqual(6);
    for (const name of used)
      expect(synthetic.has(name) || exported.has(name) ? name : `${name} (not exported)`).toBe(name);
  });

  test('every metric in the dashboard is in /metrics', () => {
    expect(dashboard.panels.filter((p) => p.type !== 'row').length).toBeGreaterThanOrEqual(12);
    const used = new Set(dashboardExprs.flatMap(metricNamesIn));
    for (const name of used) expect(exported.has(name) ? name : `${name} (not exported)`).toBe(name);
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
  });

  test('label values: each `kind` is one metrics.ts counts, each `route` one the server reports', () => {
    const source = readFileSync(path.join(ROOT, 'src/ops/metrics.ts'), 'utf8');
    const counted = new Set(
      [...source.matchAll(/kind: (?:isStoreOutage\(err\) \? )?'([a-z0-9_]+)'(?: : '([a-z0-9_]+)')?/g)].flatMap(
        (m) => [m[1]!, m[2]].filter(Boolean) as string[],
      ),
    );
    expect(counted).toEqual(
      new Set([
        'http_503_unavailable',
        'http_5xx',
        'oidc_store_outage',
        'oidc_server_error',
        'token_endpoint',
        'platform_query',
      ]),
    );
    for (const expr of [...rules.map((r) => r.expr), ...dashboardExprs]) {
      for (const [, values] of expr.matchAll(/kind=~?"([^"]+)"/g))
        for (const v of values!.split('|')) expect(counted).toContain(v);
      for (const [, value] of expr.matchAll(/route="([^"]+)"/g)) expect(routes).toContain(value);
    }
  });

  test('the PromQL parser used here finds names, not functions or labels', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.99, sum by (job, le) (rate(a_bucket{route="token"}[5m]))) > 0.5 and on(job) up == 0',
      ),
    ).toEqual(['a_bucket', 'up']);
  });

  const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0;
  (promtool ? test : test.skip)('promtool check rules (Debian package `prometheus`)', () => {
    const run = spawnSync('promtool', ['check', 'rules', path.join(DEPLOY, 'prometheus/alerts.yaml')], {
      encoding: 'utf8',
    });
    expect(run.stderr + run.stdout).toMatch(/SUCCESS: \d+ rules found/);
    expect(run.status).toBe(0);
  });
  (promtool ? test : test.skip)(
    'promtool test rules: the alerts fire on the series a server exports (and a short drain does not)',
    () => {
      const run = spawnSync('promtool', ['test', 'rules', 'alerts.test.yaml'], {
        cwd: path.join(DEPLOY, 'prometheus'),
        encoding: 'utf8',
      });
      expect(run.stderr + run.stdout).toMatch(/SUCCESS/);
      expect(run.status).toBe(0);
    },
  );
  test('the unit tests of the rules use exported series only', () => {
    const unit = parse(readFileSync(path.join(DEPLOY, 'prometheus/alerts.test.yaml'), 'utf8')) as {
      tests: { input_series: { series: string }[] }[];
    };
    const names = new Set(unit.tests.flatMap((t) => t.input_series.flatMap((s) => metricNamesIn(s.series))));
    for (const name of names) expect(exported.has(name) ? name : `${name} (not exported)`).toBe(name);
  });
  if (!promtool)
    console.warn('promtool not installed (apt-get install prometheus): alerts.yaml checked structurally only');
});

describe('the shipped balancer configurations cannot take every process out at once', () => {
  const haproxy = readFileSync(path.join(DEPLOY, 'haproxy.cfg'), 'utf8');
  const nginx = readFileSync(path.join(DEPLOY, 'nginx.conf'), 'utf8');
  const compose = parse(readFileSync(path.join(DEPLOY, 'compose.yaml'), 'utf8')) as {
    services: Record<string, { environment?: Record<string, string> }>;
  };
  const lines = haproxy.split('\n').map((l) => l.trim());
  /** haproxy time (`500ms`, `2s`, `1m`; bare numbers are ms) → ms. */
  const ms = (v: string) => {
    const m = /^(\d+)(ms|s|m)?$/.exec(v);
    if (!m) throw new Error(`not a haproxy time: ${v}`);
    return Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000 }[m[2] ?? 'ms'] ?? 1);
  };
  const defaultServer = Object.fromEntries(
    (
      lines
        .find((l) => l.startsWith('default-server '))
        ?.split(/\s+/)
        .slice(1) ?? []
    ).flatMap((w, i, all) => (i % 2 === 0 ? [[w, all[i + 1]!]] : [])),
  ) as Record<string, string>;

  test('haproxy: a check timeout, three failed checks in a row before a process is marked down', () => {
    const check = lines.find((l) => l.startsWith('timeout check '))?.split(/\s+/)[2];
    expect(check).toBeDefined();
    // /readyz answers within 100 ms (test/ops/readyz-latency.test.ts): 2 s is 20× that, not a race.
    expect(ms(check!)).toBeGreaterThanOrEqual(2000);
    expect(Number(defaultServer.fall)).toBeGreaterThanOrEqual(3);
    expect(ms(defaultServer.inter!)).toBeGreaterThanOrEqual(1000);
  });

  test('haproxy: a draining process is out before SHUTDOWN_DELAY_SECONDS of the shipped compose file ends', () => {
    const fall = Number(defaultServer.fall);
    const outWithinMs = ms(defaultServer.inter!) + (fall - 1) * ms(defaultServer.fastinter ?? defaultServer.inter!);
    for (const [name, service] of Object.entries(compose.services)) {
      const delay = service.environment?.SHUTDOWN_DELAY_SECONDS;
      if (delay !== undefined)
        expect({ name, outWithinMs: outWithinMs < Number(delay) * 1000 }).toEqual({ name, outWithinMs: true });
    }
  });

  test('haproxy: logs carry the path only (no query string: one-time tokens), its own 503 carries Retry-After', () => {
    expect(lines).not.toContain('option httplog');
    const format = lines.find((l) => l.startsWith('log-format '));
    expect(format).toBeDefined();
    // %r is the whole request line, %HU the URI with its query, %HQ the query string.
    expect(format).not.toMatch(/%r\b|%HU|%HQ|%\[(capture\.req\.uri|url|query)/);
    expect(format).toMatch(/%HP\b/);
    expect(lines.find((l) => l.startsWith('http-error status 503'))).toMatch(/hdr Retry-After \d+/);
  });

  test('nginx: passive checks need three failures; the access log has no query string; its own 502/504 is a 503 with Retry-After', () => {
    for (const m of nginx.matchAll(/^\s*#?\s*server 127\.0\.0\.1:\d+ (.*);/gm)) {
      expect(Number(/max_fails=(\d+)/.exec(m[1]!)?.[1])).toBeGreaterThanOrEqual(3);
    }
    const logFormat = /log_format coursegate ([^;]+);/.exec(nginx)?.[1];
    expect(logFormat).toBeDefined();
    expect(logFormat).not.toMatch(/\$request\b|\$request_uri|\$args|\$query_string|\$is_args/);
    expect(nginx).toMatch(/access_log \S+ coursegate;/);
    expect(nginx).toMatch(/error_page 502 504 = @unavailable;/);
    expect(nginx).toMatch(/add_header Retry-After \d+ always;/);
  });

  test('kubernetes: the readiness probe tolerates one slow answer (failureThreshold ≥ 2, timeout ≥ 1 s)', () => {
    const deployment = objectsOf('deployment.yaml').find((o) => o.kind === 'Deployment')!;
    const probe = deployment.spec.template.spec.containers[0].readinessProbe;
    expect(probe.timeoutSeconds).toBeGreaterThanOrEqual(1);
    expect(probe.failureThreshold).toBeGreaterThanOrEqual(2);
  });
});

describe('the commands and figures the deploy files and docs state', () => {
  const deployTexts = filesUnder(DEPLOY).map((f) => [path.relative(ROOT, f), readFileSync(f, 'utf8')] as const);

  test('the key is made with a command that writes nothing but the key (no `npm run … > file`)', () => {
    for (const [file, text] of deployTexts) {
      // npm prints its "> coursegate@… keys:generate" banner on stdout: a redirect captures it.
      const redirected = [...text.matchAll(/npm run (?!--silent)[^`\n]*keys:generate[^`\n]*>/g)].map((m) => m[0]);
      const commands = [...text.matchAll(/`(npm run keys:generate[^`]*)`/g)].map((m) => m[1]);
      expect({ file, redirected: redirected.filter((r) => !text.includes(`a plain \`${r}`)) }).toEqual({
        file,
        redirected: [],
      });
      for (const c of commands)
        if (!c?.includes('> file'))
          expect({ file, command: c }).toEqual({ file, command: expect.stringMatching(/ -- --out \S+$/) });
    }
  });

  test('every docs/ page a deploy file names exists', () => {
    for (const [file, text] of deployTexts)
      for (const [ref] of text.matchAll(/docs\/[\w-]+\.md/g))
        expect({
          file,
          ref,
          exists: statSync(path.join(ROOT, ref), { throwIfNoEntry: false })?.isFile() ?? false,
        }).toEqual({
          file,
          ref,
          exists: true,
        });
  });

  test('the replica acknowledgement wait is stated as the code waits', async () => {
    const { REPLICA_ACK_TIMEOUT_MS } = await import('../../adapters/replica-acks.js');
    const acked = SETTINGS.find((s) => s.env === 'REDIS_MIN_REPLICAS_ACKED')!;
    expect(acked.description).toContain(`within ${REPLICA_ACK_TIMEOUT_MS} ms`);
    expect(acked.description).not.toMatch(/within 1 s/);
    const deployment = readFileSync(path.join(ROOT, 'docs/deployment.md'), 'utf8');
    expect(deployment).toContain(`WAIT n ${REPLICA_ACK_TIMEOUT_MS}`);
  });

  test('the documented drain delay is the default', () => {
    const delay = SETTINGS.find((s) => s.env === 'SHUTDOWN_DELAY_SECONDS')!;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-defaults-'));
    try {
      const seconds = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir }).shutdown.delaySeconds;
      expect(seconds).toBeGreaterThan(0);
      expect(delay.default).toBe(`\`${seconds}\``);
      expect(readFileSync(path.join(ROOT, 'docs/deployment.md'), 'utf8')).toContain(
        `\`SHUTDOWN_DELAY_SECONDS\`, default ${seconds}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
