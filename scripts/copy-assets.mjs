// Build step after `tsc`: copies the non-TypeScript files the server reads at run time
// (GraphQL schemas) from src/ to dist/src/, keeping their paths.
import { cpSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ASSET = /\.(graphql)$/;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (ASSET.test(name)) {
      const target = path.join('dist', full);
      cpSync(full, target);
      console.log(`copied ${full} -> ${target}`);
    }
  }
}
walk('src');
