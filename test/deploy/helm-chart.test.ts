/**
 * The Helm chart (deploy/helm/coursegate) beside the plain manifests: `helm lint` passes and
 * `helm template` renders objects that agree with the server and with deploy/kubernetes/:
 *
 * - the migrate Job and the Deployment have the same pod and container security contexts (the
 *   signing key is mounted 0400 and fsGroup makes it readable by the image's user) and the same key
 *   volume;
 * - replicas, resources, the HorizontalPodAutoscaler, the PodDisruptionBudget and the NetworkPolicy
 *   follow the values; every secret is a reference to the named Secret;
 * - the environment the chart builds, with the Secret's values, is one a production start accepts.
 *
 * helm is not a Debian package and is not in node_modules: the rendering tests run when `helm` is
 * on PATH or `HELM=/path/to/helm` is set, and skip with a loud message otherwise. The checks that
 * need no rendering (chart metadata, values against the plain manifests) always run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { SETTINGS } from '../../src/config-settings.js';
import { loadConfig } from '../../src/config.js';
import { generateSigningKey } from '../../src/oauth/keys.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CHART = path.join(ROOT, 'deploy/helm/coursegate');
const K8S = path.join(ROOT, 'deploy/kubernetes');

/* eslint-disable @typescript-eslint/no-explicit-any -- Kubernetes objects are read as parsed YAML */
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; annotations?: any }; spec: any };

/** The helm binary to use, or undefined when none runs here. */
function findHelm(): string | undefined {
  const candidate = process.env.HELM ?? 'helm';
  const probe = spawnSync(candidate, ['version', '--short'], { encoding: 'utf8' });
  return probe.status === 0 ? candidate : undefined;
}
const HELM = findHelm();
if (!HELM) process.stderr.write('\n*** SKIPPED: helm lint / helm template (no helm on PATH, HELM unset) ***\n');

/** `helm template` of the chart with `--set` pairs; the parsed objects. */
function render(sets: string[] = []): K8sObject[] {
  const args = ['template', 'cg', CHART, ...sets.flatMap((s) => ['--set', s])];
  const out = spawnSync(HELM as string, args, { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`helm template failed: ${out.stderr}`);
  // Kubernetes reads manifests as YAML 1.1, where `0400` is octal.
  return parseAllDocuments(out.stdout, { version: '1.1' })
    .map((d) => d.toJS() as K8sObject)
    .filter(Boolean);
}

const plainDeployment = parse(readFileSync(path.join(K8S, 'deployment.yaml'), 'utf8')) as K8sObject;

describe('the chart without rendering', () => {
  const chart = parse(readFileSync(path.join(CHART, 'Chart.yaml'), 'utf8')) as Record<string, string>;
  const values = parse(readFileSync(path.join(CHART, 'values.yaml'), 'utf8')) as Record<string, any>;

  test('Chart.yaml: apiVersion v2, appVersion the package version', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(chart).toMatchObject({ apiVersion: 'v2', name: 'coursegate', type: 'application', appVersion: pkg.version });
  });

  test('the security contexts of the values are those of the plain Deployment', () => {
    const pod = plainDeployment.spec.template.spec;
    expect(values.podSecurityContext).toEqual(pod.securityContext);
    expect(values.containerSecurityContext).toEqual(pod.containers[0].securityContext);
  });

  test('the Job and the Deployment take their security context and key volume from the same helpers', () => {
    for (const file of ['deployment.yaml', 'migrate-job.yaml']) {
      const text = readFileSync(path.join(CHART, 'templates', file), 'utf8');
      expect(text).toContain('include "coursegate.podSecurityContext"');
      expect(text).toContain('include "coursegate.containerSecurityContext"');
      expect(text).toContain('include "coursegate.signingKeyVolume"');
      expect(text).toContain('include "coursegate.env"');
    }
  });

  test('every config value is a setting coursegate reads', () => {
    const known = new Set(SETTINGS.map((s) => s.env));
    for (const name of Object.keys(values.config)) expect(known.has(name) ? name : `unknown ${name}`).toBe(name);
  });
});

