/**
 * Writes what is generated from the configuration catalogue (src/config-settings.ts): the tables
 * of `GENERATED_TABLES` between their markers in docs/operator-guide.md and
 * docs/operator-integrations.md, and the JSON Schemas `config/*.schema.json` of the YAML files.
 * Without `--write` it prints the tables. test/unit/config-settings.test.ts checks all of it.
 * Usage: node scripts/on-lts.mjs tsx scripts/settings-table.ts [--write]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { FILES, GENERATED_TABLES, fileJsonSchema, type ConfigFile } from '../src/config-settings.js';

const root = new URL('../', import.meta.url);

/** Replaces the text between `begin` and the next `end` in `text`. @throws Error when the markers are missing */
export function replaceBetween(text: string, begin: string, end: string, body: string, doc: string): string {
  const a = text.indexOf(begin);
  const b = a < 0 ? -1 : text.indexOf(end, a + begin.length);
  if (a < 0 || b < 0) throw new Error(`${doc}: markers ${begin} … ${end} not found`);
  return `${text.slice(0, a + begin.length)}\n${body}\n${text.slice(b)}`;
}

if (!process.argv.includes('--write')) {
  for (const t of GENERATED_TABLES) process.stdout.write(`${t.doc} ${t.markers[0]}\n${t.render()}\n\n`);
} else {
  for (const t of GENERATED_TABLES) {
    const file = new URL(t.doc, root);
    writeFileSync(file, replaceBetween(readFileSync(file, 'utf8'), t.markers[0], t.markers[1], t.render(), t.doc));
  }
  for (const name of Object.keys(FILES) as ConfigFile[]) {
    writeFileSync(new URL(FILES[name].jsonSchema, root), `${JSON.stringify(fileJsonSchema(name), null, 2)}\n`);
  }
}
