/**
 * The README's curl walkthrough: its verifier command, run as printed 20 times, always makes a
 * PKCE verifier of 43–128 characters (the old `openssl rand -base64 32 | tr -d '=+/' | cut -c1-43`
 * made a shorter one in most draws); it names PORT and BASE_URL, the "can't be reached" page and
 * the code's lifetime, and sets every variable it uses. Also checks the quoted
 * Content-Security-Policy of the operator guide against the header the server sends.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { startTestServer } from '../helpers/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const ROUNDS = 20;

/** The walkthrough's shell block. */
const block = /## A short walkthrough with curl[\s\S]*?```sh\n([\s\S]*?)```/.exec(README)?.[1] ?? '';

const bash = (script: string) => execFileSync('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8' });

describe('README walkthrough', () => {
  test('the verifier command, run as printed 20 times, makes a valid PKCE verifier each time', () => {
    const line = /^VERIFIER=\$\(([^)]*)\)/m.exec(block)?.[1];
    expect(line).toBeDefined();
    for (let i = 0; i < ROUNDS; i++) expect(bash(line!).trim()).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
  });

  test('names PORT and BASE_URL, the "can\'t be reached" page and the code lifetime', () => {
    expect(README).toMatch(/`PORT` \(default 3000\)/);
    expect(README).toMatch(/`BASE_URL` \(default `http:\/\/localhost:\$PORT`\)/);
    expect(block).toMatch(/can't be\s*\n?#?\s*reached/);
    const ttl = (
      parse(readFileSync(path.join(ROOT, 'config/default.yaml'), 'utf8')) as {
        token_ttl: { authorization_code: number };
      }
    ).token_ttl.authorization_code;
    expect(block).toContain(`valid for ${ttl} s`);
    // Every variable the commands use is set by an earlier line.
    for (const name of ['CODE', 'ACCESS_TOKEN', 'REFRESH_TOKEN', 'VERIFIER'])
      expect(block.indexOf(`${name}=`)).toBeGreaterThan(-1);
  });
});

test("the operator guide's Content-Security-Policy is the one the server sends", async () => {
  const guide = readFileSync(path.join(ROOT, 'docs/operator-guide.md'), 'utf8');
  const quoted = /`Content-Security-Policy: ([^`]+)`/.exec(guide)?.[1]?.replace(/\s+/g, ' ');
  const server = await startTestServer();
  try {
    const sent = (await fetch(`${server.baseUrl}/healthz`)).headers.get('content-security-policy');
    // Directives as the guide quotes them, whitespace after each `;` aside.
    expect(quoted).toBe(sent?.replace(/;(?=\S)/g, '; '));
    expect(quoted).toContain("script-src 'self'");
  } finally {
    await server.close();
  }
});
