/**
 * DESIGN D7 / issue #9: the one body reader (src/http/body.ts) reads text, JSON and form bodies
 * under the route row's limit, once, with one 413 and one 400. Proven over real HTTP: a Koa app
 * on a real port whose route row has a 1 KiB limit, and the coursegate server's 16 KiB forms.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { parseForm, parseJson, readText, formBody } from '../../src/http/body.js';
import { HttpError } from '../../src/http/errors.js';
import type { RouteSpec } from '../../src/http/route-table.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const LIMIT = 1024;
const spec: RouteSpec = {
  name: 'probe',
  path: '/probe',
  methods: ['POST'],
  owner: 'app',
  surface: 'oauth',
  auth: { kind: 'none' },
  body: { limit: LIMIT, reader: 'handler' },
};

/** POSTs `body` chunked (no Content-Length). */
function chunked(body: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      const bytes = new TextEncoder().encode(body);
      for (let i = 0; i < bytes.length; i += 256) c.enqueue(bytes.slice(i, i + 256));
      c.close();
    },
  });
}

describe('src/http/body.ts over HTTP, limit from the route row', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const app = new Koa();
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        ctx.status = err.status;
        ctx.set(err.headers);
        ctx.body = { error: err.error, error_description: err.description };
      }
    });
    app.use(async (ctx, next) => {
      ctx.state.route = { spec, params: {} };
      await next();
    });
    app.use(async (ctx, next) => {
      if (ctx.path === '/form')
        return parseForm(
          ctx,
          async () => void (ctx.body = { fields: formBody(ctx), proto: Object.getPrototypeOf(formBody(ctx)) === null }),
        );
      if (ctx.path === '/json')
        return parseJson(['application/json', 'application/merge-patch+json'])(
          ctx,
          async () => void (ctx.body = { parsed: ctx.request.body }),
        );
      if (ctx.path === '/twice') {
        const first = await readText(ctx);
        const second = await readText(ctx);
        ctx.body = { same: first === second, length: first.length };
        return;
      }
      return next();
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const post = (path: string, type: string, body: string | ReadableStream<Uint8Array>) =>
    fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': type }, body, duplex: 'half' } as RequestInit);

  test('form: fields read, a repeated name gives an array, no prototype', async () => {
    const res = await post('/form', 'application/x-www-form-urlencoded', 'a=1&scopes=x&scopes=y&__proto__=z');
    expect(res.status).toBe(200);
    const got = (await res.json()) as { fields: Record<string, unknown>; proto: boolean };
    expect(got.proto).toBe(true);
    expect(Object.entries(got.fields)).toEqual([
      ['a', '1'],
      ['scopes', ['x', 'y']],
      ['__proto__', 'z'],
    ]);
  });

  test('form: another content type gives {} and the body is not parsed', async () => {
    const res = await post('/form', 'text/plain', 'a=1');
    expect(await res.json()).toEqual({ fields: {}, proto: false });
  });

  test('json: parsed; an empty body gives {}; merge-patch is JSON too', async () => {
    expect(await (await post('/json', 'application/json', '{"a":[1,2]}')).json()).toEqual({ parsed: { a: [1, 2] } });
    expect(await (await post('/json', 'application/json', '')).json()).toEqual({ parsed: {} });
    expect(await (await post('/json', 'application/merge-patch+json', '{"b":null}')).json()).toEqual({
      parsed: { b: null },
    });
  });

  test('json: not JSON → 400 invalid_request', async () => {
    const res = await post('/json', 'application/json', '{"a":');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  test('json: a __proto__ key → 400 (prototype poisoning refused)', async () => {
    const res = await post('/json', 'application/json', '{"__proto__":{"isAdmin":true}}');
    expect(res.status).toBe(400);
  });

  test.each([
    ['declared', (s: string) => s],
    ['chunked', chunked],
  ] as const)('over the row limit (%s) → 413 invalid_request, Connection: close', async (_mode, shape) => {
    for (const path of ['/form', '/json', '/twice']) {
      const type = path === '/form' ? 'application/x-www-form-urlencoded' : 'application/json';
      const res = await post(path, type, shape(`{"pad":"${'x'.repeat(LIMIT)}"}`));
      expect(res.status).toBe(413);
      expect(res.headers.get('connection')).toBe('close');
      expect(await res.json()).toEqual({
        error: 'invalid_request',
        error_description: 'request body too large (limit 1 KiB)',
      });
    }
  });

  test('exactly at the limit is read; the text is read once and kept', async () => {
    const body = 'x'.repeat(LIMIT);
    expect(await (await post('/twice', 'text/plain', body)).json()).toEqual({ same: true, length: LIMIT });
    expect(await (await post('/twice', 'text/plain', chunked(body))).json()).toEqual({ same: true, length: LIMIT });
  });
});

describe('coursegate: one reader, one limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  // oidc-provider's own reader stops at 56 KiB; the route's limit is 64 KiB. A body between the two
  // is read by src/http/body.ts (declared or chunked), so the provider never applies its own limit.
  test.each(['/api/oauth/token', '/api/oauth/revoke', '/api/oauth/introspect'])(
    '%s: a 60 KiB form gets the same answer declared and chunked',
    async (path) => {
      const form = `client_id=nobody&pad=${'x'.repeat(60 * 1024)}`;
      const answers: Array<{ status: number; body: string }> = [];
      for (const body of [form, chunked(form)]) {
        const res = await fetch(`${server.baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
          duplex: 'half',
          redirect: 'manual',
        } as RequestInit);
        answers.push({ status: res.status, body: (await res.text()).replace(/[0-9a-f-]{36}/g, '<id>') });
      }
      expect(answers[0]!.status).not.toBe(413);
      expect(answers[0]!.body).not.toContain('failed to parse the request body');
      expect(answers[1]).toEqual(answers[0]);
    },
  );

  test.each(['/invitations/some-token', '/set-password'])('%s', async (path) => {
    for (const body of [`password=${'x'.repeat(17 * 1024)}`, chunked(`password=${'x'.repeat(17 * 1024)}`)]) {
      const res = await fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('request body too large (limit 16 KiB)');
    }
  });
});
