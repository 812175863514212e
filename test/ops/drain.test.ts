/**
 * Issue #28 (DESIGN D12): readiness and drain on SIGTERM, with the real entry point (`src/main.ts`
 * in a child process) and a real signal.
 *
 * A client that polls `/readyz` every 500 ms (as a load balancer does) sends load straight at the
 * process over keep-alive connections and stops sending once it sees 503; `SHUTDOWN_DELAY_SECONDS`
 * (2 s) is longer than its poll. Asserted: `/readyz` is 503 at once after SIGTERM while discovery
 * is still served; 0 failed requests; a request in flight when the listener closes (its body still
 * arriving) is answered; after the delay new connections are refused; the process exits 0 within
 * delay + grace. Before that, a SIGHUP (a "reload", a closed terminal) through the same `npm start`
 * chain is ignored with a line saying to restart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/ports.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DELAY_S = 2;
const GRACE_S = 5;

let stderr = '';

describe('SIGTERM: not ready at once, serve on for SHUTDOWN_DELAY_SECONDS, then drain (issue #28)', () => {
  let child: ChildProcess;
  let dataDir: string;
  let origin: string;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'cg-drain-'));
    child = spawn(process.execPath, ['scripts/on-lts.mjs', 'node', '--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        BASE_URL: origin,
        DATA_DIR: dataDir,
        DEMO_PASSWORD: 'demo-password-for-tests',
        LOG_LEVEL: 'silent',
        SHUTDOWN_DELAY_SECONDS: String(DELAY_S),
        SHUTDOWN_GRACE_SECONDS: String(GRACE_S),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.resume();
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`${origin}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error('the server did not become ready');
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 90_000);

  afterAll(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('0 failed requests across the drain; in-flight answered; exit 0', async () => {
    // A "reload" (SIGHUP, e.g. a closed terminal) through the `npm start` chain changes nothing and
    // stops nothing: settings are read at start only; the process says to restart instead.
    child.kill('SIGHUP');
    const said = Date.now() + 5_000;
    while (!stderr.includes('SIGHUP ignored') && Date.now() < said) await new Promise((r) => setTimeout(r, 50));
    expect(stderr).toContain('SIGHUP ignored: settings are read at start only; restart the process to apply a change');
    expect([child.exitCode, (await fetch(`${origin}/readyz`)).status]).toEqual([null, 200]);

    const results = { ok: 0, failed: [] as string[] };
    let inRotation = true;
    // The "load balancer": polls readiness every 500 ms and takes the process out at the first 503.
    const poller = (async () => {
      while (inRotation) {
        const status = await fetch(`${origin}/readyz`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) inRotation = false;
        else await new Promise((r) => setTimeout(r, 500));
      }
    })();
    const load = (async () => {
      while (inRotation) {
        await fetch(`${origin}/.well-known/openid-configuration`).then(
          async (r) => (
            r.status === 200 ? results.ok++ : results.failed.push(`status ${r.status}`), await r.arrayBuffer()
          ),
          (err: Error) => results.failed.push(err.message),
        );
      }
    })();
    await new Promise((r) => setTimeout(r, 1000));

    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.once('exit', (code) => resolve({ code, at: Date.now() })),
    );
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    // Not ready at once (as soon as the process has handled the signal: polled, a loaded machine
    // may take a moment to deliver it), but still serving.
    let ready = await fetch(`${origin}/readyz`);
    while (ready.status === 200 && Date.now() - signalledAt < 1500) {
      await new Promise((r) => setTimeout(r, 25));
      ready = await fetch(`${origin}/readyz`);
    }
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks.process).toBe('draining');
    expect((await fetch(`${origin}/.well-known/jwks.json`)).status).toBe(200);

    // A request whose body is still arriving when the listener closes.
    const inFlight = new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      const body = 'grant_type=refresh_token&refresh_token=unknown&client_id=demo-member-cli';
      socket.on('connect', () => {
        socket.write(
          `POST /api/oauth/token HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
        );
        // The rest arrives after the delay, when the process no longer accepts connections.
        setTimeout(() => socket.write(body.slice(10)), (DELAY_S + 1) * 1000 - (Date.now() - signalledAt));
      });
      socket.on('data', (d) => (answer += d));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });

    await Promise.all([poller, load]);
    expect(results.failed).toEqual([]);
    expect(results.ok).toBeGreaterThan(10);

    // After the delay: no new connections.
    await new Promise((r) => setTimeout(r, Math.max(0, signalledAt + (DELAY_S + 0.5) * 1000 - Date.now())));
    await expect(fetch(`${origin}/healthz`)).rejects.toThrow();

    const answer = await inFlight;
    expect(answer).toMatch(/^HTTP\/1\.1 400 /); // invalid_grant: answered, not cut off
    expect(answer.toLowerCase()).toContain('connection: close');
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan((DELAY_S + GRACE_S + 2) * 1000);
  }, 60_000);
});
