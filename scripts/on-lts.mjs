#!/usr/bin/env node
/**
 * Runs a command on a supported Node.js (scripts/lts-node.mjs): `node scripts/on-lts.mjs tsx src/main.ts`.
 * Used by `npm start`, `npm run keys`, `npm run admin` and the benches, so they work on a machine
 * whose own Node is older than 22. Signals are passed on; the exit code is the command's.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { chooseNode, envFor, ROOT } from './lts-node.mjs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/on-lts.mjs <command> [args...]');
  process.exit(2);
}
const node = chooseNode();
const env = envFor(node);
// Outside `npm run`, the project's own binaries (tsx) are not on PATH yet.
env.PATH = `${path.join(ROOT, 'node_modules', '.bin')}${path.delimiter}${env.PATH}`;
// `node` as the command means the chosen binary itself; anything else (tsx) is found on PATH,
// where npm has put node_modules/.bin and envFor the chosen Node's bin/.
const child = spawn(command === 'node' ? node : command, args, { cwd: process.cwd(), env, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
