/**
 * DESIGN D11 first run: from an empty production-mode store, `npm run admin -- site create`
 * creates a site and its owner and prints a one-time link (24 h, works once) where the owner sets a
 * password; the owner then signs in through the real login page. `sites list` and
 * `owner reset-link` work on the same store.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { generateSigningKey } from '../../src/oauth/keys.js';
import { freePort, startTestServer, type TestServer } from '../helpers/server.js';
import { completeAuthorization, parseForm } from '../helpers/user-agent.js';
import { pkcePair, randomString } from '../helpers/pkce.js';

let dir: string;
let env: Record<string, string>;
let server: TestServer | undefined;
/** A local SMTP sink (smtp-server): every message received, raw. */
let sink: SMTPServer;
const mails: Array<{ to: string[]; raw: string }> = [];

/** Runs `npm run admin -- …` (the same entry point, without npm's banner). */
function admin(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/admin.ts', ...args],
      { env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

const linkIn = (out: string): URL => new URL(/(http\S+\/set-password\?token=\S+)/.exec(out)![1]!);

async function postForm(url: string, form: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  return { status: res.status, body: await res.text() };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-first-run-'));
  const keyFile = path.join(dir, 'signing-key.json');
  writeFileSync(keyFile, JSON.stringify(await generateSigningKey()));
  sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString()));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => sink.listen(smtpPort, '127.0.0.1', resolve));
  const port = await freePort();
  env = {
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    SMTP_FROM: 'Maple <no-reply@maple.test>',
    NODE_ENV: 'production',
    BASE_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    COOKIE_SECRETS: 'f'.repeat(48),
    SIGNING_KEY_FILE: keyFile,
    DATA_DIR: path.join(dir, 'data'),
    LOG_LEVEL: 'silent',
  };
});
afterAll(async () => {
  await server?.close({ keepData: true });
  await new Promise<void>((resolve) => sink.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('DESIGN D11 first run: npm run admin', () => {
  let link: URL;

  test('an empty production store has no site; `site create` creates one with its owner and prints a 24 h link', async () => {
    const empty = await admin('sites', 'list');
    expect(empty.code).toBe(0);
    expect(empty.out).toContain('No site yet');

    const created = await admin(
      'site',
      'create',
      '--id',
      'maple',
      '--name',
      'Maple School',
      '--owner-email',
      'Owner@Maple.test',
    );
    expect(created.err).not.toContain('coursegate admin:');
    expect(created.code).toBe(0);
    expect(created.out).toContain('org_id maple');
    link = linkIn(created.out);
    expect(link.origin).toBe(env.BASE_URL);
    const until = Date.parse(/valid until (\S+),/.exec(created.out)![1]!);
    expect(until - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(until - Date.now()).toBeLessThanOrEqual(24 * 3600_000);

    // SMTP configured: the link is also e-mailed to the owner (quoted-printable may wrap it).
    expect(created.out).toContain('Also e-mailed to owner@maple.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(['owner@maple.test']);
    expect(mails[0]!.raw).toContain('Subject: Set your password for Maple School');
    expect(mails[0]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(link.href);

    const listed = await admin('sites', 'list');
    expect(listed.out).toMatch(/^maple\tMaple School\towners: owner@maple\.test\tmembers: 1$/m);
  }, 60_000);

  test('bad input is refused with the reason and exit code 1 (taken id, bad id) or 2 (usage)', async () => {
    const taken = await admin('site', 'create', '--id', 'maple', '--name', 'Again', '--owner-email', 'x@maple.test');
    expect(taken.code).toBe(1);
    expect(taken.err).toContain('already taken');
    const bad = await admin('site', 'create', '--id', 'Not An Id', '--name', 'X', '--owner-email', 'x@maple.test');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('lower-case');
    const usage = await admin('frobnicate');
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('usage');
  }, 60_000);

  test('the owner sets a password through the link (once), then signs in at the real login page', async () => {
    server = await startTestServer(env, env.DATA_DIR, Number(env.PORT));
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain('owner@maple.test');
    const { hidden } = parseForm(html);

    const forged = await postForm(`${server.baseUrl}/set-password`, {
      ...hidden,
      csrf: 'x',
      password: 'a-long-enough-password',
      confirm: 'a-long-enough-password',
    });
    expect(forged.status).toBe(403);
    const short = await postForm(`${server.baseUrl}/set-password`, { ...hidden, password: 'short', confirm: 'short' });
    expect(short.status).toBe(400);
    expect(short.body).toContain('at least 12 characters');
    const differ = await postForm(`${server.baseUrl}/set-password`, {
      ...hidden,
      password: 'a-long-enough-password',
      confirm: 'another-long-password',
    });
    expect(differ.status).toBe(400);
    const done = await postForm(`${server.baseUrl}/set-password`, {
      ...hidden,
      password: 'maple-owner-password',
      confirm: 'maple-owner-password',
    });
    expect(done.status).toBe(200);
    expect(done.body).toContain('Password set');

    // A link works once.
    expect((await fetch(link)).status).toBe(400);
    expect(
      (
        await postForm(`${server.baseUrl}/set-password`, {
          ...hidden,
          password: 'maple-owner-password2',
          confirm: 'maple-owner-password2',
        })
      ).status,
    ).toBe(400);

    // Sign in through the login page with a loopback client registered now (the store had no client).
    const reg = await fetch(`${server.baseUrl}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'first-run check',
        redirect_uris: ['http://127.0.0.1:53690/callback'],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      }),
    });
    expect(reg.status).toBe(201);
    const { client_id } = (await reg.json()) as { client_id: string };
    const { challenge } = pkcePair();
    const auth = new URL('/oauth/authorize', server.baseUrl);
    auth.search = new URLSearchParams({
      client_id,
      response_type: 'code',
      redirect_uri: 'http://127.0.0.1:53690/callback',
      scope: 'openid',
      state: randomString(8),
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    const { callback } = await completeAuthorization(auth, {
      email: 'owner@maple.test',
      password: 'maple-owner-password',
    });
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));
  }, 60_000);

  test('`owner reset-link` prints a fresh link for an owner; unknown e-mails are refused', async () => {
    const reset = await admin('owner', 'reset-link', '--email', 'owner@maple.test');
    expect(reset.code).toBe(0);
    const fresh = linkIn(reset.out);
    expect((await fetch(fresh)).status).toBe(200);
    const unknown = await admin('owner', 'reset-link', '--email', 'nobody@maple.test');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('no owner or admin');
  }, 60_000);
});
