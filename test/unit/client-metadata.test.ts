/**
 * `clientMetadata` (src/domain/client-metadata.ts): a client's metadata read once per oidc-provider
 * `Client` instance (issue #15: `Client#metadata()` rebuilds a snake_case copy at every call).
 */
import Provider from 'oidc-provider';
import { clientMetadata } from '../../src/domain/client-metadata.js';
import { CLIENT_KIND_PROPERTY } from '../../src/domain/client-kinds.js';

describe('clientMetadata', () => {
  const provider = new Provider('http://127.0.0.1:9', {
    clients: [
      {
        client_id: 'c1',
        token_endpoint_auth_method: 'none',
        redirect_uris: ['http://127.0.0.1/cb'],
        [CLIENT_KIND_PROPERTY]: 'member',
      },
    ],
    extraClientMetadata: { properties: [CLIENT_KIND_PROPERTY] },
  });

  test('answers what Client#metadata() answers, read once per instance and frozen', async () => {
    const client = (await provider.Client.find('c1'))!;
    const first = clientMetadata(client);
    expect(first).toEqual(client.metadata());
    expect(first[CLIENT_KIND_PROPERTY]).toBe('member');
    expect(first.redirect_uris).toEqual(['http://127.0.0.1/cb']);
    expect(clientMetadata(client)).toBe(first);
    expect(clientMetadata((await provider.Client.find('c1'))!)).toBe(first); // the provider's cached instance
    expect(Object.isFrozen(first)).toBe(true);
  });

  test('another instance has its own snapshot', () => {
    let calls = 0;
    const a = { metadata: () => ({ n: ++calls }) };
    const b = { metadata: () => ({ n: ++calls }) };
    expect(clientMetadata(a)).toEqual({ n: 1 });
    expect(clientMetadata(a)).toEqual({ n: 1 });
    expect(clientMetadata(b)).toEqual({ n: 2 });
    expect(calls).toBe(2);
  });
});
