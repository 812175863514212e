/**
 * CPU time per request of the resource-server scenarios of issue #15 (UserInfo, the SPEC §2.4
 * `/account/graphql` viewer, `/mcp` `tools/call my_enrollments`) and of a bare oidc-provider's
 * `AccessToken.find` over HTTP (bench/targets/bare.ts).
 *
 * `npm run bench` reports requests/s, which on a shared 2-core machine moves with whatever else
 * runs. The CPU time a server process spends per answered request (user + system, from
 * /proc/<pid>/stat, divided by the requests autocannon counted) moves far less, so a change's
 * effect shows in one short run. Ratios here are bare µs ÷ coursegate µs, comparable with the
 * req/s ratios of `npm run bench` on a quiet machine.
 *
 * Each scenario runs twice: with a Bearer token, and with a DPoP-bound token (RFC 9449) and a new
 * ES256 proof per request (signed here, by the load generator), so the table shows what a proof
 * costs the server beside Bearer (DESIGN D15: one signature verification and one store write).
 *
 * Usage: `npm run build && node scripts/on-lts.mjs node --import tsx bench/cpu-per-request.ts`
 * (production start, `dist/`; BENCH_DEV=1 runs `src/main.ts` with tsx instead).
 * env: BENCH_ONLY=userinfo,viewer,mcp (subset), BENCH_DPOP=0 (Bearer rows only), BENCH_DURATION (5) s per scenario after 2 s warm-up,
 * BENCH_CONNECTIONS (8), BENCH_ENTRY (another build's main.js, e.g. a copy of `dist/` from before a
 * change, for A/B runs taken in turns).
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import autocannon from 'autocannon';
import { freePort } from '../test/helpers/ports.js';
import { MEMBER_CLIENT, REDIRECT_URI, authorizeMember, postForm, redeemCode } from '../test/helpers/flows.js';
import { DEMO_PASSWORD } from '../test/helpers/server.js';
import { generateSigningKey } from '../src/oauth/keys.js';
import { cpuMs, stop, waitReady } from './processes.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'userinfo,viewer,mcp').split(','));
const DEV = process.env.BENCH_DEV === '1';
const DPOP = process.env.BENCH_DPOP !== '0';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

type Req = NonNullable<autocannon.Options['requests']>[number];

/** CPU µs per answered request and req/s of one scenario; non-2xx answers fail the run. */
async function measure(
  name: string,
  pid: number,
  origin: string,
  request: Req,
): Promise<{ name: string; us: number; rps: number }> {
  await autocannon({ url: origin, connections: CONNECTIONS, duration: 2, requests: [request] });
  const before = 1000 * cpuMs(pid);
  const r = await autocannon({ url: origin, connections: CONNECTIONS, duration: DURATION, requests: [request] });
  const spent = 1000 * cpuMs(pid) - before;
  if (r.non2xx > 0) throw new Error(`${name}: ${r.non2xx} non-2xx answers`);
  return { name, us: spent / r.requests.total, rps: Math.round(r.requests.average) };
}

