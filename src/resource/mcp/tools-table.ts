/**
 * Renders the tool registry as the Markdown table of docs/mcp.md (between the `tools:begin` /
 * `tools:end` markers). A test keeps the document equal to this output, so the table is generated,
 * not kept by hand.
 */
import { TOOLS } from './tools/registry.js';

const hints = (t: (typeof TOOLS)[number]): string =>
  t.annotations.readOnlyHint
    ? 'read-only'
    : t.annotations.destructiveHint
      ? 'destructive'
      : t.annotations.idempotentHint
        ? 'write, idempotent'
        : 'write';

/** The Markdown table: tool, who, scopes, kind, title. */
export function toolsMarkdownTable(): string {
  const rows = TOOLS.map(
    (t) =>
      `| \`${t.name}\` | ${t.audience} | ${t.scopes.length ? t.scopes.map((s) => `\`${s}\``).join(' ') : '(none)'} | ${hints(t)} | ${t.title} |`,
  );
  return ['| Tool | Audience | Scopes needed | Kind | What it does |', '| --- | --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
}
