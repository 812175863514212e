/**
 * Bench target: a bare oidc-provider 9 (no coursegate policy, hooks or middleware) on the same
 * adapter and store as coursegate (SQLite WAL/NORMAL via adapters/sqlite.ts, or Redis via
 * adapters/redis.ts when BENCH_REDIS_URL is set). Mints refresh and access tokens in-process and
 * prints `{"port":…,"refreshTokens":[…],"accessToken":"…"}` on stdout.
 *
 * `GET /bench/find` with `Authorization: Bearer <token>` is the floor of an in-process resource
 * server: one `AccessToken.find` and a small JSON answer (401 when the token is unknown).
 *
 * env: PORT, DATA_DIR, BENCH_REDIS_URL (optional), BENCH_TOKENS (refresh tokens to mint)
 */
import Provider, { type Configuration } from 'oidc-provider';
import { openEmbeddedStore } from '../../src/store/database.js';
import { sqliteAdapterFactory } from '../../adapters/sqlite.js';
import { connectRedis, redisAdapterFactory } from '../../adapters/redis.js';
import { generateSigningKey } from '../../src/oauth/keys.js';
import { ROUTES } from '../../src/oauth/provider.js';

const port = Number(process.env.PORT);
const base = `http://127.0.0.1:${port}`;
const adapter = process.env.BENCH_REDIS_URL
  ? redisAdapterFactory(connectRedis({ url: process.env.BENCH_REDIS_URL }), {
      prefix: process.env.BENCH_PREFIX ?? 'bench-bare',
    })
  : sqliteAdapterFactory((await openEmbeddedStore(process.env.DATA_DIR!)).sqlite);

// The client lives in the store, as coursegate's member clients do (a static client would skip a
// store read per request and make the comparison uneven).
await new adapter('Client').upsert('bench', {
  client_id: 'bench',
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  redirect_uris: ['http://127.0.0.1/cb'],
} as never);
const configuration: Configuration = {
  adapter,
  clients: [],
  jwks: { keys: [(await generateSigningKey()) as never] },
  enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
  clientDefaults: { id_token_signed_response_alg: 'ES256' },
  findAccount: async (_ctx, accountId) => ({ accountId, claims: async () => ({ sub: accountId }) }),
  scopes: ['openid', 'offline_access'],
  routes: { ...ROUTES },
  rotateRefreshToken: true,
  issueRefreshToken: async () => true,
  expiresWithSession: async () => false,
  pkce: { required: () => true },
  features: { devInteractions: { enabled: false }, introspection: { enabled: true }, revocation: { enabled: true } },
  ttl: {
    AccessToken: 3600,
    RefreshToken: 30 * 24 * 3600,
    Grant: 30 * 24 * 3600,
    AuthorizationCode: 60,
    IdToken: 600,
    Session: 3600,
    Interaction: 3600,
  },
};
const provider = new Provider(base, configuration);
const client = await provider.Client.find('bench');

async function mint(): Promise<{ refreshToken: string; accessToken: string }> {
  const grant = new provider.Grant({ accountId: 'usr_bench', clientId: 'bench' });
  grant.addOIDCScope('openid');
  const grantId = await grant.save();
  const common = { accountId: 'usr_bench', client, grantId, scope: 'openid', gty: 'authorization_code' };
  const refreshToken = await new provider.RefreshToken(common as never).save();
  const accessToken = await new provider.AccessToken(common as never).save();
  return { refreshToken, accessToken };
}

provider.use(async (ctx, next) => {
  if (ctx.path !== '/bench/find') return next();
  const token = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1];
  const at = token ? await provider.AccessToken.find(token) : undefined;
  if (!at) {
    ctx.status = 401;
    ctx.body = { error: 'invalid_token' };
    return;
  }
  ctx.body = { sub: at.accountId, client_id: at.clientId, scope: at.scope, exp: at.exp };
});

const minted = await Promise.all(Array.from({ length: Number(process.env.BENCH_TOKENS ?? 40) }, mint));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => process.exit(0));
provider.listen(port, '127.0.0.1', () => {
  process.stdout.write(
    `${JSON.stringify({ port, refreshTokens: minted.map((m) => m.refreshToken), accessToken: minted[0]!.accessToken })}\n`,
  );
});
