/**
 * The oidc-provider adapter contract (research/oidc-provider-v9.md §8), run against every adapter:
 * the embedded SQLite one, the Redis one on a standalone server and on a 3-master Redis Cluster.
 * Same expectations, same tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import { sqliteAdapterFactory } from '../../adapters/sqlite.js';
import { connectRedis, redisAdapterFactory } from '../../adapters/redis.js';
import type { RefreshRotation, RotationPolicy } from '../../adapters/rotation.js';
import { TEST_REDIS_URL, randomPrefix } from '../helpers/services.js';
import { findBinary, startPrivateRedisCluster } from '../services/global-setup.js';

type AdapterClass = new (name: string) => Adapter & RefreshRotation;

interface Subject {
  /** The adapter class as one process sees it. */
  adapter: AdapterClass;
  /** A second, independent connection to the same store (another process). */
  other: AdapterClass;
  close(): Promise<void>;
}

const subjects: Record<string, (() => Promise<Subject>) | undefined> = {
  sqlite: async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-contract-'));
    const a = new Database(path.join(dir, 'oidc.db'));
    a.pragma('journal_mode = WAL');
    const b = new Database(path.join(dir, 'oidc.db'));
    b.pragma('busy_timeout = 5000');
    return {
      adapter: sqliteAdapterFactory(a),
      other: sqliteAdapterFactory(b),
      async close() {
        a.close();
        b.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  redis: TEST_REDIS_URL
    ? async () => {
        const prefix = randomPrefix();
        // The production client settings (auto-pipelining, retry policy).
        const a = connectRedis({ url: TEST_REDIS_URL });
        const b = connectRedis({ url: TEST_REDIS_URL });
        return {
          adapter: redisAdapterFactory(a, { prefix }),
          other: redisAdapterFactory(b, { prefix }),
          async close() {
            const keys = await a.keys(`${prefix}:*`);
            if (keys.length) await a.del(...keys);
            a.disconnect();
            b.disconnect();
          },
        };
      }
    : undefined,
  // A real 3-master Cluster: every script must stay within one slot (hash tags) to run at all.
  'redis-cluster':
    findBinary('redis-server') && findBinary('redis-cli')
      ? async () => {
          const cluster = await startPrivateRedisCluster();
          const a = connectRedis({ clusterNodes: cluster.nodes });
          const b = connectRedis({ clusterNodes: cluster.nodes });
          return {
            adapter: redisAdapterFactory(a, { prefix: 'cg' }),
            other: redisAdapterFactory(b, { prefix: 'cg' }),
            async close() {
              a.disconnect();
              b.disconnect();
              await cluster.stop();
            },
          };
        }
      : undefined,
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let seq = 0;
const uniq = (s: string) => `${s}-${Date.now().toString(36)}-${++seq}`;

for (const [name, open] of Object.entries(subjects)) {
  const d = open ? describe : describe.skip;
  if (!open) process.stderr.write(`\n*** SKIPPED adapter contract for ${name}: service not available ***\n`);

  d(`oidc-provider adapter contract: ${name}`, () => {
    let s: Subject;
    beforeAll(async () => {
      s = await open!();
    });
    afterAll(() => s.close());

    test('upsert then find returns the payload; unknown ids are undefined', async () => {
      const at = new s.adapter('AccessToken');
      const id = uniq('at');
      const payload: AdapterPayload = {
        jti: id,
        kind: 'AccessToken',
        grantId: uniq('g'),
        accountId: 'u1',
        scope: 'openid',
      };
      await at.upsert(id, payload, 60);
      expect(await at.find(id)).toEqual(payload);
      expect(await new s.other('AccessToken').find(id)).toEqual(payload);
      expect(await at.find(uniq('nope'))).toBeUndefined();
      // Same id under another model name is another instance.
      expect(await new s.adapter('RefreshToken').find(id)).toBeUndefined();
    });

    test('upsert replaces an instance (and clears consumed)', async () => {
      const rt = new s.adapter('RefreshToken');
      const id = uniq('rt');
      await rt.upsert(id, { jti: id, grantId: 'g1', accountId: 'a' }, 60);
      await rt.consume(id);
      await rt.upsert(id, { jti: id, grantId: 'g1', accountId: 'b' }, 60);
      const found = await rt.find(id);
      expect(found?.accountId).toBe('b');
      expect(found?.consumed).toBeUndefined();
    });

    test('instances without expiresIn persist; arbitrary model names work (SiteChoice, Client)', async () => {
      const client = new s.adapter('Client');
      const id = uniq('client');
      await client.upsert(id, { client_id: id, redirect_uris: ['http://127.0.0.1/cb'] } as AdapterPayload);
      expect((await client.find(id))?.client_id).toBe(id);
      const choice = new s.adapter('SiteChoice');
      await choice.upsert('grant-x', { siteId: 'demo' } as AdapterPayload, 60);
      expect(await choice.find('grant-x')).toEqual({ siteId: 'demo' });
    });

    test('expiry: an instance is gone after expiresIn seconds', async () => {
      const code = new s.adapter('AuthorizationCode');
      const session = new s.adapter('Session');
      const id = uniq('code');
      const sid = uniq('sess');
      await code.upsert(id, { jti: id, grantId: uniq('g') }, 1);
      await session.upsert(sid, { jti: sid, uid: uniq('uid') }, 1);
      expect(await code.find(id)).toBeDefined();
      await sleep(2100);
      expect(await code.find(id)).toBeUndefined();
      expect(await session.find(sid)).toBeUndefined();
    });

    test('consume marks the instance consumed (epoch seconds); a second consume is invalid_grant', async () => {
      const code = new s.adapter('AuthorizationCode');
      const id = uniq('code');
      await code.upsert(id, { jti: id, grantId: uniq('g') }, 60);
      const before = Math.floor(Date.now() / 1000);
      await code.consume(id);
      const found = await code.find(id);
      expect(typeof found?.consumed).toBe('number');
      expect(found!.consumed as number).toBeGreaterThanOrEqual(before);
      await expect(code.consume(id)).rejects.toBeInstanceOf(errors.InvalidGrant);
      await expect(new s.other('AuthorizationCode').consume(id)).rejects.toBeInstanceOf(errors.InvalidGrant);
    });

    test('consume of an absent code is invalid_grant and creates nothing', async () => {
      const code = new s.adapter('AuthorizationCode');
      const id = uniq('ghost');
      await expect(code.consume(id)).rejects.toBeInstanceOf(errors.InvalidGrant);
      expect(await code.find(id)).toBeUndefined();
    });

    test('destroy removes one instance', async () => {
      const at = new s.adapter('AccessToken');
      const [a, b] = [uniq('at'), uniq('at')];
      const grantId = uniq('g');
      await at.upsert(a, { jti: a, grantId }, 60);
      await at.upsert(b, { jti: b, grantId }, 60);
      await new s.other('AccessToken').destroy(a);
      expect(await at.find(a)).toBeUndefined();
      expect(await at.find(b)).toBeDefined();
      const sess = new s.adapter('Session');
      const sid = uniq('sess');
      const uid = uniq('uid');
      await sess.upsert(sid, { jti: sid, uid }, 60);
      await sess.destroy(sid);
      expect(await sess.findByUid(uid)).toBeUndefined();
    });

    test('revokeByGrantId removes that grant’s instances of that model only', async () => {
      const at = new s.adapter('AccessToken');
      const rt = new s.adapter('RefreshToken');
      const [g1, g2] = [uniq('g'), uniq('g')];
      const ids = Array.from({ length: 5 }, () => uniq('at'));
      for (const id of ids) await at.upsert(id, { jti: id, grantId: g1 }, 60);
      const keep = uniq('at');
      await at.upsert(keep, { jti: keep, grantId: g2 }, 60);
      const rtId = uniq('rt');
      await rt.upsert(rtId, { jti: rtId, grantId: g1 }, 60);

      await new s.other('AccessToken').revokeByGrantId(g1);
      for (const id of ids) expect(await at.find(id)).toBeUndefined();
      expect(await at.find(keep)).toBeDefined();
      expect(await rt.find(rtId)).toBeDefined();
      await rt.revokeByGrantId(g1);
      expect(await rt.find(rtId)).toBeUndefined();
      // Revoking an unknown grant is a no-op.
      await expect(at.revokeByGrantId(uniq('none'))).resolves.toBeUndefined();
    });

    test('findByUid (Session) and findByUserCode (DeviceCode)', async () => {
      const sess = new s.adapter('Session');
      const sid = uniq('sess');
      const uid = uniq('uid');
      await sess.upsert(sid, { jti: sid, uid, accountId: 'u1' }, 60);
      expect((await new s.other('Session').findByUid(uid))?.accountId).toBe('u1');
      expect(await sess.findByUid(uniq('nope'))).toBeUndefined();
      // Saved again under a new uid: only the new uid finds it.
      const uid2 = uniq('uid');
      await sess.upsert(sid, { jti: sid, uid: uid2, accountId: 'u1' }, 60);
      expect(await sess.findByUid(uid)).toBeUndefined();
      expect((await sess.findByUid(uid2))?.uid).toBe(uid2);

      const dc = new s.adapter('DeviceCode');
      const id = uniq('dc');
      const userCode = uniq('ABCD');
      await dc.upsert(id, { jti: id, userCode, clientId: 'c' }, 60);
      expect((await dc.findByUserCode(userCode))?.clientId).toBe('c');
      expect(await dc.findByUserCode(uniq('nope'))).toBeUndefined();
    });

    test('concurrency: 50 parallel consumes of one code from two connections → exactly one wins', async () => {
      const id = uniq('code');
      await new s.adapter('AuthorizationCode').upsert(id, { jti: id, grantId: uniq('g') }, 60);
      const attempts = Array.from({ length: 50 }, (_, i) =>
        new (i % 2 ? s.other : s.adapter)('AuthorizationCode').consume(id),
      );
      const results = await Promise.allSettled(attempts);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(rejected).toHaveLength(49);
      for (const r of rejected) expect(r.reason).toBeInstanceOf(errors.InvalidGrant);
    });

    test('revokeByGrantId removes every token of a grant written from both connections', async () => {
      const grantId = uniq('g');
      const ids = Array.from({ length: 30 }, () => uniq('at'));
      await Promise.all(
        ids.map((id, i) => new (i % 2 ? s.other : s.adapter)('AccessToken').upsert(id, { jti: id, grantId }, 60)),
      );
      const at = new s.adapter('AccessToken');
      await new s.other('AccessToken').revokeByGrantId(grantId);
      const left = await Promise.all(ids.map((id) => at.find(id)));
      expect(left.filter(Boolean)).toHaveLength(0);
    });
    describe('DESIGN D3 refresh rotation (adapters/rotation.ts)', () => {
      const policy: RotationPolicy = { graceSeconds: 30, tombstoneSeconds: 3600, keepTombstones: 3 };
      const live = async (grantId: string) => {
        const id = uniq('rt');
        await new s.adapter('RefreshToken').upsert(id, { jti: id, grantId, accountId: 'u1' }, 600);
        return id;
      };

      test('rotation consumes the old token and saves the successor in one step', async () => {
        const grantId = uniq('g');
        const old = await live(grantId);
        const next = uniq('rt');
        const rt = new s.adapter('RefreshToken');
        expect(
          (await rt.rotateRefreshToken(old, next, { jti: next, grantId, accountId: 'u1' }, 600, policy)).result,
        ).toBe('rotated');
        expect(typeof (await new s.other('RefreshToken').find(old))?.consumed).toBe('number');
        expect((await new s.other('RefreshToken').find(next))?.consumed).toBeUndefined();
      });

      test('within the grace window the same successor and nothing new (issue #25 finding 5); without a window → reused; absent → gone; nothing written then', async () => {
        const grantId = uniq('g');
        const old = await live(grantId);
        const [n1, n2, n3, n4] = [uniq('rt'), uniq('rt'), uniq('rt'), uniq('rt')];
        const rt = new s.adapter('RefreshToken');
        expect(await rt.rotateRefreshToken(old, n1, { jti: n1, grantId }, 600, policy)).toEqual({ result: 'rotated' });
        expect(
          await new s.other('RefreshToken').rotateRefreshToken(old, n2, { jti: n2, grantId }, 600, policy),
        ).toEqual({ result: 'grace', successor: { refreshToken: n1 } });
        expect(
          (await rt.rotateRefreshToken(old, n3, { jti: n3, grantId }, 600, { ...policy, graceSeconds: 0 })).result,
        ).toBe('reused');
        expect((await rt.rotateRefreshToken(uniq('ghost'), n4, { jti: n4, grantId }, 600, policy)).result).toBe('gone');
        expect(await rt.find(n1)).toBeDefined();
        expect(await rt.find(n2)).toBeUndefined();
        expect(await rt.find(n3)).toBeUndefined();
        expect(await rt.find(n4)).toBeUndefined();
        // The recorded successor revoked meanwhile: the replay finds nothing to answer, writes nothing.
        await rt.destroy(n1);
        expect((await rt.rotateRefreshToken(old, n2, { jti: n2, grantId }, 600, policy)).result).toBe('gone');
        expect(await rt.find(n2)).toBeUndefined();
      });

      test('the access token saved along is written with the rotation, and only when the rotation is', async () => {
        const grantId = uniq('g');
        const old = await live(grantId);
        const [n1, n2, n3] = [uniq('rt'), uniq('rt'), uniq('rt')];
        const [a1, a2, a3, a4] = [uniq('at'), uniq('at'), uniq('at'), uniq('at')];
        const along = (id: string, g = grantId) => ({
          model: 'AccessToken',
          id,
          payload: { jti: id, grantId: g, accountId: 'u1' },
          expiresIn: 600,
        });
        const rt = new s.adapter('RefreshToken');
        const at = new s.other('AccessToken');
        expect((await rt.rotateRefreshToken(old, n1, { jti: n1, grantId }, 600, policy, along(a1))).result).toBe(
          'rotated',
        );
        expect(await at.find(a1)).toMatchObject({ jti: a1, grantId });
        // A replay within the window: the first access token while it is stored, nothing saved.
        const replay = await rt.rotateRefreshToken(old, n2, { jti: n2, grantId }, 600, policy, along(a2));
        expect(replay).toMatchObject({
          result: 'grace',
          successor: { refreshToken: n1, accessToken: { id: a1, payload: { jti: a1, grantId } } },
        });
        expect(await at.find(a2)).toBeUndefined();
        // Once that access token is gone, the one saved along takes its place, recorded for the next replay.
        await at.destroy(a1);
        const again = await rt.rotateRefreshToken(old, n2, { jti: n2, grantId }, 600, policy, along(a2));
        expect(again).toMatchObject({ result: 'grace', successor: { refreshToken: n1, accessToken: { id: a2 } } });
        expect(await at.find(a2)).toMatchObject({ jti: a2, grantId });
        expect(
          (await rt.rotateRefreshToken(old, uniq('rt'), { jti: 'z', grantId }, 600, policy, along(uniq('at'))))
            .successor?.accessToken?.id,
        ).toBe(a2);
        expect(await rt.find(n2)).toBeUndefined();
        expect(
          (await rt.rotateRefreshToken(old, n3, { jti: n3, grantId }, 600, { ...policy, graceSeconds: 0 }, along(a3)))
            .result,
        ).toBe('reused');
        expect(
          (await rt.rotateRefreshToken(uniq('ghost'), uniq('rt'), { jti: 'x', grantId }, 600, policy, along(a4)))
            .result,
        ).toBe('gone');
        expect(await at.find(a3)).toBeUndefined();
        expect(await at.find(a4)).toBeUndefined();
        // Revoking the grant removes the access token saved along, as one saved by upsert.
        await at.revokeByGrantId(grantId);
        expect(await at.find(a1)).toBeUndefined();
        // An instance of another grant (another Redis slot) is saved too.
        const other = uniq('g');
        const a5 = uniq('at');
        expect(
          (await rt.rotateRefreshToken(n1, uniq('rt'), { jti: 'y', grantId }, 600, policy, along(a5, other))).result,
        ).toBe('rotated');
        expect(await at.find(a5)).toMatchObject({ jti: a5, grantId: other });
      });

      test("the instance saved `also` (the access token's tombstone) is written exactly when the access token is", async () => {
        const grantId = uniq('g');
        const old = await live(grantId);
        const tomb = new s.other('AccessTokenTombstone');
        const at = new s.other('AccessToken');
        const along = (id: string) => ({
          model: 'AccessToken',
          id,
          payload: { jti: id, grantId, accountId: 'u1', clientId: 'c1' },
          expiresIn: 600,
          also: { model: 'AccessTokenTombstone', id: `t-${id}`, payload: { clientId: 'c1' }, expiresIn: 900 },
        });
        const rt = new s.adapter('RefreshToken');
        const [a1, a2, a3, a4] = [uniq('at'), uniq('at'), uniq('at'), uniq('at')];
        const n1 = uniq('rt');
        expect((await rt.rotateRefreshToken(old, n1, { jti: n1, grantId }, 600, policy, along(a1))).result).toBe(
          'rotated',
        );
        expect(await tomb.find(`t-${a1}`)).toMatchObject({ clientId: 'c1' });
        // A replay while the first access token is stored saves neither.
        expect(
          (await rt.rotateRefreshToken(old, uniq('rt'), { jti: 'r', grantId }, 600, policy, along(a2))).result,
        ).toBe('grace');
        expect(await at.find(a2)).toBeUndefined();
        expect(await tomb.find(`t-${a2}`)).toBeUndefined();
        // Once it is gone, the replay saves the new access token, and its tombstone with it.
        await at.destroy(a1);
        expect(
          (await rt.rotateRefreshToken(old, uniq('rt'), { jti: 'r', grantId }, 600, policy, along(a3))).successor
            ?.accessToken?.id,
        ).toBe(a3);
        expect(await tomb.find(`t-${a3}`)).toMatchObject({ clientId: 'c1' });
        // A token that is gone: nothing written.
        expect(
          (await rt.rotateRefreshToken(uniq('ghost'), uniq('rt'), { jti: 'x', grantId }, 600, policy, along(a4)))
            .result,
        ).toBe('gone');
        expect(await tomb.find(`t-${a4}`)).toBeUndefined();
      });

      test('10 parallel rotations of one token from two connections inside the window all succeed, with one successor', async () => {
        const grantId = uniq('g');
        const old = await live(grantId);
        const ids = Array.from({ length: 10 }, () => uniq('rt'));
        const results = await Promise.all(
          ids.map((id, i) =>
            new (i % 2 ? s.other : s.adapter)('RefreshToken').rotateRefreshToken(
              old,
              id,
              { jti: id, grantId },
              600,
              policy,
            ),
          ),
        );
        expect(results.filter((r) => r.result === 'rotated')).toHaveLength(1);
        expect(results.filter((r) => r.result === 'grace')).toHaveLength(9);
        // One chain: every replay names the one successor that was saved.
        const saved = ids.filter((_id, i) => results[i]!.result === 'rotated');
        for (const r of results) if (r.result === 'grace') expect(r.successor?.refreshToken).toBe(saved[0]);
        const rt = new s.adapter('RefreshToken');
        expect((await Promise.all(ids.map((id) => rt.find(id)))).filter(Boolean)).toHaveLength(1);
      });

      test('a chain keeps only `keepTombstones` tombstones: storage grows with grants, not refreshes', async () => {
        const grantId = uniq('g');
        const chain = [await live(grantId)];
        const rt = new s.adapter('RefreshToken');
        // No grace window: every tombstone is past it at once (inside it they are all kept, below).
        const outside = { ...policy, graceSeconds: 0 };
        for (let i = 0; i < 8; i++) {
          const next = uniq('rt');
          expect((await rt.rotateRefreshToken(chain.at(-1)!, next, { jti: next, grantId }, 600, outside)).result).toBe(
            'rotated',
          );
          chain.push(next);
        }
        const found = await Promise.all(chain.map((id) => rt.find(id)));
        // 9 tokens: the live one, the 3 newest tombstones (still consumed), the rest gone.
        expect(found.map((f) => (f ? (f.consumed ? 'tombstone' : 'live') : 'gone'))).toEqual([
          'gone',
          'gone',
          'gone',
          'gone',
          'gone',
          'tombstone',
          'tombstone',
          'tombstone',
          'live',
        ]);
        await rt.revokeByGrantId(grantId);
        expect((await Promise.all(chain.map((id) => rt.find(id)))).filter(Boolean)).toHaveLength(0);
      });

      test('tombstones inside the grace window are kept beyond `keepTombstones`: one grant, many chains (devices), each retry answered', async () => {
        const grantId = uniq('g');
        const rt = new s.adapter('RefreshToken');
        // Eight chains of one grant (a consent extends the user's grant), each rotated once: eight
        // tombstones inside the window, more than keepTombstones (3).
        const rotated: Array<{ old: string; next: string }> = [];
        for (let i = 0; i < 8; i++) {
          const old = await live(grantId);
          const next = uniq('rt');
          expect((await rt.rotateRefreshToken(old, next, { jti: next, grantId }, 600, policy)).result).toBe('rotated');
          rotated.push({ old, next });
        }
        // The first chain's client lost its answer and sends the old token again: the same successor.
        for (const { old, next } of rotated) {
          const again = await rt.rotateRefreshToken(old, uniq('rt'), { jti: 'x', grantId }, 600, policy);
          expect({ result: again.result, successor: again.successor?.refreshToken }).toEqual({
            result: 'grace',
            successor: next,
          });
        }
        await rt.revokeByGrantId(grantId);
      });

      test('a tombstone past the grace window keeps only what reuse detection reads', async () => {
        const grantId = uniq('g');
        const rt = new s.adapter('RefreshToken');
        const first = uniq('rt');
        const full = {
          jti: first,
          kind: 'RefreshToken',
          iat: 1,
          exp: 4102444800,
          clientId: 'c',
          accountId: 'u1',
          grantId,
          scope: 'openid',
          resource: 'https://x',
          sessionUid: 'sess',
          gty: 'authorization_code',
        };
        await rt.upsert(first, full, 600);
        const [n1, n2] = [uniq('rt'), uniq('rt')];
        const noGrace = { ...policy, graceSeconds: 0 };
        await rt.rotateRefreshToken(first, n1, { ...full, jti: n1 }, 600, noGrace);
        expect((await rt.find(first))?.resource).toBe('https://x'); // consumed this second: not yet past
        await sleep(1100);
        await rt.rotateRefreshToken(n1, n2, { ...full, jti: n2 }, 600, noGrace);
        const tomb = await new s.other('RefreshToken').find(first);
        expect(tomb).toMatchObject({
          jti: first,
          kind: 'RefreshToken',
          exp: 4102444800,
          clientId: 'c',
          accountId: 'u1',
          grantId,
          scope: 'openid',
        });
        expect(typeof tomb?.consumed).toBe('number');
        expect(tomb?.resource).toBeUndefined();
        expect(tomb?.sessionUid).toBeUndefined();
      });
    });
  });
}