(HELM ? describe : describe.skip)('helm lint and helm template', () => {
  const objects = HELM ? render() : [];
  const one = (list: K8sObject[], kind: string) => {
    const found = list.filter((o) => o.kind === kind);
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  test('helm lint passes', () => {
    const out = spawnSync(HELM as string, ['lint', CHART], { encoding: 'utf8' });
    expect(out.stderr + out.stdout).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    expect(out.status).toBe(0);
  });

  test('defaults: Deployment, migrate Job (pre-install/pre-upgrade hook), two Services, PDB, NetworkPolicy; no HPA', () => {
    expect(objects.map((o) => o.kind).sort()).toEqual([
      'Deployment',
      'Job',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'Service',
      'Service',
    ]);
    expect(one(objects, 'Job').metadata.annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(one(objects, 'Deployment').spec.replicas).toBe(2);
  });

  test('the migrate Job reads the key as the server pods do: same security contexts, fsGroup, key volume', () => {
    const pod = one(objects, 'Deployment').spec.template.spec;
    const job = one(objects, 'Job').spec.template.spec;
    expect(pod.securityContext.fsGroup).toBe(1000);
    expect(job.securityContext).toEqual(pod.securityContext);
    expect(job.containers[0].securityContext).toEqual(pod.containers[0].securityContext);
    const key = (spec: any) => spec.volumes.find((v: { name: string }) => v.name === 'signing-key');
    expect(key(job)).toEqual(key(pod));
    expect(key(pod).secret.defaultMode).toBe(0o400);
    // The same as the plain manifests.
    expect(pod.securityContext).toEqual(plainDeployment.spec.template.spec.securityContext);
    expect(job.containers[0].command).toEqual(['node', 'dist/src/cli/migrate.js']);
  });

  test('values: replicas, resources, HPA (then no replicas in the Deployment), PDB, NetworkPolicy rules', () => {
    const scaled = render([
      'autoscaling.enabled=true',
      'autoscaling.maxReplicas=9',
      'resources.requests.cpu=750m',
      'podDisruptionBudget.maxUnavailable=2',
      'networkPolicy.metricsFrom[0].podSelector.matchLabels.app=prometheus',
    ]);
    const deployment = one(scaled, 'Deployment');
    expect(deployment.spec.replicas).toBeUndefined();
    expect(deployment.spec.template.spec.containers[0].resources.requests.cpu).toBe('750m');
    const hpa = one(scaled, 'HorizontalPodAutoscaler');
    expect(hpa.spec).toMatchObject({
      scaleTargetRef: { kind: 'Deployment', name: deployment.metadata.name },
      minReplicas: 2,
      maxReplicas: 9,
    });
    expect(one(scaled, 'PodDisruptionBudget').spec.maxUnavailable).toBe(2);
    const policy = one(scaled, 'NetworkPolicy');
    expect(policy.spec.podSelector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
    expect(policy.spec.ingress[1]).toEqual({
      ports: [{ port: 'metrics', protocol: 'TCP' }],
      from: [{ podSelector: { matchLabels: { app: 'prometheus' } } }],
    });
    const off = render(['podDisruptionBudget.enabled=false', 'networkPolicy.enabled=false', 'migrate.enabled=false']);
    expect(off.map((o) => o.kind).sort()).toEqual(['Deployment', 'Service', 'Service']);
    const env = one(off, 'Deployment').spec.template.spec.containers[0].env as { name: string; value?: string }[];
    expect(env.find((e) => e.name === 'MIGRATE_ON_START')?.value).toBe('true');
  });

  test('secrets by reference only; the environment built is one a production start accepts', async () => {
    const deployment = one(objects, 'Deployment');
    const env = deployment.spec.template.spec.containers[0].env as {
      name: string;
      value?: string;
      valueFrom?: { secretKeyRef: { name: string; key: string } };
    }[];
    const fromSecret = env.filter((e) => e.valueFrom);
    expect(fromSecret.map((e) => e.valueFrom?.secretKeyRef.name)).toEqual(fromSecret.map(() => 'coursegate-secrets'));
    expect(fromSecret.map((e) => e.name).sort()).toEqual(['COOKIE_SECRETS', 'DATABASE_URL', 'REDIS_URL']);
    const known = new Set(SETTINGS.map((s) => s.env));
    for (const e of env) expect(known.has(e.name) ? e.name : `unknown ${e.name}`).toBe(e.name);

    const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-helm-'));
    try {
      const keyFile = path.join(dir, 'signing-key.json');
      writeFileSync(keyFile, JSON.stringify(await generateSigningKey()));
      const secretValues: Record<string, string> = {
        COOKIE_SECRETS: 'k'.repeat(48),
        DATABASE_URL: 'postgres://coursegate:pw@postgres:5432/coursegate',
        REDIS_URL: 'redis://:pw@redis:6379/0',
      };
      const built = Object.fromEntries(
        env.map((e) => [e.name, e.valueFrom ? (secretValues[e.valueFrom.secretKeyRef.key] ?? '') : (e.value ?? '')]),
      );
      const config = loadConfig({ ...built, SIGNING_KEY_FILE: keyFile, DATA_DIR: dir });
      expect(config.baseUrl).toBe('https://auth.example.com');
      expect(config.migrateOnStart).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an install without a Secret name is refused, naming the value', () => {
    const out = spawnSync(HELM as string, ['template', 'cg', CHART, '--set', 'secrets.existingSecret='], {
      encoding: 'utf8',
    });
    expect(out.status).not.toBe(0);
    expect(out.stderr).toMatch(/secrets\.existingSecret/);
  });
});
