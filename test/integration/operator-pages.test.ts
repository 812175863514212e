/**
 * The operator pages as an operator reads them (docs/operator-guide.md "The admin area"): with
 * the "MCP connections" beta off, the OAuth applications page still lists the site's applications,
 * each marked suspended (they come back when it is switched on), not an empty page.
 */
import { AdminBrowser, callApi, operatorToken } from '../helpers/operator-surfaces.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(() => server?.close());

test('beta off: the applications page lists the site’s applications as suspended', async () => {
  const { token } = await operatorToken(server.baseUrl, 'owner@demo.test', 'demo', 'beta switch');
  expect((await callApi(server.baseUrl, token, '/api/v1/site', 'PATCH', { mcpConnectionsEnabled: false })).status).toBe(
    200,
  );
  const admin = new AdminBrowser(server.baseUrl);
  await admin.signIn('owner@demo.test');
  const off = await admin.get('/admin/demo/apps');
  expect(off.status).toBe(200);
  expect(off.html).toContain('which is off at this site');
  const row = off.html.slice(off.html.indexOf('demo-member-cli') - 400, off.html.indexOf('demo-member-cli'));
  expect(off.html).toContain('<code>demo-member-cli</code>');
  expect(row).toContain('suspended');
  expect(off.html).not.toContain('Create application');

  expect((await callApi(server.baseUrl, token, '/api/v1/site', 'PATCH', { mcpConnectionsEnabled: true })).status).toBe(
    200,
  );
  const on = await admin.get('/admin/demo/apps');
  expect(on.html).toContain('<code>demo-member-cli</code>');
  expect(on.html).not.toContain('which is off at this site');
  expect(on.html).toContain('Create application');
});
