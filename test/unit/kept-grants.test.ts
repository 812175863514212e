/**
 * src/resource/kept-grants.ts: a grant read once is answered from memory only while its expiry is
 * more than GRANT_EXPIRY_MARGIN_S away; closer to it, the store decides at every request.
 */
import type Provider from 'oidc-provider';
import { GRANT_EXPIRY_MARGIN_S, KeptGrants } from '../../src/resource/kept-grants.js';

/** A provider whose `Grant.find` answers from `stored` and counts the reads. */
function fakeProvider(stored: Map<string, { clientId: string; accountId: string; exp: number; scope: string }>) {
  const reads: string[] = [];
  const provider = {
    Grant: {
      async find(id: string) {
        reads.push(id);
        const g = stored.get(id);
        return g && { clientId: g.clientId, accountId: g.accountId, exp: g.exp, getOIDCScope: () => g.scope };
      },
    },
  } as unknown as Provider;
  return { provider, reads };
}

describe('KeptGrants (UserInfo, issue #15)', () => {
  const t0 = 1_800_000_000;

  test('a grant read once is known without a store read while its expiry is beyond the margin', async () => {
    const stored = new Map([['g1', { clientId: 'c', accountId: 'u', exp: t0 + 3600, scope: 'openid email' }]]);
    const { provider, reads } = fakeProvider(stored);
    let now = t0 * 1000;
    const grants = new KeptGrants(provider, () => now);
    expect(grants.known('g1')).toBeUndefined();
    const read = await grants.read('g1');
    expect(read).toMatchObject({ clientId: 'c', accountId: 'u', scope: 'openid email', exp: t0 + 3600 });
    expect([...read!.scopes]).toEqual(['openid', 'email']);
    now = (t0 + 3600 - GRANT_EXPIRY_MARGIN_S - 1) * 1000;
    expect(grants.known('g1')).toBe(read);
    expect(reads).toEqual(['g1']);
  });

  test('within the margin of its expiry a kept grant is read again; gone from the store, it is forgotten', async () => {
    const stored = new Map([['g1', { clientId: 'c', accountId: 'u', exp: t0 + 3600, scope: 'openid' }]]);
    const { provider, reads } = fakeProvider(stored);
    let now = t0 * 1000;
    const grants = new KeptGrants(provider, () => now);
    await grants.read('g1');
    now = (t0 + 3600 - GRANT_EXPIRY_MARGIN_S) * 1000;
    expect(grants.known('g1')).toBeUndefined();
    stored.delete('g1');
    expect(await grants.read('g1')).toBeUndefined();
    now = t0 * 1000;
    expect(grants.known('g1')).toBeUndefined();
    expect(reads).toEqual(['g1', 'g1']);
  });

  test('a grant saved without an expiry stays known', async () => {
    const { provider } = fakeProvider(
      new Map([['g1', { clientId: 'c', accountId: 'u', exp: undefined as unknown as number, scope: 'openid' }]]),
    );
    const grants = new KeptGrants(provider, () => t0 * 1000);
    await grants.read('g1');
    expect(grants.known('g1')?.exp).toBe(Infinity);
  });
});
