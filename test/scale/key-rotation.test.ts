/**
 * DESIGN D6 signing-key rotation across processes: two coursegate servers on one store (the
 * embedded SQLite file of one DATA_DIR, as two processes of one host would share it), and the
 * `npm run keys` command run as its own process against that store.
 * add → both publish → activate (refused before the JWKS cache lifetime) → both sign with the new
 * key, id_tokens of the old one still verify → once they have expired the old key is out of JWKS.
 * Schedule shortened for the test: KEYS_JWKS_MAX_AGE=10, KEYS_REFRESH_SECONDS=1, id_token TTL 20 s
 * (long enough that, on a loaded machine, the last old id_token is still valid when the test reads
 * JWKS after both processes switched: with 8 s it once expired first and its key left JWKS).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizeMember, redeemCode } from '../helpers/flows.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-keys-'));
const configFile = path.join(dataDir, 'config.yaml');
const ENV = { KEYS_JWKS_MAX_AGE: '10', KEYS_REFRESH_SECONDS: '1', CONFIG_FILE: configFile };
let a: TestServer;
let b: TestServer;

/** `npm run keys -- …` as a separate process on the servers' store. */
function keys(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', ...args], {
    env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...ENV },
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const jwks = async (s: TestServer) => {
  const res = await fetch(`${s.baseUrl}/.well-known/jwks.json`);
  return { cacheControl: res.headers.get('cache-control'), set: (await res.json()) as JSONWebKeySet };
};
const kids = async (s: TestServer) => (await jwks(s)).set.keys.map((k) => k.kid).sort();
const idToken = async (s: TestServer) =>
  String((await redeemCode(s.baseUrl, s.baseUrl, await authorizeMember(s.baseUrl, s.baseUrl))).body.id_token);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits (≤ `seconds`, 20 by default) until `check` holds; every process re-reads the keys each KEYS_REFRESH_SECONDS. */
async function eventually(check: () => Promise<boolean>, seconds = 20): Promise<void> {
  for (let i = 0; i < seconds * 5 && !(await check()); i++) await sleep(200);
  expect(await check()).toBe(true);
}

beforeAll(async () => {
  writeFileSync(configFile, readFileSync('config/default.yaml', 'utf8').replace(/id_token: \d+/, 'id_token: 20'));
  a = await startTestServer(ENV, dataDir);
  b = await startTestServer(ENV, dataDir);
}, 60_000);
afterAll(async () => {
  await a?.close({ keepData: true });
  await b?.close({ keepData: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('DESIGN D6 key rotation: two processes, one store, the keys command', () => {
  let oldKid: string;
  let newKid: string;
  let oldToken: string;
  let activatable: number;

  test("both processes publish and sign with the first key; JWKS max-age is the schedule's", async () => {
    const list = keys('list');
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/ active /);
    oldKid = list.stdout.split(/\s+/)[0]!;
    expect(await kids(a)).toEqual([oldKid]);
    expect(await kids(b)).toEqual([oldKid]);
    expect((await jwks(a)).cacheControl).toBe('public, max-age=10');
    oldToken = await idToken(b);
    expect(decodeProtectedHeader(oldToken).kid).toBe(oldKid);
  });

  test('add → both publish the new key, neither signs with it; activating at once is refused with the reason', async () => {
    const added = keys('add');
    expect(added.status).toBe(0);
    newKid = /added (\S+)/.exec(added.stdout)![1]!;
    activatable = Date.parse(/may be activated from (\S+)\)/.exec(added.stdout)![1]!);
    const early = keys('activate', newKid);
    expect(early.status).toBe(1);
    expect(early.stderr).toMatch(/refused: .*clients may cache the JWKS for 10 s.*may sign from/);

    await eventually(async () => (await kids(a)).length === 2 && (await kids(b)).length === 2);
    expect(await kids(b)).toEqual([oldKid, newKid].sort());
    expect(decodeProtectedHeader(await idToken(a)).kid).toBe(oldKid);
    expect(keys('retire', oldKid).stderr).toMatch(/refused: .*is the active key/);
  }, 40_000);

  test('activate → both sign with the new key; id_tokens of the old key still verify against JWKS', async () => {
    // jwksMaxAge + refreshSeconds after publication, as `keys add` told.
    await sleep(Math.max(0, activatable - Date.now() + 1100));
    oldToken = await idToken(b); // the last id_token of the old key
    expect(decodeProtectedHeader(oldToken).kid).toBe(oldKid);
    const activated = keys('activate', newKid);
    expect(activated.stderr).toBe('');
    expect(activated.stdout).toContain(`retired ${oldKid}`);
    expect(keys('list').stdout).toMatch(new RegExp(`${oldKid}\\s+retired .*in JWKS until`));
    await eventually(
      async () =>
        decodeProtectedHeader(await idToken(a)).kid === newKid &&
        decodeProtectedHeader(await idToken(b)).kid === newKid,
    );

    const set = createLocalJWKSet((await jwks(b)).set);
    // The signature against the published keys, at a time the token is valid (the machine may be slow).
    const issuedAt = new Date(decodeJwt(oldToken).iat! * 1000);
    await expect(jwtVerify(oldToken, set, { issuer: b.baseUrl, currentDate: issuedAt })).resolves.toBeTruthy();
    await expect(jwtVerify(await idToken(a), set, { issuer: a.baseUrl })).resolves.toBeTruthy();
  }, 60_000);

  test('after the last old id_token expired, the retired key is gone from both JWKS', async () => {
    // The last old id_token expires ≤ 20 s after it was issued; then both drop its key.
    await eventually(async () => (await kids(a)).join() === newKid && (await kids(b)).join() === newKid, 45);
    expect(keys('list').stdout).toMatch(new RegExp(`${oldKid}\\s+retired .*out of JWKS`));
    expect(keys('activate', oldKid).stderr).toMatch(/refused: .*retired/);
  }, 70_000);
});
