/** docs/mcp.md carries the tool table generated from the registry (not kept by hand). */
import { readFileSync } from 'node:fs';
import { toolsMarkdownTable } from '../../src/resource/mcp/tools-table.js';

test('docs/mcp.md tool table equals the registry', () => {
  const doc = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
  const section = /<!-- tools:begin -->\n([\s\S]*?)\n<!-- tools:end -->/.exec(doc)?.[1];
  expect(section).toBe(toolsMarkdownTable());
});
