/**
 * The scripted "model" of the listed-only host tests (issue #26; DESIGN D4): a host hands its
 * model only the tools of `tools/list`, and the model picks one by the words of its listed title
 * and description. Nothing about the server is known in advance.
 */

/** A listed tool, as every MCP client returns it (the fields a model reads). */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  _meta?: Record<string, unknown>;
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]{3,}/g) ?? []);

/**
 * The model's choice: the listed tool whose title and description share the most words (three
 * letters or more, case-insensitive) with `intent`; the first listed wins a tie.
 * @throws Error when `tools` is empty (nothing to choose from).
 */
export function pickByDescription<T extends ListedTool>(tools: T[], intent: string): T {
  if (tools.length === 0) throw new Error('the listing offered no tool');
  const wanted = words(intent);
  const score = (t: ListedTool) =>
    [...words(`${t.title ?? ''} ${t.description ?? ''}`)].filter((w) => wanted.has(w)).length;
  return [...tools].sort((a, b) => score(b) - score(a))[0]!;
}
