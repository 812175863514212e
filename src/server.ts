/**
 * Starts coursegate: builds the app, seeds demo data in development mode, listens. Used by
 * `main.ts` and by the tests (which run the real server on a real port).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';
import { createApp, type CoursegateApp } from './app.js';
import { readSeed, seedDemo } from './platform/seed.js';
import { seedOperatorDemo } from './platform/operator/demo-seed.js';
import { metricsServer } from './ops/metrics-access.js';
import { routeEngineNotices } from './engine/oidc-provider.js';

/** A listening server. */
export interface RunningServer extends CoursegateApp {
  server: Server;
  /** The actual port (useful with PORT=0). */
  port: number;
  /** The `/metrics` listener when `METRICS_PORT` is set. */
  metricsServer?: Server;
  /** The process's JSON logger (issue #28: every stdout line is JSON in production). */
  logger: Logger;
  /** Demo password when it was generated at this start (first start only). */
  generatedPassword?: string;
  /**
   * Graceful shutdown (issue #28, DESIGN D12): `/readyz` answers 503 at once; the process keeps
   * serving for `delayMs` (load balancers and endpoint controllers notice and stop sending); then
   * it stops accepting connections, closes idle keep-alive connections, answers requests in flight
   * with `Connection: close` and gives them up to `graceMs` to finish; then the stores close.
   * @param graceMs ms for in-flight requests (default 10 000; `SHUTDOWN_GRACE_SECONDS`)
   * @param delayMs ms of serving on while not ready (default 0; `SHUTDOWN_DELAY_SECONDS`)
   */
  stop(graceMs?: number, delayMs?: number): Promise<void>;
}

/** How long at most a JSON log line waits in the stdout buffer of {@link createLogger}, ms. */
export const LOG_FLUSH_MS = 200;

/**
 * Builds a pino logger writing JSON lines to stdout (fd 1) through an asynchronous buffered
 * destination: lines gather up to 4 KiB and are written without blocking the event loop, and the
 * buffer is written at the latest every {@link LOG_FLUSH_MS} ms when idle. One synchronous
 * `write(2)` per request was a large share of the CPU a cheap request costs (issue #15). No line is
 * lost on a normal exit: pino writes the buffer synchronously on process `exit` (also after an
 * uncaught exception), and {@link RunningServer.stop} flushes it after draining. A `SIGKILL` can lose
 * at most the last {@link LOG_FLUSH_MS} ms.
 */
export function createLogger(config: Config): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: LOG_FLUSH_MS });
  return pino(
    {
      level: config.logLevel,
      base: { service: 'coursegate' },
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    destination,
  );
}

/**
 * Starts the server.
 * @param config validated configuration; `port` 0 picks a free port (then BASE_URL must match it: see tests)
 */
export async function startServer(config: Config, logger: Logger = createLogger(config)): Promise<RunningServer> {
  routeEngineNotices(logger);
  const built = await createApp(config, logger);
  let generatedPassword: string | undefined;
  if (config.mode !== 'production') {
    const seed = readSeed(config.demoSeedFile);
    const result = await seedDemo(built.store.db, seed, config.demoPassword);
    if (result.seeded) {
      await seedOperatorDemo(built.store.db);
      generatedPassword = result.generatedPassword;
      logger.info({ event: 'demo_seeded', sites: seed.sites.length, users: seed.users.length }, 'demo data loaded');
    }
    // The demo member clients live in the OIDC store, which may be newer than the platform data
    // (a fresh Redis next to an existing PostgreSQL): put back the ones that are missing.
    const clients = new built.adapter('Client');
    for (const c of seed.member_clients) {
      if (result.seeded || !(await clients.find(c.client_id))) {
        await built.memberClients.create(c.site, {
          clientId: c.client_id,
          clientName: c.client_name,
          redirectUris: c.redirect_uris,
          scope: c.scope,
        });
      }
    }
  }
  const server = createServer(built.app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Issue #28: HOST binds the main port to one address; unset = every interface.
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const metricsListener =
    config.metrics.port !== undefined
      ? await metricsServer(built.metrics, config.metrics.port, config.metrics.token, config.metricsHost)
      : undefined;
  let closing = false;
  // Once the listener closes, every response ends its connection (no keep-alive into a closed
  // port): those of requests still arriving, and those in flight whose headers are not sent yet.
  const unanswered = new Set<ServerResponse>();
  server.on('request', (_req, res: ServerResponse) => {
    if (closing) return res.setHeader('Connection', 'close');
    unanswered.add(res);
    res.once('close', () => unanswered.delete(res));
  });
  const endKeepAlive = () => {
    closing = true;
    for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
    unanswered.clear();
  };
  return {
    ...built,
    server,
    port,
    metricsServer: metricsListener,
    logger,
    generatedPassword,
    async stop(graceMs = 10_000, delayMs = 0) {
      // /readyz turns 503 at once; the process serves on for delayMs; then requests in flight
      // finish (up to graceMs), then stores close.
      built.readiness.draining = true;
      if (delayMs > 0) {
        logger.info(
          { event: 'shutdown_delay', delay_ms: delayMs },
          'not ready; serving on until load balancers notice',
        );
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
      endKeepAlive();
      metricsListener?.close();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.closeAllConnections();
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
      await built.close();
      // Lines buffered by the asynchronous destination of createLogger reach stdout before exit.
      await new Promise<void>((resolve) => {
        setTimeout(resolve, 1000).unref(); // a destination that never drains must not hold the exit
        logger.flush(() => resolve());
      });
    },
  };
}
