/**
 * DESIGN D3 rotation wrapper (src/oauth/refresh-rotation.ts), issue #15: inside a token request the
 * successor's rotation waits for the access token and is written with it; a rotation left waiting
 * when the provider has answered is written by `settleRefreshRotation`; a lost race writes nothing.
 * The request is what oidc-provider's `Provider.ctx` answers (here: a stand-in object).
 */
import Database from 'better-sqlite3';
import Provider from 'oidc-provider';
import type { Context } from 'koa';
import { sqliteAdapterFactory } from '../../adapters/sqlite.js';
import { settleRefreshRotation, withRefreshRotation } from '../../src/oauth/refresh-rotation.js';

const policy = { graceSeconds: 30, tombstoneSeconds: 3600, keepTombstones: 3 };
let request: object | undefined;
const original = Object.getOwnPropertyDescriptor(Provider, 'ctx');

beforeAll(() => {
  Object.defineProperty(Provider, 'ctx', { configurable: true, get: () => request });
});
afterAll(() => {
  if (original) Object.defineProperty(Provider, 'ctx', original);
});

function setup() {
  const Plain = sqliteAdapterFactory(new Database(':memory:'));
  const Wrapped = withRefreshRotation(Plain, policy);
  return {
    plain: { rt: new Plain('RefreshToken'), at: new Plain('AccessToken') },
    rt: new Wrapped('RefreshToken'),
    at: new Wrapped('AccessToken'),
  };
}
const token = (jti: string) => ({ jti, grantId: 'g1', accountId: 'u1' });

describe('refresh rotation wrapper', () => {
  afterEach(() => {
    request = undefined;
  });

  it('writes the successor together with the access token, not before', async () => {
    const s = setup();
    await s.rt.upsert('old', token('old'), 600);
    request = {};
    await s.rt.consume('old');
    await s.rt.upsert('new', token('new'), 600);
    expect(await s.plain.rt.find('new')).toBeUndefined();
    expect((await s.plain.rt.find('old'))?.consumed).toBeUndefined();
    await s.at.upsert('at1', token('at1'), 60);
    expect(await s.plain.rt.find('new')).toMatchObject({ jti: 'new' });
    expect(typeof (await s.plain.rt.find('old'))?.consumed).toBe('number');
    expect(await s.plain.at.find('at1')).toMatchObject({ jti: 'at1' });
  });

  it('settleRefreshRotation writes a rotation still waiting after the provider answered', async () => {
    const s = setup();
    await s.rt.upsert('old', token('old'), 600);
    const ctx = {};
    await settleRefreshRotation(ctx as Context, async () => {
      request = ctx;
      await s.rt.consume('old');
      await s.rt.upsert('new', token('new'), 600);
      request = undefined;
    });
    expect(await s.plain.rt.find('new')).toMatchObject({ jti: 'new' });
  });

  it('a rotation that lost its race refuses the request and writes neither token', async () => {
    const s = setup();
    await s.rt.upsert('old', token('old'), 600);
    await s.plain.rt.destroy('old'); // revoked meanwhile
    request = {};
    await s.rt.consume('old');
    await s.rt.upsert('new', token('new'), 600);
    await expect(s.at.upsert('at1', token('at1'), 60)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await s.plain.rt.find('new')).toBeUndefined();
    expect(await s.plain.at.find('at1')).toBeUndefined();
  });
});
