/**
 * Issue #9, "one error catalogue, one mapper per surface": every code of the catalogue
 * (src/errors/catalogue.ts) has a status and an expose rule, and the mapper of each surface
 * (oauth, problem, graphql, jsonrpc, html) renders it — over real HTTP, through the real route
 * table (`ctx.state.route.spec.surface`) and the one renderer the app's edge uses. Domain refusals
 * (`PlatformError`), store outages and unknown faults go through the same path.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { GraphQLError } from 'graphql';
import {
  CODES,
  Conflict,
  DOMAIN_STATUS,
  Gone,
  InputError,
  InvalidRequest,
  MethodNotAllowed,
  NotFound,
  PreconditionFailed,
  ServerError,
  TemporarilyUnavailable,
  TooManyRequests,
  UnsupportedMediaType,
  type ErrorCode,
  type HttpError,
} from '../../src/errors/catalogue.js';
import { renderError } from '../../src/errors/render.js';
import { toGraphQLError } from '../../src/errors/surfaces/graphql.js';
import { toolError } from '../../src/errors/surfaces/jsonrpc.js';
import { challenge, dpopChallenge } from '../../src/http/challenge.js';
import { resolveRoute } from '../../src/http/route-table.js';
import { PlatformError, type PlatformErrorCode } from '../../src/platform/errors.js';

const BASE = 'https://coursegate.example';
const DOCS = 'https://docs.coursegate.example';
const HIDDEN = 'db password hunter2 at pool.ts:42';

/** One error of each code, as the code paths raise it (a new code without a sample fails to compile). */
const SAMPLES = {
  invalid_request: () => new InputError([{ in: 'body', pointer: '/slug', detail: 'too short' }]),
  invalid_token: () => challenge(BASE, 401, 'invalid_token', 'the access token has expired', 'openid'),
  invalid_dpop_proof: () => dpopChallenge(BASE, 'invalid_dpop_proof', 'the DPoP proof is for another URL', 'openid'),
  use_dpop_nonce: () =>
    dpopChallenge(BASE, 'use_dpop_nonce', 'this server requires a DPoP nonce', 'openid', undefined, 'n0nce'),
  insufficient_scope: () =>
    challenge(BASE, 403, 'insufficient_scope', 'the access token lacks the scope school:read', 'school:read'),
  access_denied: () =>
    challenge(BASE, 403, 'access_denied', 'the admin API needs an owner or admin role at the site', 'school:read'),
  not_found: () => new NotFound('no course "x"'),
  method_not_allowed: () => new MethodNotAllowed('PUT is not allowed', ['GET', 'POST']),
  conflict: () => new Conflict('a course with slug "x" already exists'),
  precondition_failed: () => new PreconditionFailed('the resource changed since you read it'),
  unsupported_media_type: () => new UnsupportedMediaType('send multipart/form-data'),
  too_many_requests: () => new TooManyRequests('too many requests; retry later', 7),
  server_error: () => new ServerError(HIDDEN),
  temporarily_unavailable: () => new TemporarilyUnavailable(),
} satisfies Record<ErrorCode, () => HttpError>;

/** A path of each surface in the real route table. */
const SURFACE_PATHS = {
  oauth: '/api/oauth/token',
  problem: '/api/v1/courses',
  graphql: '/account/graphql',
  jsonrpc: '/mcp',
  html: '/interaction/abc',
} as const;
type Surface = keyof typeof SURFACE_PATHS;

let server: http.Server;
let origin = '';
/** What the next request throws. */
let next: () => unknown = () => undefined;

