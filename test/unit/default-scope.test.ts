/** DESIGN D3: the default scope set of an authorization request without `scope`. */
import { defaultScopeOf } from '../../src/oauth/default-scope.js';

describe('DESIGN D3 default scope (no scope parameter)', () => {
  test('is the registered scope reduced to identity and read scopes', () => {
    expect(defaultScopeOf('openid profile email account:read account:write')).toBe('openid profile email account:read');
    expect(defaultScopeOf('courses:read courses:write coupons:write')).toBe('courses:read');
  });
  test('is empty for a client without a registered scope (the request is left alone)', () => {
    expect(defaultScopeOf(undefined)).toBe('');
  });
});
