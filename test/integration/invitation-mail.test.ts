/**
 * Issue #11 / SPEC §2.5 invitations (DESIGN D5, D11): with `SMTP_URL` set, an invitation created
 * through `POST /api/v1/invitations` is also e-mailed to the invited address (real SMTP into a local
 * smtp-server sink); the API answer still carries the one-time `acceptUrl`, and the link works.
 */
import { SMTPServer } from 'smtp-server';
import { freePort, startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken } from '../helpers/member-token.js';

let server: TestServer;
let sink: SMTPServer;
const mails: Array<{ to: string[]; raw: string }> = [];
let delivered: () => void = () => {};

beforeAll(async () => {
  sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString()));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
        delivered();
      });
    },
  });
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => sink.listen(smtpPort, '127.0.0.1', resolve));
  server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, SMTP_FROM: 'Demo <no-reply@demo.test>' });
});
afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => sink.close(() => resolve()));
});

describe('SPEC §2.5 invitations: the one-time link is e-mailed when SMTP is configured', () => {
  test('POST /api/v1/invitations answers the acceptUrl and mails it to the invited address', async () => {
    const base = server.baseUrl;
    const reg = await fetch(`${base}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'invite mailer',
        redirect_uris: ['http://127.0.0.1/callback'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    const token = await memberToken({
      baseUrl: base,
      email: 'owner@demo.test',
      clientId,
      scope: 'openid members:write',
      site: 'demo',
    });

    const arrived = new Promise<void>((resolve) => (delivered = resolve));
    const res = await fetch(`${base}/api/v1/invitations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'New.Teacher@Example.test', role: 'instructor' }),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { email: string; acceptUrl: string };
    expect(body.email).toBe('new.teacher@example.test');
    expect(body.acceptUrl).toMatch(new RegExp(`^${base.replace(/[.]/g, '\\.')}/invitations/[A-Za-z0-9_-]{20,}$`));
    await arrived;

    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(['new.teacher@example.test']);
    expect(mails[0]!.raw).toMatch(/^Subject: You are invited to /m);
    // quoted-printable may wrap or escape the link
    expect(mails[0]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(body.acceptUrl);
    expect(mails[0]!.raw).toContain('as instructor');

    // The mailed link is the live one: it opens the invitation page.
    const page = await fetch(body.acceptUrl, { redirect: 'manual' });
    expect(page.status).toBeLessThan(400);
  });
});
