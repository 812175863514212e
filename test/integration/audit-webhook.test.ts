/**
 * The audit webhook (docs/operator-guide.md "Audit webhook", src/ops/audit-webhook.ts), against a
 * real receiver on loopback and a real server: an operator session's audit events all arrive,
 * each signed (`Coursegate-Signature`, HMAC-SHA256 over `<t>.<body>`), although the receiver
 * answers 500 to the first two tries of every event; retries carry the same event id; events
 * queued while the receiver is down survive a restart of the server; a delivery that never
 * succeeds is kept as a dead letter after `AUDIT_WEBHOOK_MAX_ATTEMPTS` tries and counted in
 * `/metrics`; the settings refuse a URL without its secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { loadConfig } from '../../src/config.js';
import { OPERATOR_SCOPES } from '../../src/domain/scopes.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';
import { freePort } from '../helpers/ports.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createTestDatabase, describeWith, type TestDatabase } from '../helpers/services.js';

const SECRET = 'webhook-secret-for-tests-0123456789abcdef';

interface Received {
  eventId: string;
  deliveryId: string;
  signatureValid: boolean;
  status: number;
  body: { id: string; kind: string; siteId: string | null; count: number };
}

/** A receiver on `port` (default a free one) that answers 500 to the first `failFirst` tries of each event id, then 200. */
async function receiver(
  failFirst: number,
  port?: number,
): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const tries = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const eventId = String(req.headers['coursegate-event-id']);
      const [t, v1] = String(req.headers['coursegate-signature'])
        .split(',')
        .map((part) => part.slice(part.indexOf('=') + 1));
      const expected = createHmac('sha256', SECRET).update(`${t}.${raw}`).digest();
      const given = Buffer.from(v1 ?? '', 'hex');
      const fresh = Math.abs(Date.now() / 1000 - Number(t)) < 300;
      const n = (tries.get(eventId) ?? 0) + 1;
      tries.set(eventId, n);
      const status = n <= failFirst ? 500 : 200;
      received.push({
        eventId,
        deliveryId: String(req.headers['coursegate-delivery']),
        signatureValid: fresh && given.length === expected.length && timingSafeEqual(given, expected),
        status,
        body: JSON.parse(raw),
      });
      res.writeHead(status).end();
    });
  });
  const bound = port ?? (await freePort());
  await new Promise<void>((r) => server.listen(bound, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${bound}/hooks/audit`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** An operator token of owner@demo.test at `demo` with every operator scope. */
async function operatorToken(server: TestServer): Promise<string> {
  const clientId = await registerLoopbackClient(server.baseUrl, 'audited operator script');
  return memberToken({
    baseUrl: server.baseUrl,
    email: 'owner@demo.test',
    clientId,
    scope: `openid ${[...OPERATOR_SCOPES].join(' ')}`,
    site: 'demo',
  });
}

const api = (server: TestServer, token: string, method: string, path: string, body?: unknown) =>
  fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Every event id of the demo site's audit trail (walked through `nextCursor`). */
async function trailIds(server: TestServer, token: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = (await (
      await api(server, token, 'GET', `/api/v1/audit-events?limit=100${cursor ? `&cursor=${cursor}` : ''}`)
    ).json()) as { events: Array<{ id: string }>; nextCursor: string | null };
    ids.push(...page.events.map((e) => e.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

/** Waits until `done()` holds (polling every 100 ms), failing after `ms`. */
async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * An operator session on a server with the webhook on (`env`: the platform store): every event of
 * the site's trail arrives, each refused twice first.
 */
async function operatorSessionDelivered(env: Record<string, string>): Promise<void> {
  const hook = await receiver(2);
  const server = await startTestServer({ ...env, AUDIT_WEBHOOK_URL: hook.url, AUDIT_WEBHOOK_SECRET: SECRET });
  try {
    const token = await operatorToken(server);
    expect((await api(server, token, 'POST', '/api/v1/courses', { slug: 'hooked', title: 'Hooked' })).status).toBe(201);
    expect((await api(server, token, 'PATCH', '/api/v1/courses/hooked', { title: 'Hooked, renamed' })).status).toBe(
      200,
    );
    expect((await api(server, token, 'POST', '/api/v1/courses/hooked/publish')).status).toBe(200);
    await server.audit.flush();
    const ids = await trailIds(server, token);
    expect(ids.length).toBeGreaterThanOrEqual(4); // consent, tokens, three operator actions
    const delivered = () => new Set(hook.received.filter((r) => r.status === 200).map((r) => r.eventId));
    await until(() => ids.every((id) => delivered().has(id)), 20_000, 'every event of the trail to be delivered');

    for (const r of hook.received) {
      expect(r.signatureValid).toBe(true);
      expect(r.body.id).toBe(r.eventId);
    }
    // Each event was tried three times (500, 500, 200), all three with its one event id.
    for (const id of ids) {
      const tries = hook.received.filter((r) => r.eventId === id);
      expect(tries.map((t) => t.status)).toEqual([500, 500, 200]);
      expect(new Set(tries.map((t) => t.deliveryId)).size).toBe(1);
    }
    const actions = hook.received.filter((r) => r.status === 200 && r.body.kind === 'operator_action');
    expect(actions.length).toBe(3);
    // Nothing is left queued once delivered (read on the embedded store).
    if (server.store.sqlite)
      await until(
        () =>
          (server.store.sqlite!.prepare('SELECT count(*) AS n FROM audit_deliveries').get() as { n: number }).n === 0,
        5000,
        'the queue to empty',
      );
  } finally {
    await server.close();
    await hook.close();
  }
}

describe('audit webhook', () => {
  test('every event of an operator session arrives signed, though each is refused twice first; retries keep the event id', async () => {
    await operatorSessionDelivered({});
  }, 60_000);

  test('events queued while the receiver is down are delivered after a restart of the server', async () => {
    const downPort = await freePort(); // nothing listens here yet
    const url = `http://127.0.0.1:${downPort}/hooks/audit`;
    const first = await startTestServer({ AUDIT_WEBHOOK_URL: url, AUDIT_WEBHOOK_SECRET: SECRET });
    const dataDir = first.dataDir;
    const token = await operatorToken(first);
    expect((await api(first, token, 'POST', '/api/v1/courses', { slug: 'queued', title: 'Queued' })).status).toBe(201);
    await first.audit.flush();
    const ids = await trailIds(first, token);
    await first.close({ keepData: true });

    // The receiver comes up on that port; a new process on the same data serves and delivers.
    const hook = await receiver(0, downPort);
    const server = await startTestServer({ AUDIT_WEBHOOK_URL: url, AUDIT_WEBHOOK_SECRET: SECRET }, dataDir).catch(
      async (err) => {
        await hook.close();
        throw err;
      },
    );
    try {
      await until(
        () => ids.every((id) => hook.received.some((r) => r.eventId === id && r.status === 200)),
        20_000,
        'the queued events to be delivered after the restart',
      );
      expect(hook.received.every((r) => r.signatureValid)).toBe(true);
    } finally {
      await server.close();
      await hook.close();
    }
  }, 60_000);

  test('a delivery that never succeeds becomes a dead letter after the last try, counted in /metrics', async () => {
    const hook = await receiver(Number.POSITIVE_INFINITY);
    const server = await startTestServer({
      AUDIT_WEBHOOK_URL: hook.url,
      AUDIT_WEBHOOK_SECRET: SECRET,
      AUDIT_WEBHOOK_MAX_ATTEMPTS: '2',
    });
    try {
      const token = await operatorToken(server);
      expect((await api(server, token, 'POST', '/api/v1/courses', { slug: 'dead', title: 'Dead' })).status).toBe(201);
      await server.audit.flush();
      const dead = () =>
        server.store
          .sqlite!.prepare('SELECT event_id, attempts, last_error FROM audit_deliveries WHERE dead_at IS NOT NULL')
          .all() as Array<{
          event_id: string;
          attempts: number;
          last_error: string;
        }>;
      const ids = await trailIds(server, token);
      await until(() => ids.every((id) => dead().some((d) => d.event_id === id)), 20_000, 'dead letters');
      for (const d of dead()) {
        expect(d.attempts).toBe(2);
        expect(d.last_error).toBe('HTTP 500');
      }
      // Exactly two tries per event, then none.
      await new Promise((r) => setTimeout(r, 1500));
      for (const id of ids) expect(hook.received.filter((r) => r.eventId === id)).toHaveLength(2);
      const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
      const deadCount = Number(/coursegate_audit_webhook_tries_total\{outcome="dead"\} (\d+)/.exec(metrics)?.[1]);
      expect(deadCount).toBeGreaterThanOrEqual(ids.length);
    } finally {
      await server.close();
      await hook.close();
    }
  }, 60_000);

  test('settings: a URL needs its secret, a secret needs its URL, production needs https off loopback', () => {
    const base = { NODE_ENV: 'test' };
    expect(() => loadConfig({ ...base, AUDIT_WEBHOOK_URL: 'https://siem.example.com/h' })).toThrow(
      /AUDIT_WEBHOOK_SECRET: required with AUDIT_WEBHOOK_URL/,
    );
    expect(() => loadConfig({ ...base, AUDIT_WEBHOOK_SECRET: SECRET })).toThrow(/set without AUDIT_WEBHOOK_URL/);
    expect(() => loadConfig({ ...base, AUDIT_WEBHOOK_URL: 'ftp://x', AUDIT_WEBHOOK_SECRET: SECRET })).toThrow(
      /AUDIT_WEBHOOK_URL/,
    );
    expect(() =>
      loadConfig({ ...base, AUDIT_WEBHOOK_URL: 'https://siem.example.com/h', AUDIT_WEBHOOK_SECRET: 'short' }),
    ).toThrow(/AUDIT_WEBHOOK_SECRET: at least 32 characters/);
    expect(
      loadConfig({ ...base, AUDIT_WEBHOOK_URL: 'http://siem.example.com/h', AUDIT_WEBHOOK_SECRET: SECRET })
        .auditWebhook,
    ).toEqual({ url: 'http://siem.example.com/h', secret: SECRET, maxAttempts: 16 });
    const production = {
      NODE_ENV: 'production',
      BASE_URL: 'https://auth.example.com',
      COOKIE_SECRETS: 'c'.repeat(43),
      SIGNING_KEYS: 'store',
      AUDIT_WEBHOOK_SECRET: SECRET,
    };
    expect(() => loadConfig({ ...production, AUDIT_WEBHOOK_URL: 'http://siem.example.com/h' })).toThrow(
      /https required in production/,
    );
    expect(loadConfig({ ...production, AUDIT_WEBHOOK_URL: 'http://127.0.0.1:9000/h' }).auditWebhook?.url).toBe(
      'http://127.0.0.1:9000/h',
    );
  });
});

describeWith('postgres')('audit webhook on PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });
  test('every event of an operator session arrives signed, though each is refused twice first', async () => {
    await operatorSessionDelivered({ DATABASE_URL: database.url });
  }, 60_000);
});