beforeAll(async () => {
  const app = new Koa();
  app.use(async (ctx, n) => {
    ctx.state.requestId = 'req-123';
    try {
      await n();
    } catch (err) {
      renderError(ctx, err, { docsUrl: DOCS });
    }
  });
  app.use(resolveRoute());
  app.use(() => {
    throw next();
  });
  server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function call(
  surface: Surface,
  thrown: () => unknown,
): Promise<{ status: number; type: string; headers: Headers; text: string }> {
  next = thrown;
  const res = await fetch(origin + SURFACE_PATHS[surface], {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    headers: res.headers,
    text: await res.text(),
  };
}

/** Asserts the shape of `surface` for an answer carrying `code`; returns the parsed JSON body. */
function assertSurface(surface: Surface, code: string, answer: { type: string; text: string; headers: Headers }): void {
  expect(answer.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  if (surface === 'html') {
    expect(answer.type).toMatch(/^text\/html/);
    expect(answer.text).toMatch(/<html/i);
    expect(answer.text).toContain(`<code>${code}</code>`);
    return;
  }
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  const challenged = answer.headers.get('www-authenticate') !== null;
  if (surface === 'problem') {
    expect(answer.type).toMatch(/^application\/problem\+json/);
    expect(body).toMatchObject({
      type: `${DOCS}/admin-api.md#${code}`,
      error: code,
      title: expect.any(String),
      detail: expect.any(String),
      status: expect.any(Number),
    });
  } else if (surface === 'jsonrpc' && !challenged) {
    expect(answer.type).toMatch(/^application\/json/);
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: expect.any(Number), message: expect.any(String) },
    });
  } else {
    expect(answer.type).toMatch(/^application\/json/);
    expect(body).toMatchObject({ error: code, error_description: expect.any(String) });
    if (surface === 'graphql')
      expect(body.errors).toEqual([
        {
          message: body.error_description,
          extensions: { code: code === 'server_error' ? 'INTERNAL_SERVER_ERROR' : code.toUpperCase() },
        },
      ]);
  }
}

describe('the catalogue', () => {
  test('every code has a status, an expose rule and a sample raising it', () => {
    for (const [code, entry] of Object.entries(CODES)) {
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      // Only faults of ours hide their message (the 503 of an outage says what to do).
      expect(entry.expose).toBe(entry.status < 500 || code === 'temporarily_unavailable');
      expect(entry.means.length).toBeGreaterThan(10);
      const sample = SAMPLES[code as ErrorCode]();
      expect([sample.error, sample.status, sample.expose]).toEqual([code, entry.status, entry.expose]);
    }
  });

  test('invalid_request also answers 413 and 415 for the body', () => {
    expect(new InvalidRequest('too large', { status: 413 }).status).toBe(413);
    expect(new InvalidRequest('wrong type', { status: 415 }).error).toBe('invalid_request');
  });

  test.each([
    ['a forged page form', () => new InvalidRequest('The form has expired.', { status: 403 }), 403, 'invalid_request'],
    [
      'a malformed one-time link',
      () => new InvalidRequest('This invitation link is not valid.', { status: 404 }),
      404,
      'invalid_request',
    ],
    [
      'a used invitation (the domain reason is the code)',
      () => new Gone('This invitation was already used.', 'invitation_accepted'),
      410,
      'invitation_accepted',
    ],
  ] as const)("the pages' errors render on the html surface: %s", async (_what, raise, status, code) => {
    const answer = await call('html', raise);
    expect(answer.status).toBe(status);
    assertSurface('html', code, answer);
  });
});

describe.each(Object.keys(SURFACE_PATHS) as Surface[])('the %s surface renders every code', (surface) => {
  test.each(Object.keys(CODES) as ErrorCode[])('%s', async (code) => {
    const sample = SAMPLES[code]();
    const answer = await call(surface, () => sample);
    expect(answer.status).toBe(CODES[code].status);
    assertSurface(surface, code, answer);
    for (const [name, value] of Object.entries(sample.headers)) expect(answer.headers.get(name)).toBe(value);
    if (answer.status === 401 || answer.status === 403)
      // RFC 9449 §7.1: the DPoP codes are challenged under the DPoP scheme.
      expect(answer.headers.get('www-authenticate') ?? '').toMatch(code.includes('dpop') ? /^DPoP\b/ : /^Bearer\b/);
    if (!CODES[code].expose) {
      expect(answer.text).not.toContain('hunter2');
      if (surface !== 'html') expect(answer.text).toContain('req-123');
    }
  });

  test('an unknown fault: 500 server_error, its message never shown', async () => {
    const answer = await call(surface, () => new Error(HIDDEN));
    expect(answer.status).toBe(500);
    assertSurface(surface, 'server_error', answer);
    expect(answer.text).not.toContain('hunter2');
  });

  test('a store outage: 503 temporarily_unavailable with Retry-After', async () => {
    const answer = await call(surface, () =>
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    );
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    assertSurface(surface, 'temporarily_unavailable', answer);
  });
});

describe('domain refusals (PlatformError, one code set)', () => {
  const wire: Record<PlatformErrorCode, string> = {
    invalid: 'invalid_request',
    not_found: 'not_found',
    conflict: 'conflict',
    forbidden: 'access_denied',
  };
  const graphql: Record<PlatformErrorCode, string> = {
    invalid: 'BAD_USER_INPUT',
    not_found: 'NOT_FOUND',
    conflict: 'CONFLICT',
    forbidden: 'FORBIDDEN',
  };

  test.each(Object.keys(DOMAIN_STATUS) as PlatformErrorCode[])(
    '%s: status, wire code, field, GraphQL code and MCP tool error',
    async (code) => {
      const refusal = () => new PlatformError(code, `refused as ${code}`, { field: 'slug' });
      const answer = await call('problem', refusal);
      expect(answer.status).toBe(DOMAIN_STATUS[code]);
      assertSurface('problem', wire[code], answer);
      expect(JSON.parse(answer.text)).toMatchObject({
        detail: `refused as ${code}`,
        errors: [{ in: 'body', pointer: '/slug', detail: `refused as ${code}` }],
      });
      assertSurface('oauth', wire[code], await call('oauth', refusal));
      assertSurface('html', wire[code], await call('html', refusal));

      let thrown: unknown;
      try {
        toGraphQLError(refusal());
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(GraphQLError);
      expect((thrown as GraphQLError).extensions).toEqual({ code: graphql[code], argumentName: 'slug' });
      expect(toolError(refusal())?.result).toEqual({
        isError: true,
        content: [{ type: 'text', text: `${code}: refused as ${code}` }],
      });
    },
  );

  test('a finer reason is the wire code, with its own status where it has one', async () => {
    const lastOwner = await call(
      'problem',
      () => new PlatformError('conflict', 'the last owner keeps the owner role', { reason: 'last_owner' }),
    );
    expect(lastOwner.status).toBe(409);
    assertSurface('problem', 'last_owner', lastOwner);
    const media = await call(
      'problem',
      () => new PlatformError('invalid', 'not an accepted type', { reason: 'unsupported_media_type', field: 'file' }),
    );
    expect(media.status).toBe(415);
    assertSurface('problem', 'unsupported_media_type', media);
  });

  test('access_expired is ACCESS_EXPIRED in GraphQL and forbidden in MCP tool errors', () => {
    const expired = new PlatformError('forbidden', 'your access to x expired', { reason: 'access_expired' });
    expect(() => toGraphQLError(expired)).toThrow(expect.objectContaining({ extensions: { code: 'ACCESS_EXPIRED' } }));
    expect(toolError(expired)?.code).toBe('forbidden');
    expect(toolError(new Error('boom'))).toBeUndefined();
    expect(() => toGraphQLError(new Error('boom'))).toThrow('boom');
  });
});
