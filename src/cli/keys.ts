/**
 * `npm run keys -- <command>`: the id_token signing keys (SPEC §2.2, DESIGN D6).
 *
 *   list                       the stored keys, their state and schedule
 *   add                        a new key, `published` (in JWKS, not signing)
 *   activate <kid>             the key signs from now on; the previous active key is retired
 *                              (refused until every cached JWKS holds the new key)
 *   retire <kid> [--no-active] stop publishing a never-active key, or (with --no-active) stop
 *                              signing altogether (no id_tokens, DESIGN D6)
 *   generate [--out <file>]    a new private JWK for SIGNING_KEY_FILE (not stored): printed, or
 *                              written to <file> (mode 0600, never over an existing file)
 *
 * The store is the server's (DATA_DIR's SQLite file, or DATABASE_URL); every process picks a
 * change up within KEYS_REFRESH_SECONDS. With SIGNING_KEY(_FILE) set the store's keys are unused,
 * so the stored-key commands refuse. Exit status: 0 done, 1 refused (reason on stderr), 2 usage.
 */
// First: refuses an unsupported Node.js before any module that would crash it is loaded.
import '../node-version.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { openEmbeddedStore } from '../store/database.js';
import { openPostgresStore } from '../store/postgres.js';
import { generateSigningKey } from '../oauth/keys.js';
import {
  activatableAt,
  isPublished,
  KeyRotationError,
  SigningKeyStore,
  unpublishedAt,
  type KeySchedule,
  type StoredKey,
} from '../oauth/key-rotation.js';

const USAGE = 'usage: keys list | add | activate <kid> | retire <kid> [--no-active] | generate [--out <file>]\n';
const [command, kid, ...flags] = process.argv.slice(2);

if (command === 'generate') {
  const json = `${JSON.stringify(await generateSigningKey(), null, 2)}\n`;
  // `--out` (issue #30 item 1): `npm run keys:generate > file` would put npm's own banner lines in
  // the file too; writing it ourselves keeps the file pure JSON and private from the first byte.
  // `--from <dir>`: where the person typed the command (`npm run keys:generate` runs scripts in the
  // package root and passes the caller's directory through `$INIT_CWD`); `--out` is relative to it.
  const options = [kid, ...flags];
  const option = (name: string) => (options.includes(name) ? options[options.indexOf(name) + 1] : undefined);
  const target = option('--out');
  const out = target ? path.resolve(option('--from') || '.', target) : undefined;
  if (options.includes('--out') && !out) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  if (!out) {
    process.stdout.write(json);
    process.exit(0);
  }
  try {
    writeFileSync(out, json, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    process.stderr.write(
      `keys: refused: ${code === 'EEXIST' ? `${out} exists already (a signing key is never overwritten; move it away first)` : `cannot write ${out} (${code})`}\n`,
    );
    process.exit(1);
  }
  process.stderr.write(`keys: wrote a new private ES256 JWK to ${out} (mode 0600); set SIGNING_KEY_FILE=${out}\n`);
  process.exit(0);
}
if (
  !command ||
  !['list', 'add', 'activate', 'retire'].includes(command) ||
  ((command === 'activate' || command === 'retire') && !kid)
) {
  process.stderr.write(USAGE);
  process.exit(2);
}

const config = loadConfig();
if (config.signingKeys) {
  process.stderr.write(
    'keys: SIGNING_KEY / SIGNING_KEY_FILE is set, so this server signs with those keys and not the stored ones; rotate them as docs/operator-guide.md "Signing keys" describes\n',
  );
  process.exit(1);
}
const store = config.databaseUrl
  ? await openPostgresStore(config.databaseUrl, 1)
  : await openEmbeddedStore(config.dataDir);
const schedule: KeySchedule = { ...config.keys, idTokenTtl: config.ttl.idToken };
const keys = new SigningKeyStore(store.db, schedule, undefined, Boolean(config.databaseUrl));
const iso = (t: number) => new Date(t * 1000).toISOString();

function describe(k: StoredKey, now: number): string {
  const when =
    k.state === 'published'
      ? now >= activatableAt(k, schedule)
        ? 'may be activated'
        : `may be activated from ${iso(activatableAt(k, schedule))}`
      : k.state === 'active'
        ? `signing since ${k.activatedAt ? iso(k.activatedAt) : '?'}`
        : isPublished(k, now, schedule)
          ? `in JWKS until ${iso(unpublishedAt(k, schedule))}`
          : 'out of JWKS';
  return `${k.kid}  ${k.state.padEnd(9)}  published ${iso(k.publishedAt)}  ${when}`;
}

try {
  const now = Math.floor(Date.now() / 1000);
  if (command === 'list') {
    for (const k of await keys.list()) process.stdout.write(`${describe(k, now)}\n`);
  } else if (command === 'add') {
    const k = await keys.add();
    process.stdout.write(`added ${k.kid} (published; may be activated from ${iso(activatableAt(k, schedule))})\n`);
  } else if (command === 'activate') {
    const { retired } = await keys.activate(kid!);
    process.stdout.write(
      `activated ${kid}${retired ? `; retired ${retired} (in JWKS for another ${schedule.refreshSeconds + schedule.idTokenTtl} s)` : ''}\n`,
    );
  } else {
    await keys.retire(kid!, flags.includes('--no-active'));
    process.stdout.write(`retired ${kid}\n`);
  }
} catch (err) {
  if (!(err instanceof KeyRotationError)) throw err;
  process.stderr.write(`keys: refused: ${err.message}\n`);
  process.exitCode = 1;
} finally {
  await store.close();
}
