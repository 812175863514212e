/**
 * The SQLite adapter's schema migration (adapters/sqlite.ts `createOidcTable`, issue #15): a data
 * file written by an earlier version (two grant indexes, with or without `rotated_seq`) is opened
 * by this one; its indexes are replaced by `oidc_models_by_grant` and its rows keep working: found,
 * rotated (DESIGN D3, tombstone order continued, older tombstones trimmed first), revoked by grant.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sqliteAdapterFactory } from '../../adapters/sqlite.js';

/** The adapter table as the version before issue #14 created it (no rotation order). */
const ISSUE_13_SCHEMA = `
  CREATE TABLE oidc_models (
    model TEXT NOT NULL, id TEXT NOT NULL, payload TEXT NOT NULL, grant_id TEXT, uid TEXT, user_code TEXT,
    expires_at INTEGER, consumed_at INTEGER, PRIMARY KEY (model, id)
  ) WITHOUT ROWID;
  CREATE INDEX oidc_models_grant ON oidc_models (grant_id) WHERE grant_id IS NOT NULL;
  CREATE INDEX oidc_models_uid ON oidc_models (uid) WHERE uid IS NOT NULL;
  CREATE INDEX oidc_models_user_code ON oidc_models (user_code) WHERE user_code IS NOT NULL;
  CREATE INDEX oidc_models_expiry ON oidc_models (expires_at) WHERE expires_at IS NOT NULL;`;

/** ... and as the version of issue #14 did (rotation order and a tombstone index). */
const ISSUE_14_SCHEMA = `${ISSUE_13_SCHEMA}
  ALTER TABLE oidc_models ADD COLUMN rotated_seq INTEGER;
  CREATE INDEX oidc_models_tombstones ON oidc_models (grant_id, rotated_seq) WHERE model = 'RefreshToken' AND consumed_at IS NOT NULL;`;

const policy = { graceSeconds: 0, tombstoneSeconds: 3600, keepTombstones: 2 };
const now = () => Math.floor(Date.now() / 1000);

