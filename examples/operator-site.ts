/**
 * An operator script on the admin REST API (`/api/v1`, OpenAPI at /openapi.json): reads the
 * site and lists its OAuth applications (member clients).
 *
 *   ACCESS_TOKEN=$(npx tsx examples/cli-login.ts --register --scope "openid school:read") npx tsx examples/operator-site.ts
 *
 * Sign in as an operator (owner@demo.test in development). Settings: COURSEGATE_URL, ACCESS_TOKEN
 * (a token with school:read). Errors are RFC 9457 problem+json.
 */
const base = process.env.COURSEGATE_URL ?? 'http://localhost:3000';
const token = process.env.ACCESS_TOKEN;
if (!token) throw new Error('set ACCESS_TOKEN (an operator token with school:read)');

async function get(path: string): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  if (!res.ok)
    throw new Error(`GET ${path} → ${res.status}: ${res.headers.get('www-authenticate') ?? (await res.text())}`);
  return res.json();
}

const site = (await get('/api/v1/site')) as { id: string; name: string; mcpConnectionsEnabled?: boolean };
process.stdout.write(`site ${site.id}: ${site.name} (MCP connections ${site.mcpConnectionsEnabled ? 'on' : 'off'})\n`);
// The shape of `GET /api/v1/oauth-applications` (operation listOAuthApplications in /openapi.json).
type Application = { clientId: string; clientName: string; suspended: boolean };
const { applications } = (await get('/api/v1/oauth-applications')) as { applications: Application[] };
for (const app of applications)
  process.stdout.write(`application ${app.clientId}: ${app.clientName}${app.suspended ? ' (suspended)' : ''}\n`);
