/**
 * OpenTelemetry traces (docs/deployment.md "Traces", src/ops/tracing.ts) received by a real
 * OTLP/HTTP receiver on loopback from a real server: with `OTEL_EXPORTER_OTLP_ENDPOINT` set, a
 * token request, a UserInfo call and an operator action each arrive as a trace whose SERVER span
 * has the store calls as children (and the operation's span between them for the operator
 * action); an incoming `traceparent` makes the server span its child; no span carries a token.
 */
import { createServer, type Server } from 'node:http';
import { OPERATOR_SCOPES } from '../../src/domain/scopes.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';
import { freePort } from '../helpers/ports.js';
import { startTestServer } from '../helpers/server.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
}

/** An OTLP/HTTP JSON receiver: every span POSTed to `/v1/traces`, and the raw bodies. */
async function otlpReceiver(): Promise<{
  endpoint: string;
  spans: OtlpSpan[];
  bodies: string[];
  close(): Promise<void>;
}> {
  const spans: OtlpSpan[] = [];
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/v1/traces') {
        bodies.push(raw);
        const body = JSON.parse(raw) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
        for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const childrenOf = (spans: OtlpSpan[], parent: OtlpSpan) =>
  spans.filter((s) => s.traceId === parent.traceId && s.parentSpanId === parent.spanId);

test('a token request, a UserInfo call and an operator action each arrive as a trace with spans for the store calls', async () => {
  const receiver = await otlpReceiver();
  const server = await startTestServer({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
  let member = '';
  let operator = '';
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const parentId = '00f067aa0ba902b7';
  try {
    const clientId = await registerLoopbackClient(server.baseUrl, 'traced script');
    operator = await memberToken({
      baseUrl: server.baseUrl,
      email: 'owner@demo.test',
      clientId,
      scope: `openid ${[...OPERATOR_SCOPES].join(' ')}`,
      site: 'demo',
    });
    member = await memberToken({ baseUrl: server.baseUrl, email: 'student@demo.test' });
    const userinfo = await fetch(`${server.baseUrl}/api/oauth/userinfo`, {
      headers: { authorization: `Bearer ${member}`, traceparent: `00-${traceId}-${parentId}-01` },
    });
    expect(userinfo.status).toBe(200);
    const created = await fetch(`${server.baseUrl}/api/v1/courses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'traced', title: 'Traced' }),
    });
    expect(created.status).toBe(201);
  } finally {
    await server.close(); // exports the buffered spans
    await receiver.close();
  }
  const spans = receiver.spans;

  const token = spans.find((s) => s.name === 'POST token');
  expect(token).toBeDefined();
  expect(token!.kind).toBe(2); // SERVER
  expect(childrenOf(spans, token!).some((s) => /^sqlite (upsert|find|consume)$/.test(s.name))).toBe(true);

  // The UserInfo call continues the caller's trace (W3C Trace Context).
  const userinfo = spans.find((s) => s.name === 'GET userinfo');
  expect(userinfo).toMatchObject({ traceId, parentSpanId: parentId });
  expect(childrenOf(spans, userinfo!).map((s) => s.name)).toContain('sqlite find');

  // The operator action: request → operation → the platform store's queries.
  const action = spans.find(
    (s) => s.name === 'POST admin_api' && childrenOf(spans, s).some((c) => c.name === 'operation createCourse'),
  );
  expect(action).toBeDefined();
  const operation = childrenOf(spans, action!).find((c) => c.name === 'operation createCourse')!;
  expect(childrenOf(spans, operation).filter((s) => s.name === 'sqlite query').length).toBeGreaterThan(0);

  // No credential in any exported byte.
  const exported = receiver.bodies.join('\n');
  for (const secret of [member, operator]) expect(exported).not.toContain(secret);
}, 60_000);