describe.each([
  ['issue #13', ISSUE_13_SCHEMA],
  ['issue #14', ISSUE_14_SCHEMA],
])('a SQLite file of the %s version', (_version, schema) => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cg-schema-'));
    file = path.join(dir, 'oidc.db');
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    old.exec(schema);
    const insert = old.prepare(
      `INSERT INTO oidc_models (model, id, payload, grant_id, uid, user_code, expires_at, consumed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const t = now();
    const row = (
      model: string,
      id: string,
      grantId: string | null,
      extra: { uid?: string; consumed?: number; expires?: number } = {},
    ) =>
      insert.run(
        model,
        id,
        JSON.stringify({ jti: id, kind: model, grantId: grantId ?? undefined, uid: extra.uid, accountId: 'u1' }),
        grantId,
        extra.uid ?? null,
        null,
        extra.expires ?? t + 3600,
        extra.consumed ?? null,
      );
    // Grant g1: a live refresh token, two tombstones of the old shape (consumed, no rotation
    // order), an access token. Grant g2: one live refresh token. A session found by uid.
    row('RefreshToken', 'rt-live', 'g1');
    row('RefreshToken', 'rt-old-1', 'g1', { consumed: t - 20 });
    row('RefreshToken', 'rt-old-2', 'g1', { consumed: t - 10 });
    row('AccessToken', 'at-1', 'g1');
    row('RefreshToken', 'rt-other', 'g2');
    row('Session', 'sess-1', null, { uid: 'uid-1' });
    old.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const indexes = (db: Database.Database) =>
    (
      db
        .prepare(
          `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'oidc_models' AND sql IS NOT NULL ORDER BY name`,
        )
        .all() as { name: string }[]
    ).map((r) => r.name);

  test('opening it replaces the grant indexes by one and keeps every row working', async () => {
    const db = new Database(file);
    const Adapter = sqliteAdapterFactory(db);
    expect(indexes(db)).toEqual([
      'oidc_models_by_grant',
      'oidc_models_expiry',
      'oidc_models_uid',
      'oidc_models_user_code',
    ]);

    const rt = new Adapter('RefreshToken');
    expect(await rt.find('rt-live')).toMatchObject({ jti: 'rt-live', grantId: 'g1' });
    expect(await rt.find('rt-old-1')).toMatchObject({ jti: 'rt-old-1', consumed: expect.any(Number) });
    expect(await new Adapter('Session').findByUid('uid-1')).toMatchObject({ jti: 'sess-1' });

    // Rotating the old live token: a tombstone with rotation order 1; the two tombstones of the old
    // shape (no order) are the oldest, so with keepTombstones 2 the first rotation drops both.
    expect(
      (
        await rt.rotateRefreshToken(
          'rt-live',
          'rt-new-1',
          { jti: 'rt-new-1', grantId: 'g1', accountId: 'u1' },
          3600,
          policy,
        )
      ).result,
    ).toBe('rotated');
    expect(await rt.find('rt-old-1')).toBeUndefined();
    expect(await rt.find('rt-old-2')).toBeUndefined();
    expect(await rt.find('rt-live')).toMatchObject({ consumed: expect.any(Number) });
    expect(
      (
        await rt.rotateRefreshToken(
          'rt-new-1',
          'rt-new-2',
          { jti: 'rt-new-2', grantId: 'g1', accountId: 'u1' },
          3600,
          policy,
        )
      ).result,
    ).toBe('rotated');
    expect(
      (
        await rt.rotateRefreshToken(
          'rt-new-2',
          'rt-new-3',
          { jti: 'rt-new-3', grantId: 'g1', accountId: 'u1' },
          3600,
          policy,
        )
      ).result,
    ).toBe('rotated');
    const order = db
      .prepare(
        `SELECT id, rotated_seq FROM oidc_models WHERE grant_id = 'g1' AND model = 'RefreshToken' AND consumed_at IS NOT NULL ORDER BY rotated_seq`,
      )
      .all();
    expect(order).toEqual([
      { id: 'rt-new-1', rotated_seq: 2 },
      { id: 'rt-new-2', rotated_seq: 3 },
    ]);
    // Reuse of a tombstone outside the (zero) grace window is still detected.
    expect(
      (await rt.rotateRefreshToken('rt-new-2', 'rt-x', { jti: 'rt-x', grantId: 'g1', accountId: 'u1' }, 3600, policy))
        .result,
    ).toBe('reused');

    // revokeByGrantId reaches rows written before and after the migration, of that grant only.
    await rt.revokeByGrantId('g1');
    expect(await rt.find('rt-new-3')).toBeUndefined();
    expect(await rt.find('rt-new-2')).toBeUndefined();
    expect(await new Adapter('AccessToken').find('at-1')).toMatchObject({ jti: 'at-1' });
    await new Adapter('AccessToken').revokeByGrantId('g1');
    expect(await new Adapter('AccessToken').find('at-1')).toBeUndefined();
    expect(await rt.find('rt-other')).toMatchObject({ jti: 'rt-other' });
    db.close();
  });

  test('opening it again (a second process, a restart) changes nothing', () => {
    const a = new Database(file);
    sqliteAdapterFactory(a);
    const b = new Database(file);
    sqliteAdapterFactory(b);
    expect(indexes(b)).toEqual(indexes(a));
    expect((b.prepare('SELECT count(*) AS n FROM oidc_models').get() as { n: number }).n).toBe(6);
    a.close();
    b.close();
  });
});

describe('a tombstone’s stored life (DESIGN D3)', () => {
  test('is the tombstone window, or the token’s own expiry when that comes first', async () => {
    const db = new Database(':memory:');
    const rt = new (sqliteAdapterFactory(db))('RefreshToken');
    const expiresAt = (id: string) =>
      (
        db.prepare(`SELECT expires_at FROM oidc_models WHERE model = 'RefreshToken' AND id = ?`).get(id) as {
          expires_at: number | null;
        }
      ).expires_at;
    const t = now();
    await rt.upsert('short', { jti: 'short', grantId: 'g1' }, 600);
    await rt.upsert('long', { jti: 'long', grantId: 'g2' }, 86_400);
    await rt.upsert('endless', { jti: 'endless', grantId: 'g3' });
    const window = { graceSeconds: 30, tombstoneSeconds: 3600, keepTombstones: 2 };
    for (const id of ['short', 'long', 'endless']) {
      expect(
        (await rt.rotateRefreshToken(id, `${id}-2`, { jti: `${id}-2`, grantId: `g-${id}` }, 600, window)).result,
      ).toBe('rotated');
    }
    expect(expiresAt('short')).toBeGreaterThanOrEqual(t + 600);
    expect(expiresAt('short')).toBeLessThanOrEqual(t + 601);
    expect(expiresAt('long')).toBeGreaterThanOrEqual(t + 3600);
    expect(expiresAt('long')).toBeLessThanOrEqual(t + 3601);
    expect(expiresAt('endless')).toBeGreaterThanOrEqual(t + 3600);
    expect(expiresAt('endless')).toBeLessThanOrEqual(t + 3601);
    // A grace window longer than the tombstone window keeps the tombstone for the grace window.
    await rt.upsert('graceful', { jti: 'graceful', grantId: 'g4' }, 86_400);
    expect(
      (
        await rt.rotateRefreshToken('graceful', 'graceful-2', { jti: 'graceful-2', grantId: 'g4' }, 600, {
          ...window,
          graceSeconds: 7200,
        })
      ).result,
    ).toBe('rotated');
    expect(expiresAt('graceful')).toBeGreaterThanOrEqual(t + 7200);
    expect(expiresAt('graceful')).toBeLessThanOrEqual(t + 7201);
    // An expired token is gone, not rotated, and stays as it was.
    db.prepare(`UPDATE oidc_models SET expires_at = ? WHERE id = 'long-2'`).run(t - 1);
    expect(
      (await rt.rotateRefreshToken('long-2', 'long-3', { jti: 'long-3', grantId: 'g2' }, 600, window)).result,
    ).toBe('gone');
    expect(expiresAt('long-2')).toBe(t - 1);
    expect(await rt.find('long-3')).toBeUndefined();
    db.close();
  });
});

describe('slim token rows (issue #15)', () => {
  const stored = (db: Database.Database, model: string, id: string) =>
    JSON.parse(
      (db.prepare(`SELECT payload FROM oidc_models WHERE model = ? AND id = ?`).get(model, id) as { payload: string })
        .payload,
    ) as Record<string, unknown>;

  test('access and refresh tokens and codes are stored without jti, kind and grantId, and read back with them', async () => {
    const db = new Database(':memory:');
    const Adapter = sqliteAdapterFactory(db);
    for (const model of ['AccessToken', 'RefreshToken', 'AuthorizationCode']) {
      const payload = {
        jti: `${model}-1`,
        kind: model,
        grantId: 'g1',
        accountId: 'u1',
        clientId: 'c1',
        scope: 'openid',
        iat: 1,
        exp: now() + 600,
      };
      await new Adapter(model).upsert(`${model}-1`, payload, 600);
      expect(stored(db, model, `${model}-1`)).toEqual({
        accountId: 'u1',
        clientId: 'c1',
        scope: 'openid',
        iat: 1,
        exp: payload.exp,
      });
      expect(await new Adapter(model).find(`${model}-1`)).toEqual(payload);
    }
    // Without a grant (client credentials, a code of no grant): no grantId comes back.
    await new Adapter('AccessToken').upsert('at-2', { jti: 'at-2', kind: 'AccessToken', clientId: 'c1' }, 600);
    expect(await new Adapter('AccessToken').find('at-2')).toEqual({ jti: 'at-2', kind: 'AccessToken', clientId: 'c1' });
    // Fields that do not match their row, and other models, are stored as they are.
    await new Adapter('AccessToken').upsert('at-3', { jti: 'other', kind: 'AccessToken', grantId: 'g1' }, 600);
    expect(stored(db, 'AccessToken', 'at-3')).toEqual({ jti: 'other', kind: 'AccessToken', grantId: 'g1' });
    await new Adapter('Grant').upsert('g1', { jti: 'g1', kind: 'Grant', accountId: 'u1' }, 600);
    expect(stored(db, 'Grant', 'g1')).toEqual({ jti: 'g1', kind: 'Grant', accountId: 'u1' });
    db.close();
  });

  test('a rotated and shrunk tombstone reads as jti, kind and grantId plus what reuse detection needs', async () => {
    const db = new Database(':memory:');
    const rt = new (sqliteAdapterFactory(db))('RefreshToken');
    const body = (jti: string) => ({
      jti,
      kind: 'RefreshToken',
      grantId: 'g1',
      accountId: 'u1',
      clientId: 'c1',
      scope: 'openid',
      iat: 1,
      exp: now() + 600,
      sessionUid: 's1',
    });
    await rt.upsert('rt-1', body('rt-1'), 600);
    // A row of an earlier version (full payload) is shrunk too.
    db.prepare(
      `INSERT INTO oidc_models (model, id, payload, grant_id, expires_at) VALUES ('RefreshToken', 'rt-old', ?, 'g1', ?)`,
    ).run(JSON.stringify(body('rt-old')), now() + 600);
    const window = { graceSeconds: 0, tombstoneSeconds: 3600, keepTombstones: 5 };
    expect((await rt.rotateRefreshToken('rt-old', 'rt-0', body('rt-0'), 600, window)).result).toBe('rotated');
    expect((await rt.rotateRefreshToken('rt-1', 'rt-2', body('rt-2'), 600, window)).result).toBe('rotated');
    // consumed_at < now - 0: push both tombstones into the past, then rotate once more to shrink them.
    db.prepare(`UPDATE oidc_models SET consumed_at = consumed_at - 10 WHERE consumed_at IS NOT NULL`).run();
    expect((await rt.rotateRefreshToken('rt-2', 'rt-3', body('rt-3'), 600, window)).result).toBe('rotated');
    for (const id of ['rt-old', 'rt-1']) {
      expect(stored(db, 'RefreshToken', id)).toEqual({
        iat: 1,
        exp: expect.any(Number),
        clientId: 'c1',
        accountId: 'u1',
        scope: 'openid',
        tombstone: true,
      });
      expect(await rt.find(id)).toEqual({
        jti: id,
        kind: 'RefreshToken',
        grantId: 'g1',
        iat: 1,
        exp: expect.any(Number),
        clientId: 'c1',
        accountId: 'u1',
        scope: 'openid',
        tombstone: true,
        consumed: expect.any(Number),
      });
    }
    db.close();
  });
});
