/**
 * Issue #30 items 1 and 2, run as a newcomer runs them: the operator guide's own commands, copied
 * out of docs/operator-guide.md and executed as printed.
 *
 * - `npm run keys:generate -- --out signing-key.json` writes a pure private ES256 JWK (mode 0600)
 *   that production accepts, where `npm run keys:generate > file` used to capture npm's banner.
 * - `DEMO_PASSWORD` on a store seeded earlier becomes the demo accounts' password (the documented
 *   way back in once the first start's banner is lost).
 */
import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { DEMO_PASSWORD, startTestServer } from '../helpers/server.js';
import { completeAuthorization } from '../helpers/user-agent.js';
import { pkcePair } from '../helpers/pkce.js';

const guide = readFileSync('docs/operator-guide.md', 'utf8');

describe('the operator guide, as printed', () => {
  test('keys:generate: the documented command writes a key file that production accepts', () => {
    const command = /`(npm run keys:generate[^`]*)`/.exec(guide)?.[1];
    expect(command).toBe('npm run keys:generate -- --out signing-key.json');
    // A scratch folder inside the project: npm finds package.json upwards; the file lands here.
    const dir = mkdtempSync(path.join(process.cwd(), '.cache', 'keys-'));
    try {
      execSync(command!, { cwd: dir, stdio: 'pipe' });
      const file = path.join(dir, 'signing-key.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const jwk = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      expect([jwk.kty, jwk.crv, typeof jwk.d]).toEqual(['EC', 'P-256', 'string']);
      const config = loadConfig({ NODE_ENV: 'test', SIGNING_KEY_FILE: file, DATA_DIR: dir });
      expect(config.signingKeys?.[0]).toMatchObject({ kty: 'EC', crv: 'P-256', x: jwk.x });
      // Never over an existing key.
      expect(() => execSync(command!, { cwd: dir, stdio: 'pipe' })).toThrow(/exists already/);
      // A file captured with npm's banner is named as such, with the fix.
      const banner = path.join(dir, 'banner.json');
      execSync(`npm run keys:generate > ${banner}`, { cwd: dir, stdio: 'pipe' });
      expect(() => loadConfig({ NODE_ENV: 'test', SIGNING_KEY_FILE: banner, DATA_DIR: dir })).toThrow(
        /npm's "> …" banner lines: make it with `npm run keys:generate -- --out <file>`/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('a first production start names every missing setting at once, each with how to make it', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production', RATE_LIMIT_TOKEN: 'lots' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^4 settings to fix:/);
    for (const name of [
      'RATE_LIMIT_TOKEN:',
      'BASE_URL: required',
      'COOKIE_SECRETS: required',
      'openssl rand -base64 32',
      'SIGNING_KEY_FILE: required',
      'npm run keys:generate -- --out signing-key.json',
    ])
      expect(message).toContain(name);
  });

  test('DEMO_PASSWORD on a store seeded earlier becomes the demo password; the old one stops working', async () => {
    expect(guide).toContain('Restart with `DEMO_PASSWORD=<new password>\nnpm start`');
    const first = await startTestServer();
    const { dataDir } = first;
    const port = Number(new URL(first.baseUrl).port);
    await first.close({ keepData: true });
    const NEW = 'a-new-demo-password-1';
    const server = await startTestServer({ DEMO_PASSWORD: NEW }, dataDir, port);
    try {
      const authorize = () => {
        const { challenge } = pkcePair();
        const url = new URL('/oauth/authorize', server.baseUrl);
        for (const [k, v] of Object.entries({
          response_type: 'code',
          client_id: 'demo-member-cli',
          redirect_uri: 'http://127.0.0.1/callback',
          scope: 'openid account:read',
          resource: server.baseUrl,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state: 's',
        }))
          url.searchParams.set(k, v);
        return url;
      };
      const ok = await completeAuthorization(authorize(), { email: 'student@demo.test', password: NEW });
      expect(ok.callback.searchParams.get('code')).toBeTruthy();
      await expect(
        completeAuthorization(authorize(), { email: 'student@demo.test', password: DEMO_PASSWORD }),
      ).rejects.toThrow();
    } finally {
      await server.close();
    }
  }, 60_000);
});