const bearer = (p: string, token: string): Req => ({
  method: 'GET',
  path: p,
  headers: { authorization: `Bearer ${token}` },
});
const viewer = (token: string): Req => ({
  method: 'POST',
  path: '/account/graphql',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  body: JSON.stringify({
    query: '{ viewer { id email enrolledCourses(first: 10) { nodes { slug expireDate hasLifetimeAccess } } } }',
  }),
});
const mcp = (token: string): Req => ({
  method: 'POST',
  path: '/mcp',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${token}`,
  },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'my_enrollments', arguments: { first: 10 } },
  }),
});

/** The client's DPoP key (P-256) and its public JWK, for proofs signed synchronously per request. */
const dpopKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const dpopJwk = (({ kty, crv, x, y }) => ({ kty, crv, x, y }))(dpopKey.publicKey.export({ format: 'jwk' }));
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An RFC 9449 proof JWT (ES256, a new `jti`), `ath` when a token is given. */
function proof(htm: string, htu: string, token?: string): string {
  const claims = {
    jti: randomUUID(),
    htm,
    htu,
    iat: Math.floor(Date.now() / 1000),
    ...(token ? { ath: createHash('sha256').update(token).digest('base64url') } : {}),
  };
  const input = `${b64({ typ: 'dpop+jwt', alg: 'ES256', jwk: dpopJwk })}.${b64(claims)}`;
  const signature = sign('sha256', Buffer.from(input), { key: dpopKey.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/** `request` sent with `Authorization: DPoP` and a fresh proof each time (autocannon's `setupRequest`). */
function withDpop(request: Req, origin: string, token: string): Req {
  const htu = `${origin}${request.path}`;
  return {
    ...request,
    headers: { ...request.headers, authorization: `DPoP ${token}` },
    setupRequest: (req) => ({ ...req, headers: { ...req.headers, dpop: proof(String(req.method), htu, token) } }),
  };
}

async function bare(): Promise<{ name: string; us: number; rps: number }> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bare-cpu-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/targets/bare.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dir,
      BENCH_TOKENS: '1',
      BENCH_PREFIX: `cpu-${randomBytes(4).toString('hex')}`,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: root,
  });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`bare.ts exited with ${code}`)));
    });
    const { accessToken } = JSON.parse(line) as { accessToken: string };
    return await measure(
      'bare AccessToken.find',
      child.pid!,
      `http://127.0.0.1:${port}`,
      bearer('/bench/find', accessToken),
    );
  } finally {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function coursegate(): Promise<Array<{ name: string; us: number; rps: number }>> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-cpu-'));
  const entry = DEV ? ['--import', 'tsx', 'src/main.ts'] : [process.env.BENCH_ENTRY ?? 'dist/src/main.js'];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    BASE_URL: origin,
    DATA_DIR: dir,
    DEMO_PASSWORD,
  };
  delete env.LOG_LEVEL;
  const setup = spawn(process.execPath, entry, { env, stdio: ['ignore', 'ignore', 'inherit'], cwd: root });
  let token = '';
  let bound = '';
  try {
    await waitReady(origin, setup);
    token = String(
      (await redeemCode(origin, origin, await authorizeMember(origin, origin, 'openid account:read'))).body
        .access_token,
    );
    if (DPOP) {
      const issued = await authorizeMember(origin, origin, 'openid account:read');
      const exchanged = await postForm(
        origin,
        '/api/oauth/token',
        {
          grant_type: 'authorization_code',
          code: issued.code,
          code_verifier: issued.verifier,
          redirect_uri: REDIRECT_URI,
          client_id: MEMBER_CLIENT,
          resource: origin,
        },
        { dpop: proof('POST', `${origin}/api/oauth/token`) },
      );
      if (exchanged.body.token_type !== 'DPoP') throw new Error(`no DPoP token: ${JSON.stringify(exchanged.body)}`);
      bound = String(exchanged.body.access_token);
    }
  } finally {
    await stop(setup);
  }
  if (!DEV) {
    const keyFile = path.join(dir, 'signing-key.json');
    writeFileSync(keyFile, JSON.stringify(await generateSigningKey()), { mode: 0o600 });
    Object.assign(env, {
      NODE_ENV: 'production',
      SIGNING_KEY_FILE: keyFile,
      COOKIE_SECRETS: randomBytes(32).toString('hex'),
    });
  }
  const log = openSync(path.join(dir, 'coursegate.log'), 'a');
  const child = spawn(process.execPath, entry, { env, stdio: ['ignore', log, 'inherit'], cwd: root });
  closeSync(log);
  try {
    await waitReady(origin, child);
    const rows = [];
    const scenarios: Array<[key: string, name: string, request: (t: string) => Req]> = [
      ['userinfo', 'UserInfo', (t) => bearer('/api/oauth/userinfo', t)],
      ['viewer', '/account/graphql viewer', viewer],
      ['mcp', '/mcp tools/call my_enrollments', mcp],
    ];
    for (const [key, name, request] of scenarios) {
      if (!ONLY.has(key)) continue;
      rows.push(await measure(name, child.pid!, origin, request(token)));
      if (DPOP) rows.push(await measure(`${name} (DPoP)`, child.pid!, origin, withDpop(request(bound), origin, bound)));
    }
    return rows;
  } finally {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

const floor = await bare();
const rows = await coursegate();
const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
process.stdout.write(
  `\nCPU per request (${DEV ? 'tsx src/main.ts' : 'production start'}; ${CONNECTIONS} connections, ${DURATION} s; load average ${load})\n\n`,
);
process.stdout.write('| scenario | CPU µs/request | req/s | bare µs ÷ this |\n|---|---:|---:|---:|\n');
for (const r of [floor, ...rows])
  process.stdout.write(`| ${r.name} | ${r.us.toFixed(0)} | ${r.rps} | ${(floor.us / r.us).toFixed(2)} |\n`);
