// ESM resolve hook: points `fs` / `node:fs` at fs-shim.mjs for every importer except the shim,
// and only where fs.globSync is missing (Node < 22).
import { createRequire } from 'node:module';
const needed = !('globSync' in createRequire(import.meta.url)('fs'));
const shim = new URL('./fs-shim.mjs', import.meta.url).href;
export async function resolve(specifier, context, next) {
  if (needed && (specifier === 'fs' || specifier === 'node:fs') && context.parentURL !== shim)
    return { url: shim, shortCircuit: true };
  return next(specifier, context);
}
