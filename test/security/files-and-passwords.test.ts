/**
 * Issue #13 findings 6 and 7 (docs/security.md "Files" and "Passwords"): DATA_DIR and the store
 * file are private to the server's user, and passwords are hashed at current guidance (Argon2id),
 * older hashes upgraded on the next successful sign-in.
 */
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { scryptSync, randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, DEMO_PASSWORD } from '../helpers/server.js';
import { completeAuthorization } from '../helpers/user-agent.js';
import { pkcePair } from '../helpers/pkce.js';
import { openEmbeddedStore } from '../../src/store/database.js';
import { hashPassword, needsRehash, verifyPassword } from '../../src/platform/passwords.js';

const mode = (p: string): number => statSync(p).mode & 0o777;

describe('finding 6: DATA_DIR 0700 and its files 0600 when the server creates them', () => {
  test('a new DATA_DIR and coursegate.db are private to the server user', async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'coursegate-perm-'));
    const dataDir = path.join(parent, 'nested', 'data');
    const server = await startTestServer({}, dataDir);
    try {
      expect(mode(dataDir)).toBe(0o700);
      for (const file of ['coursegate.db', 'coursegate.db-wal', 'coursegate.db-shm'])
        expect(mode(path.join(dataDir, file))).toBe(0o600);
    } finally {
      await server.close();
      rmSync(parent, { recursive: true, force: true });
    }
  });

  test('an existing directory readable by others is kept, with a warning naming it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-perm-'));
    chmodSync(dir, 0o755);
    const warnings: string[] = [];
    const store = await openEmbeddedStore(dir, undefined, (m) => warnings.push(m));
    await store.close();
    expect(warnings.join('\n')).toContain(dir);
    expect(warnings.join('\n')).toContain('755');
    chmodSync(path.join(dir, 'coursegate.db'), 0o644);
    const again = await openEmbeddedStore(dir, undefined, (m) => warnings.push(m));
    await again.close();
    expect(warnings.some((w) => w.includes('coursegate.db') && w.includes('644'))).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('finding 7: passwords hashed with Argon2id, older hashes upgraded at sign-in', () => {
  test('new hashes are Argon2id with m=19 MiB, t=2, p=1 and verify', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong', hash)).toBe(false);
    expect(await verifyPassword('x', undefined)).toBe(false);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  test('a user stored with the old scrypt N=2^14 hash signs in and is rehashed to Argon2id', async () => {
    const server = await startTestServer();
    try {
      const salt = randomBytes(16);
      const legacy = [
        'scrypt',
        16384,
        8,
        1,
        salt.toString('base64url'),
        scryptSync(DEMO_PASSWORD, salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64url'),
      ].join('$');
      await server.store.db
        .updateTable('users')
        .set({ password_hash: legacy })
        .where('email', '=', 'student@demo.test')
        .execute();
      const url = new URL(`${server.baseUrl}/oauth/authorize`);
      const params = {
        response_type: 'code',
        client_id: 'demo-member-cli',
        redirect_uri: 'http://127.0.0.1/callback',
        scope: 'openid',
        resource: server.baseUrl,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        state: 's',
      };
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      const { callback } = await completeAuthorization(url, { email: 'student@demo.test', password: DEMO_PASSWORD });
      expect(callback.searchParams.get('code')).toBeTruthy();
      const row = await server.store.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', 'student@demo.test')
        .executeTakeFirstOrThrow();
      expect(row.password_hash.startsWith('$argon2id$')).toBe(true);
      expect(await verifyPassword(DEMO_PASSWORD, row.password_hash)).toBe(true);
    } finally {
      await server.close();
    }
  });
});
