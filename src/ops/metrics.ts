/**
 * Prometheus metrics (prom-client) served at `/metrics` in the text exposition format:
 *
 * - `coursegate_http_requests_total{method,route,status}` and
 *   `coursegate_http_request_duration_seconds{method,route}`: every request; `route` is a fixed
 *   label (the endpoint, e.g. `token`, `/account/graphql`), never the raw path (no ids, no codes);
 * - `coursegate_tokens_issued_total{type}`: access / refresh tokens and codes saved by oidc-provider;
 * - `coursegate_errors_total{kind}`: 5xx answers (`http_5xx`; the 503s of a store outage apart, as
 *   `http_503_unavailable`), oidc-provider `server_error`s (`oidc_server_error`; store outages
 *   apart, as `oidc_store_outage`), token-endpoint errors;
 * - `coursegate_rate_limited_total{limit}`: 429 answers per limit (DESIGN D7);
 * - `coursegate_operator_wait_seconds`: how long operator requests waited for their share of the
 *   event loop (`OPERATOR_LOOP_SHARE`, src/http/operator-share.ts; only those that waited);
 * - `coursegate_store_operation_duration_seconds{store,model,op}`: adapter latency, and platform
 *   queries as `model="platform"`, `op="query"` (or `query_error`);
 * - `coursegate_build_info{version,node}`: 1, labelled with the release and the Node.js version;
 * - `coursegate_dependency_up{dependency}`: 1 when the embedded store, PostgreSQL, Redis or mail
 *   answered at the last probe or use, else 0 (src/ops/dependencies.ts; `/healthz` details);
 * - `coursegate_pg_pool_connections{state}`: the PostgreSQL pool's connections `in_use` and `idle`,
 *   and the queries `waiting` for one;
 * - `coursegate_redis_client_state{client,state}`: 1 for each Redis client's current ioredis
 *   `status` (`ready`, `connecting`, `reconnecting`, `end`, …), 0 for the others it has been in;
 * - the default Node.js process metrics.
 *
 * One registry per app, so several servers in one process (tests) keep separate counters.
 */
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { classify } from '../errors/catalogue.js';
import { isStoreOutage } from '../errors/outage.js';
import { routeOf } from '../engine/oidc-provider.js';

type AdapterClass = new (name: string) => Adapter;

/** The metrics of one app. */
export interface Metrics {
  registry: Registry;
  rateLimited: Counter<'limit'>;
  /** Tries of the audit webhook by outcome (`delivered`, `retry`, `dead`; src/ops/audit-webhook.ts). */
  auditWebhookTries: Counter<'outcome'>;
  /** Records the wait of one operator request for its share of the loop (src/http/operator-share.ts), in ms. */
  observeOperatorWait(ms: number): void;
  /** Adds the loop time (ms) charged to one operator request (`coursegate_operator_charged_seconds_total`). */
  countOperatorCharge(ms: number): void;
  /**
   * Counts and times one answered request (called once per request by the edge, src/app.ts).
   * @param ctx the request (method, `ctx.oidc.route`, path for the `route` label)
   * @param seconds the time from the start of the edge to the answer
   * @param status the status the request is answered with (for a thrown error: the status the
   *   error renderer will give it, `statusOfThrown`)
   */
  observeRequest(ctx: Koa.Context, seconds: number, status: number): void;
  /** Wraps an adapter class so that each operation is timed. */
  instrumentAdapter(adapter: AdapterClass, store: string): AdapterClass;
  /** Records one platform query (Kysely log hook); `ms` in milliseconds. */
  observeQuery(store: string, ms: number, ok: boolean): void;
  /** Subscribes to oidc-provider events (issuance, errors). */
  observeProvider(provider: Provider): void;
  /** Registers the gauges read at each scrape: build, dependencies, PostgreSQL pool, Redis clients. */
  observeProcess(sources: ProcessSources): void;
}

/** What the scrape-time gauges read. */
export interface ProcessSources {
  /** The release (package.json `version`). */
  version: string;
  /** 1/0 per dependency (src/ops/dependencies.ts). */
  dependencies: () => Array<[string, number]>;
  /** The PostgreSQL pool's counts, when platform data is on PostgreSQL. */
  pgPool?: () => { total: number; idle: number; waiting: number };
  /** The Redis clients by name, read at each scrape (a client rebuilt after it ended is the new one). */
  redisClients?: () => Record<string, { status: string } | undefined>;
}

/** Paths with a label of their own; anything else is `other` (bounded label cardinality). */
const KNOWN = ['/healthz', '/readyz', '/metrics', '/account/graphql', '/mcp', '/openapi.json', '/api/oauth/userinfo'];

