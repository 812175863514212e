/**
 * No Docker engine here: this test replays the Dockerfile's stages in clean temp directories
 * (one per stage, WORKDIR = the directory) — the same COPY sources, the same `npm run build`, the
 * same runtime layout (`node_modules` from the deps stage, `dist` from the build stage, config),
 * the same ENV and CMD, and the HEALTHCHECK command itself — then stops the server with SIGTERM.
 *
 * Dependency installs: by default the `npm install` steps are simulated from this checkout (build
 * stage: the full node_modules; deps stage: exactly the packages `npm ls --omit=dev` lists, so a
 * runtime import of a devDependency fails here as it would in the image). With
 * `COURSEGATE_DOCKER_REPLAY=full` the `npm install` commands themselves run (minutes: better-sqlite3
 * may compile). `apt-get` steps are not replayed.
 */
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { freePort } from '../helpers/server.js';

const ROOT = process.cwd();
const FULL = process.env.COURSEGATE_DOCKER_REPLAY === 'full';

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  base: string;
  name?: string;
  steps: Instruction[];
}

/** Parses the Dockerfile into stages of instructions (continuations joined, comments dropped). */
function parseDockerfile(text: string): Stage[] {
  const logical = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op, args] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (!op || args === undefined) continue;
    if (op.toUpperCase() === 'FROM') {
      const [, base, name] = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(args) ?? [];
      stages.push({ base: base!, name, steps: [] });
    } else stages.at(-1)!.steps.push({ op: op.toUpperCase(), args: args.replace(/\s+/g, ' ') });
  }
  return stages;
}

const dockerfile = parseDockerfile(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));

function run(cmd: string, cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  const r = spawnSync('sh', ['-c', cmd], { cwd, env, encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0) throw new Error(`\`${cmd}\` failed in ${cwd}:\n${r.stdout}\n${r.stderr}`);
}

/** Simulates `npm install [--omit=dev]` by copying the packages of this checkout's tree. */
function installFromCheckout(dir: string, omitDev: boolean): void {
  if (!omitDev) {
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    return;
  }
  const listed = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  for (const abs of listed
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith(path.join(ROOT, 'node_modules')))) {
    const rel = path.relative(ROOT, abs);
    cpSync(abs, path.join(dir, rel), {
      recursive: true,
      filter: (src) => src === abs || !path.relative(abs, src).split(path.sep).includes('node_modules'),
    });
  }
}

/** Replays one stage in `dir`; `from` maps stage names to their replayed directories. */
function replayStage(stage: Stage, dir: string, from: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  let workdir = '/';
  for (const step of stage.steps) {
    if (step.op === 'WORKDIR') workdir = step.args;
    if (step.op === 'ENV') for (const m of step.args.matchAll(/(\w+)=(\S+)/g)) env[m[1]!] = m[2]!;
    if (step.op === 'COPY') {
      const parts = step.args.split(' ');
      const fromFlag = parts[0]!.startsWith('--from=') ? parts.shift()!.slice(7) : undefined;
      const dest = path.join(dir, parts.pop()!);
      for (const src of parts) {
        const source = fromFlag ? path.join(from[fromFlag]!, path.relative(workdir, src)) : path.join(ROOT, src);
        const target = parts.length > 1 || dest.endsWith('/') ? path.join(dest, path.basename(src)) : dest;
        mkdirSync(path.dirname(target), { recursive: true });
        cpSync(source, target, { recursive: true, dereference: true });
      }
    }
    if (step.op === 'RUN') {
      if (/^apt-get|^mkdir -p \/data/.test(step.args)) continue; // system packages / image paths
      const npmCi = /^npm (ci|install)\b/.test(step.args);
      if (npmCi && !FULL) installFromCheckout(dir, step.args.includes('--omit=dev'));
      else run(step.args, dir);
    }
  }
  return env;
}

