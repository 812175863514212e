/**
 * `npm run keys:generate`: prints a new private ES256 JWK (with `kid` = RFC 7638 thumbprint) for
 * SIGNING_KEY_FILE (SPEC §2.2, DESIGN D6). Store it as a secret; never commit it.
 */
import { generateSigningKey } from '../oauth/keys.js';

const command = process.argv[2] ?? 'generate';
if (command !== 'generate') {
  process.stderr.write('usage: keys generate   (prints a private ES256 JWK to stdout)\n');
  process.exit(2);
}
process.stdout.write(`${JSON.stringify(await generateSigningKey(), null, 2)}\n`);
