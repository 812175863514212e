/**
 * config/integrations.yaml (SPEC §5.4 "Vendor platform", DESIGN §3 file shape) and the CIMD
 * settings: validated at start, with errors that name the setting.
 */
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  loadCatalogueDocuments,
  loadIntegrations,
  vendorClientMetadata,
  vendorRegistrationResponse,
} from '../../src/oauth/integrations.js';
import { cimdPolicy } from '../../src/oauth/cimd.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { decideRegistration } from '../../src/oauth/registration-policy.js';
import { defaultScopeOf } from '../../src/domain/client-kinds.js';
import { isForbiddenAddress } from '../../src/oauth/ssrf.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-int-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(yaml: string): string {
  const p = path.join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(p, yaml);
  return p;
}

const SECRET = 's'.repeat(40);
const entry = (extra = '') => `integrations:
  - name: Acme Assistant
    client_id: vendor-acme
    redirect_uris: [https://acme.example/oauth/callback]
    scopes: [courses:read, orders:read]
${extra}`;

describe('config/integrations.yaml', () => {
  test('the shipped example file loads (development) and is empty in production', () => {
    const shipped = path.resolve('config/integrations.yaml');
    expect(loadIntegrations(shipped, {}, 'development').map((i) => i.name)).toEqual([
      'Claude',
      'ChatGPT',
      'Visual Studio Code',
    ]);
    expect(loadIntegrations(shipped, {}, 'production')).toEqual([]);
  });

  test("DESIGN D13: the shipped catalogue reviews the five hosts' documents; a document is switched off or left unreviewed in config", () => {
    const shipped = loadCatalogueDocuments(path.resolve('config/integrations.yaml'));
    expect(shipped.map((d) => [d.name, d.reviewed, d.enabled])).toEqual([
      ['VS Code', true, true],
      ['Claude Code', true, true],
      ['Claude', true, true],
      ['ChatGPT', true, true],
      ['Codex', true, true],
    ]);
    const own = file(
      `documents:\n  - { name: Off, client_id: "https://off.example/c.json", enabled: false }\n  - { name: Read, client_id: "https://read.example/c.json", reviewed: false }\n`,
    );
    const cimd = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir }).cimd;
    const policy = cimdPolicy({ ...cimd, open: false }, loadCatalogueDocuments(own));
    expect([...policy.disabled]).toEqual(['https://off.example/c.json']);
    expect([...policy.reviewed]).toEqual([]);
    expect([...policy.catalogueHosts]).toEqual(['read.example']);
    expect(() =>
      loadCatalogueDocuments(file('documents:\n  - { name: X, client_id: "http://x.example/c.json" }\n')),
    ).toThrow(ConfigError);
  });

  test('issue #26: an operator switches a catalogued host off with enabled: false', () => {
    expect(loadIntegrations(file(entry('    enabled: false\n')), {}, 'production')).toEqual([]);
    expect(loadIntegrations(file(entry('    enabled: true\n')), {}, 'production').map((i) => i.name)).toEqual([
      'Acme Assistant',
    ]);
  });

  test('issue #26: a host may list loopback callbacks beside its https ones (a desktop app: native, matched on its https host)', () => {
    const yaml = entry().replace(
      '[https://acme.example/oauth/callback]',
      '[https://acme.example/oauth/callback, "http://127.0.0.1:33418/"]',
    );
    const [acme] = loadIntegrations(file(yaml), {}, 'production');
    expect([...acme!.hosts]).toEqual(['acme.example']);
    expect(vendorClientMetadata(acme!)).toMatchObject({ application_type: 'native' });
    // Loopback callbacks alone name no host: refused.
    expect(() =>
      loadIntegrations(
        file(entry().replace('[https://acme.example/oauth/callback]', '["http://127.0.0.1:33418/"]')),
        {},
        'production',
      ),
    ).toThrow(/redirect_uris/);
  });

  test('a public vendor becomes a static client of kind vendor with identity + listed scopes', () => {
    const [acme] = loadIntegrations(file(entry()), {}, 'production');
    expect(vendorClientMetadata(acme!)).toMatchObject({
      client_id: 'vendor-acme',
      client_name: 'Acme Assistant',
      token_endpoint_auth_method: 'none',
      scope: 'openid profile email courses:read orders:read',
      x_client_kind: 'vendor',
    });
  });

  test('a confidential vendor takes its secret from the environment; the registration answer never carries it', () => {
    const [acme] = loadIntegrations(
      file(entry('    client_secret_env: ACME_SECRET\n')),
      { ACME_SECRET: SECRET },
      'production',
    );
    expect(vendorClientMetadata(acme!)).toMatchObject({
      token_endpoint_auth_method: 'client_secret_post',
      client_secret: SECRET,
    });
    expect(JSON.stringify(vendorRegistrationResponse(acme!))).not.toContain(SECRET);
  });

  test.each([
    ['plain-text secret', entry(`    client_secret: ${SECRET}\n`), /client_secret/],
    ['account:* scope (SPEC §2.5 rule 1)', entry().replace('orders:read', 'account:read'), /scopes/],
    ['http callback', entry().replace('https://acme', 'http://acme'), /redirect_uris/],
    ['URL client_id', entry().replace('vendor-acme', 'https://acme.example/c'), /client_id/],
    ['missing secret variable', entry('    client_secret_env: ACME_SECRET\n'), /ACME_SECRET/],
    [
      'duplicate client_id',
      entry() + entry().replace('integrations:\n', '').replace('Acme Assistant', 'Other'),
      /duplicate/,
    ],
  ])('refused: %s', (_name, yaml, message) => {
    expect(() => loadIntegrations(file(yaml), {}, 'production')).toThrow(ConfigError);
    expect(() => loadIntegrations(file(yaml), {}, 'production')).toThrow(message);
  });
});