describe('Dockerfile', () => {
  test('multi-stage on one pinned node:24.x.y-slim (current LTS), production deps only, numeric non-root user, HEALTHCHECK on /healthz, volumes', () => {
    // Issue #28: one pinned release in all stages, not the moving `node:24-slim`.
    const bases = dockerfile.map((s) => s.base);
    expect(bases).toHaveLength(3);
    expect(new Set(bases).size).toBe(1);
    expect(bases[0]).toMatch(/^node:24\.\d+\.\d+-slim(@sha256:[0-9a-f]{64})?$/);
    const runtime = dockerfile.at(-1)!;
    const ops = (op: string) => runtime.steps.filter((s) => s.op === op).map((s) => s.args);
    // Numeric uid:gid (not root): Kubernetes' runAsNonRoot can verify it without /etc/passwd.
    expect(ops('USER')).toEqual(['1000:1000']);
    // The 189 MB Node.js cache of the test scripts stays out of the build context.
    expect(readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n')).toContain('.cache');
    expect(ops('HEALTHCHECK')[0]).toContain('/healthz');
    expect(ops('VOLUME')[0]).toContain('/data');
    expect(ops('VOLUME')[0]).toContain('/app/config');
    expect(ops('COPY').some((c) => c.startsWith('--from=deps /app/node_modules'))).toBe(true);
    const deps = dockerfile.find((s) => s.name === 'deps')!;
    expect(deps.steps.some((s) => s.op === 'RUN' && s.args.startsWith('npm install --omit=dev'))).toBe(true);
  });

  test('`npm run start:prod` runs the CMD with the same node flags and malloc settings (docs/deployment.md §2 Memory)', () => {
    const cmd = JSON.parse(dockerfile.at(-1)!.steps.find((s) => s.op === 'CMD')!.args) as string[];
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(cmd[0]).toBe('node');
    expect(cmd).toContain('--max-semi-space-size=8');
    // Old generation collected at 1.5× the live heap (≤ 250 MB after the bench, issue #15).
    expect(cmd).toContain('--heap-growing-percent=50');
    // No old-space cap: 128–160 MB made V8 collect so often that a refresh cost 1.6–5× the CPU.
    expect(cmd.some((a) => a.startsWith('--max-old-space-size'))).toBe(false);
    // glibc settings of the runtime ENV (MALLOC_ARENA_MAX) precede the command in start:prod.
    const malloc = dockerfile
      .at(-1)!
      .steps.filter((s) => s.op === 'ENV')
      .flatMap((s) => s.args.split(' '))
      .filter((kv) => kv.startsWith('MALLOC_'));
    expect(malloc).toContain('MALLOC_ARENA_MAX=2');
    expect(pkg.scripts['start:prod']).toBe(`${malloc.join(' ')} node scripts/on-lts.mjs ${cmd.join(' ')}`);
  });

  test(
    'its steps, replayed in clean directories, build and start a production server that stops on SIGTERM',
    async () => {
      const work = mkdtempSync(path.join(os.tmpdir(), 'cg-docker-'));
      try {
        const dirs: Record<string, string> = {};
        let runtimeEnv: Record<string, string> = {};
        for (const [i, stage] of dockerfile.entries()) {
          const dir = path.join(work, stage.name ?? `stage${i}`);
          mkdirSync(dir);
          runtimeEnv = replayStage(stage, dir, dirs);
          if (stage.name) dirs[stage.name] = dir;
        }
        const app = path.join(work, 'stage2');
        expect(existsSync(path.join(app, 'dist/src/main.js'))).toBe(true);
        expect(existsSync(path.join(app, 'dist/src/resource/account-graphql/schema.graphql'))).toBe(true);
        expect(existsSync(path.join(app, 'node_modules/typescript'))).toBe(false);
        expect(existsSync(path.join(app, 'node_modules/tsx'))).toBe(false);

        const port = await freePort();
        const { privateKey } = await generateKeyPair('ES256', { extractable: true });
        const env: Record<string, string> = {
          PATH: process.env.PATH!,
          ...runtimeEnv,
          PORT: String(port),
          DATA_DIR: path.join(work, 'data'),
          BASE_URL: `http://127.0.0.1:${port}`,
          COOKIE_SECRETS: 'a'.repeat(40),
          SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)),
          LOG_LEVEL: 'warn',
        };
        expect(env.NODE_ENV).toBe('production');
        const cmd = JSON.parse(dockerfile.at(-1)!.steps.find((s) => s.op === 'CMD')!.args) as string[];
        const child = spawn(cmd[0]!, cmd.slice(1), { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        try {
          const healthcheck = JSON.parse(
            dockerfile
              .at(-1)!
              .steps.find((s) => s.op === 'HEALTHCHECK')!
              .args.replace(/^.*?CMD /, ''),
          ) as string[];
          let healthy = false;
          for (let i = 0; i < 100 && !healthy; i++) {
            await new Promise((r) => setTimeout(r, 200));
            healthy = spawnSync(healthcheck[0]!, healthcheck.slice(1), { env }).status === 0;
          }
          expect({ healthy, output }).toMatchObject({ healthy: true });
          expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
          const discovery = await (await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`)).json();
          expect(discovery.issuer).toBe(`http://127.0.0.1:${port}`);
        } finally {
          child.kill('SIGTERM');
        }
        expect(await exited).toBe(0);
        expect(output).toContain('SIGTERM received, draining requests');
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    FULL ? 900_000 : 180_000,
  );
});
