/**
 * Prints the operator guide's settings table generated from src/config-settings.ts; with `--write`
 * replaces the table between the markers in docs/operator-guide.md.
 * Usage: npx tsx scripts/settings-table.ts [--write]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { settingsTable, TABLE_MARKERS } from '../src/config-settings.js';

const table = settingsTable();
if (!process.argv.includes('--write')) {
  process.stdout.write(`${table}\n`);
} else {
  const file = new URL('../docs/operator-guide.md', import.meta.url);
  const text = readFileSync(file, 'utf8');
  const [begin, end] = TABLE_MARKERS;
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`docs/operator-guide.md: markers ${begin} … ${end} not found`);
  writeFileSync(file, `${text.slice(0, a + begin.length)}\n${table}\n${text.slice(b)}`);
}
