/**
 * DESIGN D10 audit trail: consents, token issuance, refreshes, revocations, refused requests and
 * operator actions are recorded per site through one module, kept for the retention setting, and
 * never carry a token, code or password.
 */
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';
import { MEMBER_CLIENT, authorizeMember, postForm, redeemCode, refresh } from '../helpers/flows.js';
import type { AuditEvent } from '../../src/platform/audit.js';

let server: TestServer;
let base: string;

beforeAll(async () => {
  // No DESIGN D3 grace window here: the reuse below must be refused and revoke the grant.
  server = await startTestServer({ AUDIT_RETENTION_DAYS: '30', REFRESH_GRACE_SECONDS: '0' });
  base = server.baseUrl;
});
afterAll(() => server.close());

/** Events are written just after the response: wait for the one we expect. */
async function eventually(site: string, predicate: (events: AuditEvent[]) => boolean): Promise<AuditEvent[]> {
  for (let i = 0; i < 50; i++) {
    const events = await server.audit.list(site);
    if (predicate(events)) return events;
    await new Promise((r) => setTimeout(r, 20));
  }
  return server.audit.list(site);
}

describe('DESIGN D10 audit trail', () => {
  test('a member flow and an operator action leave one row each, at the site, without secrets', async () => {
    const code = await authorizeMember(base, base);
    const issued = await redeemCode(base, base, code);
    const refreshed = await refresh(base, String(issued.body.refresh_token));
    expect(refreshed.status).toBe(200);
    const reused = await refresh(base, String(issued.body.refresh_token)); // reuse → refused, grant revoked
    expect(reused.status).toBe(400);

    const reg = await fetch(`${base}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'audit cli',
        redirect_uris: ['http://127.0.0.1/callback'],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      }),
    });
    const { client_id } = (await reg.json()) as { client_id: string };
    const operator = await memberToken({
      baseUrl: base,
      email: 'owner@demo.test',
      clientId: client_id,
      scope: 'openid school:write',
      site: 'demo',
    });
    const patch = await fetch(`${base}/api/v1/site`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Demo Academy' }),
    });
    expect(patch.status).toBe(200);

    const events = await eventually('demo', (ev) =>
      ['consent', 'token_issued', 'refresh', 'revocation', 'refused', 'operator_action'].every((k) =>
        ev.some((e) => e.kind === k),
      ),
    );
    const member = events.filter((e) => e.clientId === MEMBER_CLIENT);
    expect(member).toContainEqual(
      expect.objectContaining({ kind: 'consent', userId: 'usr_student', detail: 'scope=openid account:read' }),
    );
    expect(member).toContainEqual(expect.objectContaining({ kind: 'token_issued', userId: 'usr_student' }));
    expect(member).toContainEqual(expect.objectContaining({ kind: 'refresh', userId: 'usr_student' }));
    expect(member).toContainEqual(
      expect.objectContaining({ kind: 'refused', detail: expect.stringContaining('invalid_grant') }),
    );
    expect(member).toContainEqual(expect.objectContaining({ kind: 'revocation' }));
    expect(events).toContainEqual(
      expect.objectContaining({
        kind: 'operator_action',
        userId: 'usr_owner',
        target: 'site:demo',
        surface: 'api',
        detail: 'updateSite (admin API)',
      }),
    );

    const everything = JSON.stringify(events);
    for (const secret of [
      code.code,
      code.verifier,
      issued.body.access_token,
      issued.body.refresh_token,
      refreshed.body.access_token,
      operator,
      DEMO_PASSWORD,
    ]) {
      expect(everything).not.toContain(String(secret));
    }
    // Filters: by kind and by client; another site sees none of these rows.
    expect(
      (await server.audit.list('demo', { kind: 'consent', clientId: MEMBER_CLIENT })).every(
        (e) => e.kind === 'consent' && e.clientId === MEMBER_CLIENT,
      ),
    ).toBe(true);
    expect((await server.audit.list('second')).some((e) => e.clientId === MEMBER_CLIENT)).toBe(false);
  }, 60_000);

  test('refreshes are counted, one row per grant and hour; the code exchange stays a row of its own (DESIGN D10, issue #29)', async () => {
    const started = new Date().toISOString();
    const issued = await redeemCode(base, base, await authorizeMember(base, base));
    let token = String(issued.body.refresh_token);
    for (let i = 0; i < 3; i++) {
      const res = await refresh(base, token);
      expect(res.status).toBe(200);
      token = String(res.body.refresh_token);
    }
    // Over /api/v1 with a real operator token: the counter row carries count, first and last time.
    const clientId = await registerLoopbackClient(base, 'audit counter reader');
    const operator = await memberToken({
      baseUrl: base,
      email: 'owner@demo.test',
      clientId,
      scope: 'openid school:read',
      site: 'demo',
    });
    type Row = {
      kind: string;
      count: number;
      at: string;
      lastAt: string;
      grantId: string | null;
      clientId: string | null;
    };
    let rows: Row[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await fetch(
        `${base}/api/v1/audit-events?clientId=${MEMBER_CLIENT}&from=${encodeURIComponent(started)}&limit=100`,
        { headers: { authorization: `Bearer ${operator}` } },
      );
      expect(res.status).toBe(200);
      rows = ((await res.json()) as { events: Row[] }).events;
      if (rows.some((r) => r.kind === 'refresh' && r.count === 3)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const refreshes = rows.filter((r) => r.kind === 'refresh');
    // Three refreshes of one grant within a second (an hour boundary between them is a 1-in-1,200 chance).
    expect(refreshes.reduce((n, r) => n + r.count, 0)).toBe(3);
    expect(refreshes.length).toBeLessThanOrEqual(2);
    const counter = refreshes[0]!;
    expect(counter.grantId).toEqual(expect.any(String));
    expect(counter.lastAt >= counter.at).toBe(true);
    expect(rows.filter((r) => r.kind === 'token_issued' && r.grantId === counter.grantId)).toEqual([
      expect.objectContaining({ count: 1 }),
    ]);
  }, 30_000);

  test('revocation by the client (RFC 7009) is recorded', async () => {
    const issued = await redeemCode(base, base, await authorizeMember(base, base));
    const res = await postForm(base, '/api/oauth/revoke', {
      token: String(issued.body.refresh_token),
      client_id: MEMBER_CLIENT,
    });
    expect(res.status).toBe(200);
    const events = await eventually('demo', (ev) => ev.some((e) => e.detail.includes('RFC 7009')));
    expect(events).toContainEqual(
      expect.objectContaining({
        kind: 'revocation',
        clientId: MEMBER_CLIENT,
        detail: 'grant revoked by the client (RFC 7009)',
      }),
    );
  }, 30_000);

  test('revocation of an access token by the client (RFC 7009) is recorded at its site, though the grant stays', async () => {
    const clientId = await registerLoopbackClient(base, 'audit revoker');
    const token = await memberToken({
      baseUrl: base,
      email: 'owner@demo.test',
      clientId,
      scope: 'openid school:read',
      site: 'demo',
    });
    const res = await postForm(base, '/api/oauth/revoke', { token, client_id: clientId });
    expect(res.status).toBe(200);
    const events = await eventually('demo', (ev) => ev.some((e) => e.clientId === clientId && e.kind === 'revocation'));
    expect(events.filter((e) => e.clientId === clientId && e.kind === 'revocation')).toEqual([
      expect.objectContaining({
        siteId: 'demo',
        userId: 'usr_owner',
        detail: 'access token revoked by the client (RFC 7009)',
      }),
    ]);
    // Revoking it again (already gone) records nothing more: RFC 7009 §2.2 answers 200 all the same.
    expect((await postForm(base, '/api/oauth/revoke', { token, client_id: clientId })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect((await server.audit.list('demo', { clientId, kind: 'revocation' })).length).toBe(1);
  }, 30_000);

  test('events older than AUDIT_RETENTION_DAYS are purged; credential-like strings never stored', async () => {
    const old = new Date(Date.now() - 31 * 86_400_000);
    await server.audit.record({ kind: 'operator_action', siteId: 'demo', detail: 'old action' }, old);
    await server.audit.record({ kind: 'operator_action', siteId: 'demo', detail: `leak ${'A'.repeat(40)}` });
    expect(await server.audit.purge()).toBeGreaterThanOrEqual(1);
    const events = await server.audit.list('demo', { kind: 'operator_action' });
    expect(events.some((e) => e.detail === 'old action')).toBe(false);
    expect(events).toContainEqual(expect.objectContaining({ detail: 'leak [redacted]' }));
  });
});
