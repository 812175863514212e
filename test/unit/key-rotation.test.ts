/**
 * DESIGN D6 rotation rules (src/oauth/key-rotation.ts), one decision per row: which orders are
 * refused and why, and when a key is in JWKS. Schedule: JWKS cached 600 s, keys re-read every 10 s,
 * id_tokens live 600 s.
 */
import {
  activatableAt,
  decideActivate,
  decideRetire,
  isPublished,
  KeyRotationError,
  type StoredKey,
} from '../../src/oauth/key-rotation.js';

const S = { jwksMaxAge: 600, refreshSeconds: 10, idTokenTtl: 600 };
const T = 1_000_000;
const key = (kid: string, state: StoredKey['state'], extra: Partial<StoredKey> = {}): StoredKey => ({
  kid,
  state,
  jwk: {} as StoredKey['jwk'],
  publishedAt: T,
  ...extra,
});
const old = key('old', 'active', { publishedAt: T - 5000, activatedAt: T - 5000 });

describe('DESIGN D6 activate', () => {
  test.each([
    [
      'a key published 609 s ago (cache lifetime + refresh not over)',
      [old, key('new', 'published')],
      'new',
      T + 609,
      /may sign from .* \(in 1 s\)/,
    ],
    ['an unknown kid', [old], 'nope', T, /no key nope/],
    ['the active key', [old], 'old', T, /already active/],
    [
      'a retired key',
      [old, key('gone', 'retired', { activatedAt: T - 9000, signedUntil: T - 4000 })],
      'gone',
      T,
      /retired; add a new key/,
    ],
  ])('refused: %s', (_name, keys, kid, now, reason) => {
    expect(() => decideActivate(keys, kid, now, S)).toThrow(KeyRotationError);
    expect(() => decideActivate(keys, kid, now, S)).toThrow(reason);
  });

  test('allowed once jwksMaxAge + refreshSeconds have passed; names the key it retires', () => {
    expect(activatableAt(key('new', 'published'), S)).toBe(T + 610);
    expect(decideActivate([old, key('new', 'published')], 'new', T + 610, S)).toBe('old');
  });

  test('the very first key of a store may sign at once (nothing was ever signed or cached)', () => {
    expect(decideActivate([key('first', 'published')], 'first', T, S)).toBeUndefined();
  });
});

describe('DESIGN D6 retire', () => {
  test('the active key only with --no-active (it would stop id_tokens)', () => {
    expect(() => decideRetire([old], 'old')).toThrow(/is the active key/);
    expect(() => decideRetire([old], 'old', true)).not.toThrow();
  });
  test('a published key that never signed; not a retired one', () => {
    expect(() => decideRetire([key('p', 'published')], 'p')).not.toThrow();
    expect(() => decideRetire([key('r', 'retired')], 'r')).toThrow(/already retired/);
  });
});

describe('DESIGN D6 what JWKS publishes', () => {
  const retired = key('r', 'retired', { activatedAt: T - 1000, signedUntil: T });
  test.each([
    ['published', key('p', 'published'), T, true],
    ['active', old, T, true],
    ['retired, its last id_token still valid', retired, T + 599, true],
    ['retired, its last id_token expired', retired, T + 600, false],
    ['retired without ever signing', key('n', 'retired', { signedUntil: T }), T, false],
  ])('%s → %s', (_name, k, now, published) => {
    expect(isPublished(k, now, S)).toBe(published);
  });
});
