/**
 * Issue #28 item 5 (tracing without a tracing SDK): every access log line carries `req_id`, and a
 * request with a valid W3C Trace Context `traceparent` header (https://www.w3.org/TR/trace-context/
 * §3.2) carries its trace id as `trace_id`, so a proxy's or a client's trace leads to coursegate's
 * line. Invalid headers are ignored, as the recommendation tells a receiver to do. The real server
 * on a real port, its real pino logger writing to a stream this test reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { traceIdOf } from '../../src/http/trace-context.js';
import { freePort } from '../helpers/ports.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const VALID = `00-${TRACE}-00f067aa0ba902b7-01`;

describe('traceIdOf (W3C Trace Context §3.2)', () => {
  test.each([
    [VALID, TRACE],
    [`00-${TRACE}-00f067aa0ba902b7-00`, TRACE], // not sampled: still the same trace
    [`cc-${TRACE}-00f067aa0ba902b7-01-what-the-future-will-be-like`, TRACE], // a later version may add fields
    [`ff-${TRACE}-00f067aa0ba902b7-01`, undefined], // version ff is invalid
    [`00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, undefined], // all-zero trace id
    [`00-${TRACE}-${'0'.repeat(16)}-01`, undefined], // all-zero parent id
    [`00-${TRACE.toUpperCase()}-00f067aa0ba902b7-01`, undefined], // uppercase hex
    [`00-${TRACE}-00f067aa0ba902b7-01-extra`, undefined], // version 00 has nothing after the flags
    [`00-${TRACE.slice(1)}-00f067aa0ba902b7-01`, undefined],
    ['garbage', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s → %s', (header, expected) => {
    expect(traceIdOf(header)).toBe(expected);
  });
  test('a repeated header (an array) or an oversized one is ignored', () => {
    expect(traceIdOf([VALID, VALID])).toBeUndefined();
    expect(traceIdOf(`cc-${TRACE}-00f067aa0ba902b7-01-${'x'.repeat(600)}`)).toBeUndefined();
  });
});

describe('the access log', () => {
  let server: RunningServer;
  let dir: string;
  let baseUrl: string;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-trace-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      BASE_URL: baseUrl,
      DATA_DIR: dir,
      LOG_LEVEL: 'info',
    });
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    server = await startServer(config, pino({ level: 'info' }, sink));
  });
  afterAll(async () => {
    await server.stop(1000);
    rmSync(dir, { recursive: true, force: true });
  });

  const requestLine = async (id: string) => {
    for (let i = 0; i < 50; i++) {
      const line = lines.find((l) => l.msg === 'request' && l.req_id === id);
      if (line) return line;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no access log line for ${id}`);
  };

  test('a valid traceparent is logged as trace_id next to req_id', async () => {
    const res = await fetch(`${baseUrl}/.well-known/openid-configuration`, {
      headers: { traceparent: VALID, 'x-request-id': 'traced-1' },
    });
    expect(res.status).toBe(200);
    expect(await requestLine('traced-1')).toMatchObject({ req_id: 'traced-1', trace_id: TRACE, status: 200 });
  });

  test('on the token endpoint too, also for an error answer', async () => {
    const res = await fetch(`${baseUrl}/api/oauth/token`, {
      method: 'POST',
      body: 'grant_type=nope',
      headers: { 'content-type': 'application/x-www-form-urlencoded', traceparent: VALID, 'x-request-id': 'traced-2' },
    });
    expect(res.status).toBe(400);
    expect(await requestLine('traced-2')).toMatchObject({ trace_id: TRACE, route: 'token', status: 400 });
  });

  test('an invalid traceparent is ignored: no trace_id, the request answered as usual', async () => {
    const res = await fetch(`${baseUrl}/healthz`, {
      headers: { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, 'x-request-id': 'untraced-1' },
    });
    expect(res.status).toBe(200);
    expect(await requestLine('untraced-1')).not.toHaveProperty('trace_id');
  });

  test('every request line carries a req_id (generated when none comes in), echoed in X-Request-Id', async () => {
    const res = await fetch(`${baseUrl}/healthz`);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await requestLine(id!);
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(4);
    for (const l of requests) expect(l.req_id).toEqual(expect.any(String));
  });
});