function routeLabel(ctx: Koa.Context): string {
  const oidcRoute = routeOf(ctx);
  if (oidcRoute) return oidcRoute;
  const path = ctx.path;
  if (path.startsWith('/interaction/')) return 'interaction';
  if (path.startsWith('/.well-known/')) return 'well-known';
  if (path.startsWith('/admin')) return 'admin';
  if (path.startsWith('/api/v1/')) return 'admin-api';
  return KNOWN.includes(path) ? path : 'other';
}

/**
 * The status a thrown error is answered with by the edge's error renderer (src/errors/render.ts):
 * the catalogue's, else 500; once the headers are out, the status already sent.
 */
export function statusOfThrown(ctx: Koa.Context, err: unknown): number {
  return ctx.headerSent ? ctx.status : (classify(err)?.status ?? 500);
}

/** Creates the registry and the metrics listed above. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  // The event-loop delay gauges (`nodejs_eventloop_lag_*`) sample with a timer every 100 ms, not
  // prom-client's default 10 ms, which woke an idle process ~100 times a second
  // (test/ops/idle-wakeups.test.ts). A stall still shows: the next sample is late by its length.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  const requests = new Counter({
    name: 'coursegate_http_requests_total',
    help: 'HTTP requests',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'coursegate_http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const issued = new Counter({
    name: 'coursegate_tokens_issued_total',
    help: 'Tokens and codes issued',
    labelNames: ['type'],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'coursegate_errors_total',
    help: 'Errors by kind',
    labelNames: ['kind'],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'coursegate_rate_limited_total',
    help: '429 answers by limit',
    labelNames: ['limit'],
    registers: [registry],
  });
  const auditWebhookTries = new Counter({
    name: 'coursegate_audit_webhook_tries_total',
    help: 'Audit webhook delivery tries by outcome (delivered, retry, dead = kept as a dead letter)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const operatorWait = new Histogram({
    name: 'coursegate_operator_wait_seconds',
    help: 'Time operator requests waited for their share of the event loop (OPERATOR_LOOP_SHARE)',
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  const operatorCharged = new Counter({
    name: 'coursegate_operator_charged_seconds_total',
    help: 'Event-loop time charged to operator requests (OPERATOR_LOOP_SHARE): its rate is the share they took',
    registers: [registry],
  });
  const storeLatency = new Histogram({
    name: 'coursegate_store_operation_duration_seconds',
    help: 'oidc-provider adapter operation latency',
    labelNames: ['store', 'model', 'op'],
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
    registers: [registry],
  });

  // Label sets resolved once per (method, route) and status: bounded by routeLabel's fixed labels
  // (issue #15: no label object or key string per request on the hot path).
  interface RouteChildren {
    timed: { observe(seconds: number): void };
    counted: Map<number, { inc(): void }>;
  }
  const childrenOf = new Map<string, Map<string, RouteChildren>>();
  function observeRequest(ctx: Koa.Context, seconds: number, status: number): void {
    const route = routeLabel(ctx);
    const method = ctx.method;
    let byRoute = childrenOf.get(method);
    if (!byRoute) childrenOf.set(method, (byRoute = new Map()));
    let children = byRoute.get(route);
    if (!children) byRoute.set(route, (children = { timed: duration.labels({ method, route }), counted: new Map() }));
    children.timed.observe(seconds);
    let counted = children.counted.get(status);
    if (!counted) children.counted.set(status, (counted = requests.labels({ method, route, status: String(status) })));
    counted.inc();
    // Issue #28: a 503 is the expected answer to a store outage (Retry-After), counted apart from
    // server errors so that alerts on `http_5xx` mean a defect.
    if (status === 503) errors.inc({ kind: 'http_503_unavailable' });
    else if (status >= 500) errors.inc({ kind: 'http_5xx' });
  }

  function instrumentAdapter(Base: AdapterClass, store: string): AdapterClass {
    // Issue #15: the adapter is on every token request's path several times. Each instance keeps
    // one prom-client child per operation (labels resolved once) and times with performance.now()
    // instead of a timer closure per call.
    type Op = 'upsert' | 'find' | 'findByUid' | 'findByUserCode' | 'consume' | 'destroy' | 'revokeByGrantId';
    return class InstrumentedAdapter implements Adapter {
      private readonly inner: Adapter;
      private readonly children = new Map<Op, { observe(seconds: number): void }>();
      constructor(private readonly name: string) {
        this.inner = new Base(name);
      }
      private observe(op: Op, started: number): void {
        let child = this.children.get(op);
        if (!child) this.children.set(op, (child = storeLatency.labels({ store, model: this.name, op })));
        child.observe((performance.now() - started) / 1000);
      }
      async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
        const started = performance.now();
        try {
          return await this.inner.upsert(id, payload, expiresIn);
        } finally {
          this.observe('upsert', started);
        }
      }
      async find(id: string) {
        const started = performance.now();
        try {
          return await this.inner.find(id);
        } finally {
          this.observe('find', started);
        }
      }
      async findByUid(uid: string) {
        const started = performance.now();
        try {
          return await this.inner.findByUid(uid);
        } finally {
          this.observe('findByUid', started);
        }
      }
      async findByUserCode(userCode: string) {
        const started = performance.now();
        try {
          return await this.inner.findByUserCode(userCode);
        } finally {
          this.observe('findByUserCode', started);
        }
      }
      async consume(id: string) {
        const started = performance.now();
        try {
          return await this.inner.consume(id);
        } finally {
          this.observe('consume', started);
        }
      }
      async destroy(id: string) {
        const started = performance.now();
        try {
          return await this.inner.destroy(id);
        } finally {
          this.observe('destroy', started);
        }
      }
      async revokeByGrantId(grantId: string) {
        const started = performance.now();
        try {
          return await this.inner.revokeByGrantId(grantId);
        } finally {
          this.observe('revokeByGrantId', started);
        }
      }
    };
  }

  function observeProvider(provider: Provider): void {
    provider.on('access_token.saved', () => issued.inc({ type: 'access_token' }));
    provider.on('refresh_token.saved', () => issued.inc({ type: 'refresh_token' }));
    provider.on('authorization_code.saved', () => issued.inc({ type: 'authorization_code' }));
    provider.on('server_error', (_ctx, err) =>
      errors.inc({ kind: isStoreOutage(err) ? 'oidc_store_outage' : 'oidc_server_error' }),
    );
    provider.on('grant.error', () => errors.inc({ kind: 'token_endpoint' }));
  }

  // One child per (store, outcome), resolved once: the bearer step of every resource request runs
  // a platform query (issue #15).
  const queryChildren = new Map<string, { observe(seconds: number): void }>();
  function observeQuery(store: string, ms: number, ok: boolean): void {
    const key = ok ? store : `${store} error`;
    let child = queryChildren.get(key);
    if (!child)
      queryChildren.set(
        key,
        (child = storeLatency.labels({ store, model: 'platform', op: ok ? 'query' : 'query_error' })),
      );
    child.observe(ms / 1000);
    if (!ok) errors.inc({ kind: 'platform_query' });
  }

  function observeProcess(sources: ProcessSources): void {
    new Gauge({
      name: 'coursegate_build_info',
      help: 'The running release and Node.js version (always 1)',
      labelNames: ['version', 'node'],
      registers: [registry],
    })
      .labels({ version: sources.version, node: process.versions.node })
      .set(1);
    new Gauge({
      name: 'coursegate_dependency_up',
      help: 'Whether a dependency answered at its last probe or use (1) or not (0); /healthz details',
      labelNames: ['dependency'],
      registers: [registry],
      collect() {
        for (const [dependency, up] of sources.dependencies()) this.labels({ dependency }).set(up);
      },
    });
    const pgPool = sources.pgPool;
    if (pgPool)
      new Gauge({
        name: 'coursegate_pg_pool_connections',
        help: 'PostgreSQL pool: connections in use and idle, queries waiting for a connection',
        labelNames: ['state'],
        registers: [registry],
        collect() {
          const { total, idle, waiting } = pgPool();
          this.labels({ state: 'in_use' }).set(total - idle);
          this.labels({ state: 'idle' }).set(idle);
          this.labels({ state: 'waiting' }).set(waiting);
        },
      });
    const redisClients = sources.redisClients;
    if (redisClients) {
      // Every state a client has been seen in stays a series (0 when left), so a query for
      // `state="end"` is 0 rather than absent while the client is fine.
      const seen = new Map<string, Set<string>>();
      new Gauge({
        name: 'coursegate_redis_client_state',
        help: "Each Redis client's ioredis status: 1 for the current one",
        labelNames: ['client', 'state'],
        registers: [registry],
        collect() {
          for (const [client, redis] of Object.entries(redisClients())) {
            const current = redis?.status ?? 'absent';
            let states = seen.get(client);
            if (!states) seen.set(client, (states = new Set(['ready', 'reconnecting', 'end'])));
            states.add(current);
            for (const state of states) this.labels({ client, state }).set(state === current ? 1 : 0);
          }
        },
      });
    }
  }

  const observeOperatorWait = (ms: number) => operatorWait.observe(ms / 1000);
  const countOperatorCharge = (ms: number) => operatorCharged.inc(ms / 1000);
  return {
    registry,
    rateLimited,
    auditWebhookTries,
    observeRequest,
    observeOperatorWait,
    countOperatorCharge,
    instrumentAdapter,
    observeQuery,
    observeProvider,
    observeProcess,
  };
}
