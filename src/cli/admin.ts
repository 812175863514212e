/**
 * `npm run admin -- <command>`: the first-run command of DESIGN D11, run with the same environment
 * as the server (NODE_ENV, DATA_DIR or DATABASE_URL, BASE_URL, …).
 *
 *   site create --id <id> --name <name> --owner-email <email> [--owner-name <name>] [--existing-account]
 *       creates a site and its owner; prints a one-time link (24 h) where the owner sets a password.
 *       An address that already has an account is refused unless --existing-account is given; then
 *       that account becomes the owner (keeping its password) and the command says so (DESIGN D11)
 *   sites list
 *       lists sites with their owners
 *   owner reset-link --email <email>
 *       prints a new one-time set-password link for an owner or admin
 *
 * Links are also mailed to the person (SMTP with `SMTP_URL`, else a `.eml` file under
 * `DATA_DIR/outbox/`, src/ops/mail.ts).
 *
 * Exit codes: 0 done, 1 refused (message on stderr), 2 usage.
 */
// First: refuses an unsupported Node.js before any module that would crash it is loaded.
import '../node-version.js';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config.js';
import { openStores } from '../store/stores.js';
import { FirstRun } from '../platform/first-run.js';
import { PlatformError } from '../platform/errors.js';
import { setPasswordUrl } from '../http/links.js';
import path from 'node:path';
import { createLinkMailer } from '../ops/mail.js';

const USAGE = `usage: npm run admin -- <command>
  site create --id <id> --name <name> --owner-email <email> [--owner-name <name>] [--existing-account]
  sites list
  owner reset-link --email <email>
`;

function fail(message: string, code = 1): never {
  process.stderr.write(`coursegate admin: ${message}\n`);
  process.exit(code);
}

const { positionals, values } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        id: { type: 'string' },
        name: { type: 'string' },
        'owner-email': { type: 'string' },
        'owner-name': { type: 'string' },
        'existing-account': { type: 'boolean' },
        email: { type: 'string' },
      },
    });
  } catch (err) {
    return fail(`${(err as Error).message}\n${USAGE}`, 2);
  }
})();
const command = positionals.join(' ');
if (!['site create', 'sites list', 'owner reset-link'].includes(command)) fail(USAGE.trimEnd(), 2);

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(`configuration error: ${err.message}`);
  throw err;
}
const stores = await openStores(config, pino({ level: 'warn' }));
const firstRun = new FirstRun(stores.db);
const mailer = createLinkMailer(config.smtpUrl, config.smtpFrom, config.baseUrl, path.join(config.dataDir, 'outbox'));
/** Shows the link to the operator (always) and mails it (SMTP, or a file in the outbox). */
async function printLink(email: string, siteName: string, link: { token: string; expiresAt: string }): Promise<void> {
  const url = setPasswordUrl(config!.baseUrl, link.token);
  process.stdout.write(
    `One-time link for ${email} to set a password (valid until ${link.expiresAt}, works once):\n  ${url}\n`,
  );
  try {
    const sent = await mailer.sendSetPasswordLink(email, siteName, url, link.expiresAt);
    process.stdout.write(
      sent.delivery === 'smtp'
        ? `Also e-mailed to ${email}.\n`
        : `Also written as an e-mail to ${email} in ${sent.file} (no SMTP_URL set).\n`,
    );
  } catch (err) {
    process.stdout.write(`Could not e-mail it (${(err as Error).message}); hand the link over yourself.\n`);
  }
}
try {
  if (command === 'site create') {
    if (!values.id || !values.name || !values['owner-email'])
      fail(`site create needs --id, --name and --owner-email\n${USAGE}`, 2);
    const owner = values['owner-email'].trim().toLowerCase();
    const created = await firstRun.createSite({
      id: values.id,
      name: values.name,
      ownerEmail: owner,
      ownerName: values['owner-name'],
      existingAccount: values['existing-account'] === true,
    });
    if (created.adopted) {
      process.stdout.write(
        `Created site "${values.name}" (org_id ${values.id}). Adopted the existing account ${owner} as its owner (--existing-account): it keeps its password.\n` +
          `If you are not sure who holds that account, take the role away and send a reset link: npm run admin -- owner reset-link --email ${owner}\n`,
      );
    } else {
      process.stdout.write(
        `Created site "${values.name}" (org_id ${values.id}) with a new account ${owner} as its owner.\n`,
      );
      await printLink(owner, values.name, created.link!);
    }
  } else if (command === 'sites list') {
    const sites = await firstRun.listSites();
    if (sites.length === 0)
      process.stdout.write(
        'No site yet. Create one: npm run admin -- site create --id <id> --name <name> --owner-email <email>\n',
      );
    for (const s of sites)
      process.stdout.write(`${s.id}\t${s.name}\towners: ${s.owners.join(', ') || '-'}\tmembers: ${s.members}\n`);
  } else {
    if (!values.email) fail(`owner reset-link needs --email\n${USAGE}`, 2);
    await printLink(values.email.toLowerCase(), new URL(config.baseUrl).host, await firstRun.resetLink(values.email));
  }
} catch (err) {
  if (err instanceof PlatformError) fail(err.message);
  throw err;
} finally {
  mailer?.close();
  await stores.close();
}
