/**
 * CSV exports of the admin lists (docs/admin-api.md "Exports"): `GET /api/v1/members`, `/orders`
 * and `/audit-events` with `Accept: text/csv` answer the whole filtered list as RFC 4180 CSV over
 * real HTTP with a real operator token: every row of a list longer than two of its largest pages
 * (no row cap), the same rows as the JSON walk, filters applied, a header row of the item fields,
 * formula-injection-safe cells, quoting of commas, quotes and line breaks; JSON stays the default;
 * the scope of the list is required for the export too.
 */
import { parse } from 'csv-parse/sync';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';
import { OPERATOR_SCOPES } from '../../src/domain/scopes.js';

/** More members than two pages of the largest page size (200). */
const N = 450;
const pad = (i: number) => String(i).padStart(4, '0');

let server: TestServer;
let token: string;
let clientId: string;

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

/** Every row of a JSON list, walked through `nextCursor`. */
async function walk(path: string, key: string): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await get(`${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as Record<string, unknown>;
    rows.push(...(page[key] as Array<Record<string, unknown>>));
    cursor = page.nextCursor as string | null;
  } while (cursor);
  return rows;
}

beforeAll(async () => {
  server = await startTestServer();
  clientId = await registerLoopbackClient(server.baseUrl, 'csv exporter');
  token = await memberToken({
    baseUrl: server.baseUrl,
    email: 'owner@demo.test',
    clientId,
    scope: `openid ${[...OPERATOR_SCOPES].join(' ')}`,
    site: 'demo',
  });
  const sqlite = server.store.sqlite!;
  const user = sqlite.prepare(
    `INSERT INTO users (id, email, name, password_hash, created_at) VALUES (?, ?, ?, 'x', '2026-01-01T00:00:00.000Z')`,
  );
  const role = sqlite.prepare(`INSERT INTO memberships (site_id, user_id, role) VALUES ('demo', ?, ?)`);
  const order = sqlite.prepare(
    `INSERT INTO orders (id, site_id, user_id, number, status, total_minor, currency, created_at)
     VALUES (?, 'demo', ?, ?, ?, 1999, 'EUR', ?)`,
  );
  sqlite.transaction(() => {
    for (let i = 0; i < N; i++) {
      // A formula, a comma with quotes and a line break, among plain names.
      const name =
        i === 0 ? '=HYPERLINK("https://evil.example","x")' : i === 1 ? 'Doe, "Jo"\nSecond line' : `CSV ${pad(i)}`;
      user.run(`usr_csv_${pad(i)}`, `csv-${pad(i)}@demo.test`, name);
      role.run(`usr_csv_${pad(i)}`, i % 3 === 0 ? 'instructor' : 'student');
      order.run(
        `ord_csv_${pad(i)}`,
        `usr_csv_${pad(i)}`,
        i === 2 ? '+cmd|calc' : `CSV-${pad(i)}`,
        i % 2 ? 'paid' : 'pending',
        new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      );
    }
  })();
}, 60_000);

afterAll(() => server?.close());

describe('Accept: text/csv on admin lists', () => {
  test('members: every row (more than two pages), the JSON walk as CSV, header of the item fields', async () => {
    const res = await get('/api/v1/members', { accept: 'text/csv' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="members-demo-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.headers.get('vary')).toMatch(/accept/i);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(text.endsWith('\r\n')).toBe(true);
    const records = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(records[0] ?? {})).toEqual(['email', 'name', 'roles']);
    const json = await walk('/api/v1/members', 'members');
    expect(json.length).toBeGreaterThan(N);
    expect(records.map((r) => r.email)).toEqual(json.map((m) => m.email));
    const plain = records.find((r) => r.email === 'csv-0010@demo.test');
    expect(plain).toEqual({ email: 'csv-0010@demo.test', name: 'CSV 0010', roles: 'student' });
  });

  test('cells are formula-injection safe and quoted as RFC 4180 says', async () => {
    const text = await (await get('/api/v1/members', { accept: 'text/csv' })).text();
    const records = parse(text, { columns: true }) as Array<Record<string, string>>;
    const byEmail = new Map(records.map((r) => [r.email, r]));
    // The leading `=` is neutralised with a quote; the spreadsheet shows the text.
    expect(byEmail.get('csv-0000@demo.test')?.name).toBe(`'=HYPERLINK("https://evil.example","x")`);
    expect(byEmail.get('csv-0001@demo.test')?.name).toBe('Doe, "Jo"\nSecond line');
    expect(text).toContain('"Doe, ""Jo""\nSecond line"');
    const orders = parse(await (await get('/api/v1/orders', { accept: 'text/csv' })).text(), {
      columns: true,
    }) as Array<Record<string, string>>;
    expect(orders.find((o) => o.email === 'csv-0002@demo.test')?.number).toBe(`'+cmd|calc`);
  });

  test('filters apply to the export; limit and cursor do not cut it', async () => {
    const res = await get('/api/v1/members?role=instructor&limit=5', { accept: 'text/csv' });
    const records = parse(await res.text(), { columns: true }) as Array<Record<string, string>>;
    const json = await walk('/api/v1/members?role=instructor', 'members');
    expect(records.length).toBe(json.length);
    expect(records.length).toBeGreaterThan(150);
    for (const r of records) expect(r.roles).toContain('instructor');

    const paid = parse(await (await get('/api/v1/orders?status=paid', { accept: 'text/csv' })).text(), {
      columns: true,
    }) as Array<Record<string, string>>;
    expect(paid.length).toBe((await walk('/api/v1/orders?status=paid', 'orders')).length);
    expect(paid.length).toBeGreaterThanOrEqual(N / 2 - 1);
    expect(new Set(paid.map((o) => o.status))).toEqual(new Set(['paid']));
  });

  test('audit events export the same rows as the JSON list', async () => {
    const records = parse(await (await get('/api/v1/audit-events', { accept: 'text/csv' })).text(), {
      columns: true,
    }) as Array<Record<string, string>>;
    const json = await walk('/api/v1/audit-events', 'events');
    expect(json.length).toBeGreaterThan(0);
    expect(records.map((r) => r.id)).toEqual(json.map((e) => e.id));
    expect(Object.keys(records[0] ?? {})).toContain('kind');
  });

  test('JSON stays the default (no Accept, */*, or JSON preferred)', async () => {
    for (const accept of [undefined, '*/*', 'application/json, text/csv;q=0.5']) {
      const res = await get('/api/v1/members?limit=2', accept ? { accept } : {});
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await res.json()) as { members: unknown[] }).members).toHaveLength(2);
    }
  });

  test('the export needs the list scope: members:read missing is 403 insufficient_scope', async () => {
    const narrow = await memberToken({
      baseUrl: server.baseUrl,
      email: 'owner@demo.test',
      clientId,
      scope: 'openid orders:read',
      site: 'demo',
    });
    const res = await fetch(`${server.baseUrl}/api/v1/members`, {
      headers: { authorization: `Bearer ${narrow}`, accept: 'text/csv' },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('insufficient_scope');
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
  });

  test('/openapi.json declares text/csv on the three exportable lists only', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    const csvPaths = Object.entries(doc.paths)
      .filter(([, ops]) => ops.get?.responses['200']?.content?.['text/csv'])
      .map(([p]) => p)
      .sort();
    expect(csvPaths).toEqual(['/api/v1/audit-events', '/api/v1/members', '/api/v1/orders']);
  });
});
