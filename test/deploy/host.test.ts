/**
 * Issue #30 item 12: the samples for a single host in `deploy/` (a systemd unit, an nginx site),
 * checked the way their own tools check them where the tool is on this machine
 * (`systemd-analyze verify`, `nginx -t`), and structurally always: the unit runs the Dockerfile's
 * command with its V8 flags, sets only settings coursegate knows, gives the drain time to finish
 * and has no reload (config is read once at start); the nginx site forwards exactly the headers
 * `TRUST_PROXY=1` reads, replacing (not appending to) `X-Forwarded-For`, to the address the unit
 * listens on, and lets an upload of the default `UPLOAD_MAX_BYTES` through.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SETTINGS } from '../../src/config-settings.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const unitText = readFileSync(path.join(ROOT, 'deploy/coursegate.service'), 'utf8');
const nginxText = readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');

/** A binary on PATH (or the given absolute path), else undefined. */
function which(name: string): string | undefined {
  if (path.isAbsolute(name)) return existsSync(name) ? name : undefined;
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/** The unit as section → key → values (systemd allows a key more than once). */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      current = new Map();
      sections.set(header[1]!, current);
      continue;
    }
    const kv = /^(\w+)=(.*)$/.exec(line);
    if (!kv || !current) throw new Error(`not a unit line: ${line}`);
    current.set(kv[1]!, [...(current.get(kv[1]!) ?? []), kv[2]!]);
  }
  return sections;
}

