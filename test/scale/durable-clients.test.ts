/**
 * Issue #28 (DESIGN D12): client registrations are durable in the platform store; Redis holds only
 * state a member can recover by signing in again. A private Redis (so `FLUSHALL` touches nobody
 * else) and a fresh PostgreSQL database: after `FLUSHALL`, the demo member client (saved the way
 * an operator's member clients are) and a dynamically registered loopback client still authorize
 * through the real flow; the member signs in again, nothing else is lost.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createTestDatabase, describeWith, type TestDatabase } from '../helpers/services.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';
import { findBinary, startPrivateRedis, type PrivateService } from '../services/global-setup.js';
import { nodeCommand } from '../helpers/sentinel.js';
import { PlatformClients } from '../../src/store/durable-clients.js';

const REDIS_SERVER = findBinary('redis-server');
if (!REDIS_SERVER) {
  if (process.env.COURSEGATE_REQUIRE_SERVICES === '1')
    throw new Error('COURSEGATE_REQUIRE_SERVICES=1 but redis-server is missing');
  process.stderr.write(
    '\n*** SKIPPED: redis-server not installed: durable clients test (apt-get install redis-server) ***\n',
  );
}

(REDIS_SERVER ? describeWith('postgres') : describe.skip)(
  'client registrations survive an empty Redis (issue #28)',
  () => {
    let redis: PrivateService;
    let database: TestDatabase;
    let server: TestServer;

    beforeAll(async () => {
      redis = await startPrivateRedis();
      database = await createTestDatabase();
      server = await startTestServer({ REDIS_URL: redis.url, DATABASE_URL: database.url });
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await database?.drop();
      await redis?.stop();
    });

    test('FLUSHALL: member clients and registered clients still authorize; only sign-ins are lost', async () => {
      const origin = server.baseUrl;
      const registered = await registerLoopbackClient(origin, 'Durable CLI');
      // Used once: a loopback client that completed a code exchange is kept without expiry.
      await memberToken({ baseUrl: origin, email: 'student@demo.test', clientId: registered, scope: 'openid' });
      const beforeToken = await memberToken({ baseUrl: origin, email: 'student@demo.test' });
      const platform = new PlatformClients(server.store.db);
      expect(await platform.find('demo-member-cli')).toMatchObject({ client_id: 'demo-member-cli' });
      expect(await platform.find(registered)).toMatchObject({ client_id: registered });

      await nodeCommand(redis.port, 'FLUSHALL');
      expect(await nodeCommand(redis.port, 'DBSIZE')).toBe(0);

      // The member's tokens were Redis state: gone (they sign in again).
      const viewer = await fetch(`${origin}/account/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${beforeToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ viewer { id } }' }),
      });
      expect(viewer.status).toBe(401);
      // The registrations were not: both clients authorize again.
      const memberAgain = await memberToken({ baseUrl: origin, email: 'student@demo.test' });
      expect(memberAgain).toEqual(expect.any(String));
      const registeredAgain = await memberToken({
        baseUrl: origin,
        email: 'student@demo.test',
        clientId: registered,
        scope: 'openid',
      });
      expect(registeredAgain).toEqual(expect.any(String));
    }, 60_000);

    test('a client stored only in Redis (registered before the upgrade) is made durable at its first lookup', async () => {
      const origin = server.baseUrl;
      const registered = await registerLoopbackClient(origin, 'Legacy CLI');
      await memberToken({ baseUrl: origin, email: 'student@demo.test', clientId: registered, scope: 'openid' });
      // As a pre-upgrade store: the row is missing, the Redis copy is there.
      await server.store.db.deleteFrom('oauth_clients').where('client_id', '=', registered).execute();
      await memberToken({ baseUrl: origin, email: 'student@demo.test', clientId: registered, scope: 'openid' });
      expect(await new PlatformClients(server.store.db).find(registered)).toMatchObject({ client_id: registered });
      await nodeCommand(redis.port, 'FLUSHALL');
      expect(
        await memberToken({ baseUrl: origin, email: 'student@demo.test', clientId: registered, scope: 'openid' }),
      ).toEqual(expect.any(String));
    }, 60_000);
  },
);
