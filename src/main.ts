/**
 * Composition root: `npm start`. Loads configuration, starts the server, prints where it listens
 * (and, in development, the demo accounts), and shuts down gracefully on SIGTERM / SIGINT.
 */
// First: refuses an unsupported Node.js before any module that would crash it is loaded.
import './node-version.js';
import { ConfigError, loadConfig } from './config.js';
import { startServer } from './server.js';
import { FirstRun } from './platform/first-run.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`coursegate: configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const running = await startServer(config);
  const lines = [
    '',
    `coursegate listening on port ${running.port} (${config.mode} mode)`,
    `  stores:             OIDC state on ${running.store.oidcKind}, platform data on ${running.store.platformKind}${running.store.sqlite ? ` (${config.dataDir})` : ''}`,
    `  issuer / resource:  ${config.baseUrl}`,
    `  discovery:          ${config.baseUrl}/.well-known/openid-configuration`,
    `  protected resource: ${config.baseUrl}/.well-known/oauth-protected-resource`,
  ];
  if (config.mode !== 'production') {
    const password =
      running.generatedPassword ??
      (config.demoPassword
        ? '(DEMO_PASSWORD)'
        : '(printed at first start; restart with DEMO_PASSWORD=<new password> to set it)');
    lines.push(
      '  demo accounts:      owner@demo.test (owner of "Demo Academy", admin of "Second School")',
      '                      student@demo.test (student of "Demo Academy")',
      `  demo password:      ${password}`,
      '  member client:      demo-member-cli (public, http://127.0.0.1/callback)',
    );
  }
  if (config.mode === 'production' && (await new FirstRun(running.store.db).isEmpty())) {
    // DESIGN D11: production seeds nothing; say how to create the first site and its owner.
    lines.push(
      '',
      '  No site yet. Create the first site and its owner (prints a one-time link to set the password):',
      '    npm run admin -- site create --id <site-id> --name "<Site name>" --owner-email <you@example.com>',
      '  (in the container image: node dist/src/cli/admin.js site create …)',
    );
  }
  let stopping = false;
  const drain = config.shutdown;
  const production = config.mode === 'production';
  // The start and shutdown lines show at any LOG_LEVEL but `silent` (they were plain text before).
  const announce = running.logger.level === 'silent' ? undefined : running.logger.child({}, { level: 'info' });
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Issue #28 (DESIGN D12): /readyz 503 at once, serve on for SHUTDOWN_DELAY_SECONDS, then stop
    // accepting and give requests in flight SHUTDOWN_GRACE_SECONDS.
    const { delaySeconds, graceSeconds } = drain;
    const said = `coursegate: ${signal} received, draining requests (not ready now; serving on for ${delaySeconds} s, then at most ${graceSeconds} s for requests in flight)`;
    // Issue #28: in production every stdout line is JSON (one log stream for the collector).
    if (production)
      announce?.info({ event: 'shutdown', signal, delay_seconds: delaySeconds, grace_seconds: graceSeconds }, said);
    else process.stdout.write(`${said}\n`);
    running.stop(graceSeconds * 1000, delaySeconds * 1000).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  // Settings are read once, at start (docs/operator-guide.md): a "reload" must not stop the process
  // (Node.js exits on an unhandled SIGHUP), so it is answered with what to do instead.
  process.on('SIGHUP', () => {
    const said = 'coursegate: SIGHUP ignored: settings are read at start only; restart the process to apply a change';
    if (production) announce?.warn({ event: 'sighup_ignored' }, said);
    else process.stderr.write(`${said}\n`);
  });
  // Handlers first: a SIGTERM that arrives right after the banner must drain, not kill.
  if (production)
    announce?.info(
      {
        event: 'started',
        port: running.port,
        oidc_store: running.store.oidcKind,
        platform_store: running.store.platformKind,
      },
      lines
        .filter(Boolean)
        .map((l) => l.trim())
        .join('; '),
    );
  else process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`coursegate: failed to start: ${(err as Error)?.message ?? String(err)}\n`);
  process.exit(1);
});
