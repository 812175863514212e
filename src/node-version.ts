/**
 * Refuses to run on a Node.js the project does not support (package.json `engines`), before any
 * other module is evaluated: better-sqlite3's prebuilt binary crashes an older Node while loading
 * (exit 139, no message), so the check must come first. Imported first by every entry point
 * (`src/main.ts`, `src/cli/*.ts`); ECMAScript modules evaluate their imports in order, so nothing
 * else is loaded when this exits.
 */

/** package.json `engines.node` (test/unit/version.test.ts keeps them equal). */
export const SUPPORTED_NODE = '^22.12.0 || ^24.0.0';

/**
 * Whether `version` (`22.12.0`, with or without `v`) satisfies a range of `^major.minor.patch`
 * alternatives joined by `||`, the only form `engines` uses here.
 */
export function satisfiesRange(version: string, range: string): boolean {
  const parts = (v: string) => v.replace(/^[v^]/, '').split('.').map(Number);
  const [major = 0, minor = 0, patch = 0] = parts(version);
  return range.split('||').some((alternative) => {
    const [m = 0, n = 0, p = 0] = parts(alternative.trim());
    return major === m && (minor > n || (minor === n && patch >= p));
  });
}

if (!satisfiesRange(process.versions.node, SUPPORTED_NODE)) {
  process.stderr.write(
    `coursegate: Node.js ${process.versions.node} is not supported; it needs Node.js ${SUPPORTED_NODE} (package.json "engines"). ` +
      'Install Node.js 22 or 24 LTS, or start with `npm run start:prod`, which runs the server on a supported Node.js.\n',
  );
  process.exit(1);
}