describe('CIMD settings', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: dir };
  test('env overrides: allowed hosts, reviewed URLs, open registration', () => {
    const config = loadConfig({
      ...base,
      CIMD_ALLOWED_HOSTS: 'App.Example.com, b.example',
      CIMD_REVIEWED: 'https://app.example.com/c.json',
      CIMD_OPEN: '1',
    });
    expect(config.cimd).toMatchObject({
      allowedHosts: ['app.example.com', 'b.example'],
      reviewed: ['https://app.example.com/c.json'],
      open: true,
      allowLoopback: false,
    });
  });
  test('defaults (DESIGN D13): open to any public document, unreviewed; no test switch', () => {
    expect(loadConfig(base).cimd).toMatchObject({
      allowedHosts: [],
      reviewed: [],
      open: true,
      allowLoopback: false,
      testCaFile: undefined,
    });
  });
  test('the loopback / CA test switches are refused in production', () => {
    const prod = {
      NODE_ENV: 'production',
      BASE_URL: 'https://auth.example.com',
      COOKIE_SECRETS: 'c'.repeat(40),
      SIGNING_KEY: '{"kty":"EC","crv":"P-256","x":"a","y":"b","d":"c"}',
      DATA_DIR: dir,
    };
    expect(() => loadConfig({ ...prod, CIMD_ALLOW_LOOPBACK: '1' })).toThrow(/test-only/);
    expect(() => loadConfig({ ...prod, CIMD_TEST_CA_FILE: '/tmp/ca.pem' })).toThrow(/test-only/);
    expect(() => loadConfig({ ...prod, CIMD_TEST_RESOLVE: 'claude.ai=127.0.0.1:8443' })).toThrow(/test-only/);
  });

  test('CIMD_TEST_RESOLVE: host=127.0.0.1:port pairs, anything else refused', () => {
    expect(
      loadConfig({ ...base, CIMD_TEST_RESOLVE: 'Claude.ai=127.0.0.1:8443, vscode.dev=127.0.0.1:9443' }).cimd
        .testResolve,
    ).toEqual(
      new Map([
        ['claude.ai', { host: '127.0.0.1', port: 8443 }],
        ['vscode.dev', { host: '127.0.0.1', port: 9443 }],
      ]),
    );
    expect(() => loadConfig({ ...base, CIMD_TEST_RESOLVE: 'claude.ai=10.0.0.1:443' })).toThrow(/CIMD_TEST_RESOLVE/);
  });
});

describe('pure helpers', () => {
  test('D1 is evaluated in order: loopback (row 2) before vendor matching (row 3)', () => {
    const acme = loadIntegrations(file(entry()), {}, 'production');
    expect(
      decideRegistration({ client_name: 'Acme Assistant', redirect_uris: ['http://127.0.0.1/cb'] }, acme),
    ).toMatchObject({ row: 2 });
    expect(
      decideRegistration(
        { client_name: 'Acme Assistant', redirect_uris: ['https://acme.example/oauth/callback'] },
        acme,
      ),
    ).toMatchObject({ row: 3 });
    expect(
      decideRegistration({ client_name: 'Nope', redirect_uris: ['https://acme.example/oauth/callback'] }, acme),
    ).toMatchObject({ row: 4 });
    expect(decideRegistration({ redirect_uris: ['https://x.example/cb'] }, acme)).toMatchObject({ row: 5 });
    expect(decideRegistration(null, acme)).toMatchObject({ row: 1 });
  });

  test('DESIGN D3 default scope: registered scope, identity + read only, within the kind ceiling', () => {
    expect(defaultScopeOf({ scope: 'openid courses:read courses:write', x_client_kind: 'loopback' })).toBe(
      'openid courses:read',
    );
    expect(defaultScopeOf({ x_client_kind: 'member', scope: 'openid account:read account:write' })).toBe(
      'openid account:read',
    );
    const cimd = defaultScopeOf({ x_client_kind: 'cimd' }).split(' ');
    expect(cimd).toContain('courses:read');
    expect(cimd.some((s) => s.endsWith(':write') || s.startsWith('account:'))).toBe(false);
  });

  test.each([
    ['10.1.2.3', true],
    ['169.254.169.254', true],
    ['172.16.0.1', true],
    ['192.168.0.1', true],
    ['127.0.0.1', true],
    ['::1', true],
    ['fe80::1', true],
    ['fd12::1', true],
    ['::ffff:10.0.0.1', true],
    ['0.0.0.0', true],
    ['100.64.0.1', true],
    ['93.184.216.34', false],
    ['2606:4700::1111', false],
  ])('isForbiddenAddress(%s) = %s', (ip, forbidden) => {
    expect(isForbiddenAddress(ip, { allowLoopback: false })).toBe(forbidden);
  });

  test('the test switch admits loopback only', () => {
    expect(isForbiddenAddress('127.0.0.1', { allowLoopback: true })).toBe(false);
    expect(isForbiddenAddress('::1', { allowLoopback: true })).toBe(false);
    expect(isForbiddenAddress('10.0.0.1', { allowLoopback: true })).toBe(true);
  });
});