describe('deploy/coursegate.service', () => {
  const unit = parseUnit(unitText);
  const service = unit.get('Service')!;
  const env = new Map((service.get('Environment') ?? []).map((e) => e.split('=', 2) as [string, string]));

  test('has the three sections; Install hooks it into multi-user.target', () => {
    expect([...unit.keys()]).toEqual(['Unit', 'Service', 'Install']);
    expect(unit.get('Install')!.get('WantedBy')).toEqual(['multi-user.target']);
  });

  test('runs the Dockerfile CMD with its V8 flags and its MALLOC_ARENA_MAX, in production mode', () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const cmd = JSON.parse(
      /^CMD (\[.*\])$/m.exec(dockerfile.split(/^HEALTHCHECK[\s\S]*?\n(?=\S)/m).at(-1)!)![1]!,
    ) as string[];
    const exec = service.get('ExecStart')!;
    expect(exec).toHaveLength(1);
    const [binary, ...args] = exec[0]!.split(/\s+/);
    expect(path.basename(binary!)).toBe('node');
    expect(args).toEqual(cmd.slice(1));
    expect(env.get('MALLOC_ARENA_MAX')).toBe(/^ENV MALLOC_ARENA_MAX=(\S+)$/m.exec(dockerfile)![1]);
    expect(env.get('NODE_ENV')).toBe('production');
  });

  test('sets only settings coursegate knows', () => {
    const known = new Set([...SETTINGS.map((s) => s.env), 'NODE_ENV', 'MALLOC_ARENA_MAX']);
    expect([...env.keys()].filter((k) => !known.has(k))).toEqual([]);
  });

  test('systemd waits longer than the drain (SHUTDOWN_DELAY_SECONDS + SHUTDOWN_GRACE_SECONDS); no reload is offered', () => {
    const drain = Number(env.get('SHUTDOWN_DELAY_SECONDS')) + Number(env.get('SHUTDOWN_GRACE_SECONDS'));
    expect(Number(service.get('TimeoutStopSec')![0])).toBeGreaterThan(drain);
    expect(service.get('KillSignal')).toEqual(['SIGTERM']);
    expect(service.has('ExecReload')).toBe(false);
    expect(env.get('DATA_DIR')).toBe(`/var/lib/${service.get('StateDirectory')![0]}`);
  });

  const systemdAnalyze = which('systemd-analyze');
  (systemdAnalyze ? test : test.skip)('systemd-analyze verify: no error and no warning (unknown keys included)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cg-unit-'));
    try {
      // verify checks that ExecStart's binary exists: point it at the node running this test.
      const file = path.join(dir, 'coursegate.service');
      writeFileSync(file, unitText.replace(/^ExecStart=\S+/m, `ExecStart=${process.execPath}`));
      const run = spawnSync(systemdAnalyze!, ['verify', file], { encoding: 'utf8' });
      expect({ status: run.status, stderr: run.stderr.trim() }).toEqual({ status: 0, stderr: '' });
      // and it does report a broken unit
      writeFileSync(file, unitText.replace('[Service]\n', '[Service]\nTypo=1\n'));
      expect(spawnSync(systemdAnalyze!, ['verify', file], { encoding: 'utf8' }).stderr).toMatch(/Unknown key 'Typo'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('deploy/nginx.conf', () => {
  const code = nginxText.replace(/#.*$/gm, '');

  test('braces balance; every directive ends with ; or opens a block', () => {
    let depth = 0;
    for (const ch of code) {
      if (ch === '{') depth++;
      if (ch === '}') depth--;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);
    for (const line of code
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean))
      expect(line).toMatch(/[;{}]$/);
  });

  test('proxies to the address the systemd unit listens on, with the headers TRUST_PROXY=1 reads', () => {
    const service = parseUnit(unitText).get('Service')!;
    const env = new Map((service.get('Environment') ?? []).map((e) => e.split('=', 2) as [string, string]));
    expect(code).toMatch(
      new RegExp(`upstream coursegate \\{[^}]*server ${env.get('HOST')!.replaceAll('.', '\\.')}:${env.get('PORT')}\\b`),
    );
    expect(code).toMatch(/proxy_pass http:\/\/coursegate;/);
    // one hop: the proxy replaces the header with the address it saw, so a client cannot put entries before it
    expect(code).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(code).not.toMatch(/\$proxy_add_x_forwarded_for/);
    expect(code).toMatch(/proxy_set_header X-Forwarded-Proto \$scheme;/);
  });

  test('an upload of the default UPLOAD_MAX_BYTES gets through', () => {
    const setting = SETTINGS.find((s) => s.env === 'UPLOAD_MAX_BYTES')!;
    const defaultBytes = Number(/`(\d+)`/.exec(setting.default)![1]);
    expect(defaultBytes).toBeGreaterThan(0);
    const [, n, unit] = /client_max_body_size (\d+)([kmg]?);/i.exec(code)!;
    const bytes =
      Number(n) * ({ '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 } as Record<string, number>)[unit!.toLowerCase()]!;
    expect(bytes).toBeGreaterThanOrEqual(defaultBytes);
  });

  // NGINX_BIN names an nginx binary when none is on PATH (e.g. one unpacked from Debian's package).
  const nginx = which(process.env.NGINX_BIN ?? 'nginx') ?? which('/usr/sbin/nginx');
  const openssl = which('openssl');
  (nginx && openssl ? test : test.skip)(
    'nginx -t accepts it inside an http block (a throwaway certificate for the TLS server)',
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'cg-nginx-'));
      try {
        mkdirSync(path.join(dir, 'tmp'));
        const key = path.join(dir, 'key.pem');
        const cert = path.join(dir, 'cert.pem');
        execFileSync(
          openssl!,
          [
            'req',
            '-x509',
            '-newkey',
            'ec',
            '-pkeyopt',
            'ec_paramgen_curve:P-256',
            '-nodes',
            '-keyout',
            key,
            '-out',
            cert,
            '-days',
            '1',
            '-subj',
            '/CN=auth.example.com',
          ],
          { stdio: 'ignore' },
        );
        const site = path.join(dir, 'site.conf');
        writeFileSync(
          site,
          nginxText
            .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${cert};`)
            .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${key};`),
        );
        const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
          .map((t) => `${t}_temp_path ${dir}/tmp/${t};`)
          .join(' ');
        const main = path.join(dir, 'nginx.conf');
        writeFileSync(
          main,
          `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp { access_log off; ${temps} include ${site}; }\n`,
        );
        const run = spawnSync(nginx!, ['-t', '-p', dir, '-e', `${dir}/error.log`, '-c', main], { encoding: 'utf8' });
        expect([run.status, run.stderr]).toEqual([0, expect.stringContaining('test is successful')]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
