/**
 * Runs `@modelcontextprotocol/conformance` (research §1) as a child process on Node 20 (with the
 * fs.globSync shim of `node20-compat.mjs`) and, for the `authorization` mode, plays the human:
 * it reads the authorization URL from stdout, signs in with the headless user agent and delivers
 * the callback to the suite's listener.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { completeAuthorization, type UserAgentOptions } from '../user-agent.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const CLI = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const COMPAT = path.join(ROOT, 'test/helpers/conformance/node20-compat.mjs');

export interface ConformanceRun {
  exitCode: number | null;
  output: string;
  /** `Passed: x/y, n failed` per scenario in order, or the `Total:` line of a multi-scenario run. */
  summary: string[];
}

/**
 * Runs the CLI with `args` (e.g. `['server', '--url', …, '--scenario', 'ping']`).
 * @param login when given, completes the authorization URL the CLI prints (authorization mode)
 */
export function runConformance(
  args: string[],
  options: { login?: UserAgentOptions; authorizePrefix?: string; timeoutMs?: number } = {},
): Promise<ConformanceRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', COMPAT, CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let output = '';
    let handled = false;
    const timer = setTimeout(() => child.kill('SIGTERM'), options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!options.login || handled || !options.authorizePrefix) return;
      const line = output.split('\n').find((l) => l.startsWith(options.authorizePrefix!));
      if (!line || !output.includes('Callback server started')) return;
      handled = true;
      completeAuthorization(line.trim(), options.login)
        .then(({ callback }) => fetch(callback))
        .catch((err: unknown) => {
          output += `\n[driver] authorization failed: ${String(err)}\n`;
          child.kill('SIGTERM');
        });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const summary = output
        .split('\n')
        .filter((l) => /^(Passed: |Total: )/.test(l.trim()))
        .map((l) => l.trim());
      resolve({ exitCode, output, summary });
    });
  });
}
