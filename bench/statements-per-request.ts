/**
 * SQL statements per request on the embedded store, by statement (issue #29): what a refresh
 * grant, an introspection and a UserInfo request run on SQLite, with the model a lookup or write
 * names and whether a transaction was open (`TXN`). Every statement run outside a transaction is
 * a read lock taken and dropped (`fcntl` system calls) and, when it writes, a commit: the counts
 * show where a request's commits come from. A diagnostic, not a timing: it wraps better-sqlite3's
 * `Statement.prototype` run/get/all/iterate in this process and starts the real server in it.
 * Usage: `npm run bench:statements` (env N=20: requests per scenario)
 */
import Database from 'better-sqlite3';
import { startTestServer } from '../test/helpers/server.js';
import { authorizeMember, MEMBER_CLIENT, redeemCode, refresh } from '../test/helpers/flows.js';

const N = Number(process.env.N ?? 20);
const probe = new Database(':memory:');
const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
probe.close();
const counts = new Map<string, number>();
let counting = false;
for (const method of ['run', 'get', 'all', 'iterate']) {
  const original = statementProto[method] as (...a: unknown[]) => unknown;
  statementProto[method] = function (
    this: { source: string; database: { inTransaction: boolean } },
    ...args: unknown[]
  ) {
    if (counting) {
      const first = args[0];
      const model =
        typeof first === 'string'
          ? first
          : first && typeof first === 'object' && 'model' in first
            ? String(first.model)
            : '';
      const key = `${method.padEnd(4)} ${this.database.inTransaction ? 'TXN' : '   '} ${model.padEnd(22)} ${this.source.replace(/\s+/g, ' ').slice(0, 90)}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return original.apply(this, args);
  };
}

/** Runs `request` N times with counting on and prints the statements per request. */
async function measure(name: string, request: () => Promise<unknown>): Promise<void> {
  await request(); // warm: statements prepared, caches filled
  await new Promise((r) => setTimeout(r, 300)); // the audit batch of the warm-up is written
  counts.clear();
  counting = true;
  for (let i = 0; i < N; i++) await request();
  await new Promise((r) => setTimeout(r, 300)); // and that of the measured requests
  counting = false;
  console.log(`\n${name}: statements per request (${N} requests)`);
  for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1]))
    console.log(`${(n / N).toFixed(2).padStart(6)}  ${key}`);
}

const server = await startTestServer();
try {
  const o = server.baseUrl;
  const tokens = (await redeemCode(o, o, await authorizeMember(o, o, 'openid account:read'))).body;
  let refreshToken = String(tokens.refresh_token);
  const accessToken = String(tokens.access_token);
  await measure('refresh_token grant', async () => {
    const answer = await refresh(o, refreshToken);
    if (answer.status !== 200) throw new Error(`refresh answered ${answer.status}`);
    refreshToken = String(answer.body.refresh_token);
  });
  await measure('introspection', () =>
    fetch(`${o}/api/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: accessToken, client_id: MEMBER_CLIENT }),
    }).then((r) => r.text()),
  );
  await measure('UserInfo', () =>
    fetch(`${o}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } }).then((r) => r.text()),
  );
} finally {
  await server.close();
}
