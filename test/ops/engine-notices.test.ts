/**
 * oidc-provider writes its own warnings to the console as bare text (lib/helpers/attention.js).
 * The server sends them to its JSON log instead (`event: "engine_notice"`,
 * src/engine/oidc-provider.ts `routeEngineNotices`), and the one it emits by design (the body step
 * of DESIGN D7 reads every body before the provider: "already parsed request body detected") at
 * `debug`: an operator's stderr no longer shows a warning that reads as a misconfiguration.
 * Run as operators run it: the server in its own process, stdout and stderr read apart.
 */
import { spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

let server: SpawnedServer | undefined;
afterAll(() => server?.stop());

test('the provider\'s "already parsed request body" warning goes to the JSON log at debug, not to stderr', async () => {
  server = await spawnServer({ LOG_LEVEL: 'debug' });
  const base = server.baseUrl;

  // Two form posts to the provider: the first makes it warn (once per process).
  for (let i = 0; i < 2; i++) {
    const res = await fetch(`${base}/api/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'not-a-token', client_id: 'demo-member-cli' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ active: false });
  }
  const lines = () =>
    server!
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; event?: string; engine?: string; msg?: string });
  for (let i = 0; i < 50 && !lines().some((l) => l.event === 'engine_notice'); i++)
    await new Promise((r) => setTimeout(r, 100));
  const notices = lines().filter((l) => l.event === 'engine_notice');
  expect(notices).toEqual([
    expect.objectContaining({
      level: 20,
      engine: 'oidc-provider',
      msg: expect.stringMatching(/^already parsed request body detected/),
    }),
  ]);
  expect(server.stderr()).not.toContain('oidc-provider WARNING');
  expect(server.stderr()).not.toContain('already parsed request body');
});
