/**
 * OpenTelemetry traces (docs/deployment.md "Traces"), exported over OTLP/HTTP when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set; off otherwise, and then nothing of the SDK is even loaded
 * (the modules are imported on demand), so an untraced server pays one `undefined` check per
 * request and per store call.
 *
 * What a trace holds, with the official Node SDK (`@opentelemetry/sdk-trace-node`, the OTLP/HTTP
 * exporter, W3C Trace Context propagation):
 * - one SERVER span per request, named `<METHOD> <route-table row>` (e.g. `POST token`,
 *   `GET userinfo`, `PATCH admin_api`), the child of an incoming `traceparent` (W3C Trace Context
 *   §3.2) when one is sent, with `http.request.method`, `http.route`, `http.response.status_code`
 *   and the request id; a 5xx marks it as an error. Its trace id goes to the access log line.
 * - one CLIENT span per call of the OIDC-state store (`redis find`, `sqlite upsert`…: the token,
 *   grant, session and code reads and writes of the token and resource steps), with the model;
 * - one CLIENT span per platform-store query (`postgres query`, `sqlite query`), timed by Kysely;
 * - one span per admin operation (`operation <id>`, from /api/v1, MCP tools and /admin alike), the
 *   parent of that operation's queries;
 * - outgoing HTTP (CIMD document fetches, the audit webhook) through the undici instrumentation,
 *   with `traceparent` propagated to the receiver.
 * Spans carry no token, code, secret, password, query string or SQL parameter.
 */
import type Koa from 'koa';
import type { Adapter } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Span, SpanOptions, Tracer } from '@opentelemetry/api';

/** Settings of the exporter (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_SERVICE_NAME`). */
export interface TracingSettings {
  /** The OTLP/HTTP base URL, e.g. `http://otel-collector:4318`; spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  /** `service.name` of the spans (default `coursegate`). */
  serviceName: string;
  /** `service.version`. */
  serviceVersion: string;
}

type AdapterClass = new (name: string) => Adapter;

/** The OIDC adapter's methods that reach the store (oidc-provider's Adapter interface). */
const ADAPTER_CALLS = [
  'upsert',
  'find',
  'findByUid',
  'findByUserCode',
  'consume',
  'destroy',
  'revokeByGrantId',
] as const;

/** A running tracer and the hooks that make spans (see the module docstring). */
export interface Tracing {
  /** The first middleware of the app: the request's SERVER span, active while it is served. */
  serverSpans: Koa.Middleware;
  /** A subclass of `Base` with a CLIENT span per store call (its other methods unchanged). */
  traceAdapter<C extends AdapterClass>(Base: C, store: string): C;
  /** Records one finished platform-store query that took `ms` milliseconds (Kysely's log hook). */
  query(store: string, ms: number, ok: boolean): void;
  /** Runs `work` inside a span named `name` (an admin operation). */
  span<T>(name: string, attributes: Record<string, string>, work: () => Promise<T>): Promise<T>;
  /** Exports the spans still buffered, then stops (at shutdown). */
  shutdown(): Promise<void>;
}

/**
 * Starts the tracer when `settings` is given (loading the SDK), else answers undefined.
 * @throws what the SDK throws for an unusable endpoint URL (at start, never per request)
 */
export async function startTracing(
  settings: TracingSettings | undefined,
  logger: Logger,
): Promise<Tracing | undefined> {
  if (!settings) return undefined;
  const [api, sdk, exporterModule, resources, instrumentation, undici] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-undici'),
  ]);
  const { SpanKind, SpanStatusCode, context, propagation, trace } = api;
  const exporter = new exporterModule.OTLPTraceExporter({ url: `${settings.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new sdk.NodeTracerProvider({
    resource: resources.resourceFromAttributes({
      'service.name': settings.serviceName,
      'service.version': settings.serviceVersion,
    }),
    spanProcessors: [new sdk.BatchSpanProcessor(exporter)],
  });
  // Registers the AsyncLocalStorage context manager and the W3C Trace Context propagator.
  provider.register();
  const disableInstrumentations = instrumentation.registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [new undici.UndiciInstrumentation({ requireParentforSpans: true })],
  });
  const tracer: Tracer = provider.getTracer('coursegate', settings.serviceVersion);
  logger.info({ event: 'tracing_on', endpoint: settings.endpoint }, 'traces are exported over OTLP/HTTP');

  const failed = (span: Span, err: unknown) => {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.name ?? 'error' });
  };
  const inSpan = async <T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T> =>
    tracer.startActiveSpan(name, options, async (span) => {
      try {
        return await work();
      } catch (err) {
        failed(span, err);
        throw err;
      } finally {
        span.end();
      }
    });

  const serverSpans: Koa.Middleware = async function traceRequest(ctx, next) {
    const parent = propagation.extract(context.active(), ctx.req.headers);
    const span = tracer.startSpan(
      `${ctx.method}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.scheme': ctx.protocol } },
      parent,
    );
    ctx.state.traceId = span.spanContext().traceId;
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      const route = (ctx.state as { route?: { spec: { name: string } } }).route?.spec.name;
      if (route) {
        span.updateName(`${ctx.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      if (ctx.state.requestId) span.setAttribute('coursegate.request_id', String(ctx.state.requestId));
      span.setAttribute('http.response.status_code', ctx.status);
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };

  return {
    serverSpans,
    traceAdapter(Base, store) {
      // A subclass: the store's own extra methods (e.g. the refresh rotation) stay reachable.
      const Parent = Base as AdapterClass;
      class TracedAdapter extends Parent {
        readonly tracedModel: string;
        constructor(name: string) {
          super(name);
          this.tracedModel = name;
        }
      }
      for (const call of ADAPTER_CALLS) {
        const original = (Base.prototype as unknown as Record<string, unknown>)[call];
        if (typeof original !== 'function') continue;
        Object.defineProperty(TracedAdapter.prototype, call, {
          configurable: true,
          writable: true,
          value(this: TracedAdapter, ...args: unknown[]) {
            return inSpan(
              `${store} ${call}`,
              { kind: SpanKind.CLIENT, attributes: { 'db.system.name': store, 'coursegate.model': this.tracedModel } },
              () => (original as (...a: unknown[]) => Promise<unknown>).apply(this, args),
            );
          },
        });
      }
      return TracedAdapter as unknown as typeof Base;
    },
    query(store, ms, ok) {
      // Only inside a request or an operation: a query of no trace (the retention purge) is not one.
      if (!trace.getActiveSpan()) return;
      const end = Date.now();
      const span = tracer.startSpan(`${store} query`, {
        kind: SpanKind.CLIENT,
        startTime: end - ms,
        attributes: { 'db.system.name': store === 'postgres' ? 'postgresql' : store },
      });
      if (!ok) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end(end);
    },
    span: (name, attributes, work) => inSpan(name, { attributes }, work),
    async shutdown() {
      disableInstrumentations();
      await provider.shutdown();
    },
  };
}
