/**
 * The one home of each domain rule (issue #9), at its edges: enrollment access at the expiry
 * instant (SPEC §2.4), the operator-role check (DESIGN D2/D5), loopback detection (RFC 8252 §7.3,
 * DESIGN D1 row 2) and the page-size clamp (platform/paging.ts).
 */
import { accessActive, rowAccessActive } from '../../src/platform/enrollments.js';
import { isOperator, OPERATOR_ROLES } from '../../src/platform/accounts.js';
import { isLoopbackHost, isLoopbackRedirectUri } from '../../src/http/loopback.js';
import { clampPageSize, MAX_ADMIN_PAGE_SIZE, MAX_PAGE_SIZE } from '../../src/platform/paging.js';

describe('accessActive: access ends at the expiry instant', () => {
  const expireDate = '2026-03-01T12:00:00.000Z';
  const at = (iso: string) => new Date(iso);

  test.each([
    ['one millisecond before', '2026-03-01T11:59:59.999Z', true],
    ['at the instant', '2026-03-01T12:00:00.000Z', false],
    ['one millisecond after', '2026-03-01T12:00:00.001Z', false],
  ])('%s', (_name, now, active) => {
    expect(accessActive({ expireDate, hasLifetimeAccess: false }, at(now))).toBe(active);
    expect(rowAccessActive({ expires_at: expireDate, lifetime_access: 0 }, at(now))).toBe(active);
  });

  test('an expiry written with an offset is compared as an instant, not as text', () => {
    // 13:00+01:00 is 12:00Z: a text comparison with "2026-03-01T12:30:00.000Z" would call it active.
    expect(
      accessActive(
        { expireDate: '2026-03-01T13:00:00+01:00', hasLifetimeAccess: false },
        at('2026-03-01T12:30:00.000Z'),
      ),
    ).toBe(false);
    expect(
      accessActive(
        { expireDate: '2026-03-01T13:00:00+01:00', hasLifetimeAccess: false },
        at('2026-03-01T11:30:00.000Z'),
      ),
    ).toBe(true);
  });

  test('lifetime access and no expiry are always active; lifetime wins over a past expiry', () => {
    const later = at('2099-01-01T00:00:00.000Z');
    expect(accessActive({ expireDate: null, hasLifetimeAccess: false }, later)).toBe(true);
    expect(accessActive({ expireDate: null, hasLifetimeAccess: true }, later)).toBe(true);
    expect(accessActive({ expireDate: expireDate, hasLifetimeAccess: true }, later)).toBe(true);
    expect(rowAccessActive({ expires_at: expireDate, lifetime_access: 1 }, later)).toBe(true);
  });

  test('an expiry that does not parse counts as expired (fail closed)', () => {
    expect(accessActive({ expireDate: 'not a date', hasLifetimeAccess: false }, at('2000-01-01T00:00:00.000Z'))).toBe(
      false,
    );
  });
});

describe('isOperator', () => {
  test.each([
    [['owner'], true],
    [['admin'], true],
    [['student', 'admin'], true],
    [['instructor', 'student'], false],
    [[], false],
    [['Owner', 'ADMIN'], false],
  ])('%j → %s', (roles, expected) => {
    expect(isOperator(roles)).toBe(expected);
  });

  test('the operator roles are owner and admin', () => {
    expect([...OPERATOR_ROLES].sort()).toEqual(['admin', 'owner']);
  });
});

describe('loopback', () => {
  test.each([
    ['127.0.0.1', true],
    ['[::1]', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['127.0.0.2', false],
    ['localhost.example.com', false],
    ['::1', false],
  ])('host %s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  test.each([
    ['http://127.0.0.1:8765/callback', true],
    ['http://127.0.0.1/callback', true],
    ['http://[::1]:9000/cb', true],
    ['http://localhost:3000/cb', true],
    ['http://LocalHost:3000/cb', true],
    ['https://127.0.0.1:8765/callback', false],
    ['http://127.0.0.1:8765/callback#frag', false],
    ['http://127.0.0.1:8765/callback#', false],
    ['http://user:pw@127.0.0.1:8765/callback', false],
    ['http://127.0.0.1.nip.io/callback', false],
    ['http://localhost.evil.test/cb', false],
    ['myapp://callback', false],
    ['not a uri', false],
  ])('redirect %s → %s', (uri, expected) => {
    expect(isLoopbackRedirectUri(uri)).toBe(expected);
  });
});

describe('clampPageSize', () => {
  test.each([
    [undefined, MAX_PAGE_SIZE, MAX_PAGE_SIZE],
    [Number.NaN, MAX_PAGE_SIZE, MAX_PAGE_SIZE],
    [Number.POSITIVE_INFINITY, MAX_PAGE_SIZE, MAX_PAGE_SIZE],
    [0, MAX_PAGE_SIZE, 1],
    [-5, MAX_PAGE_SIZE, 1],
    [1, MAX_PAGE_SIZE, 1],
    [2.9, MAX_PAGE_SIZE, 2],
    [MAX_PAGE_SIZE, MAX_PAGE_SIZE, MAX_PAGE_SIZE],
    [MAX_PAGE_SIZE + 1, MAX_PAGE_SIZE, MAX_PAGE_SIZE],
    [10_000, MAX_ADMIN_PAGE_SIZE, MAX_ADMIN_PAGE_SIZE],
    [50, 50, 50],
    [51, 50, 50],
  ])('%s under %s → %s', (requested, max, expected) => {
    expect(clampPageSize(requested, max)).toBe(expected);
  });
});
