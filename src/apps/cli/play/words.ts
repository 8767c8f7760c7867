// Splitting a slash command's arguments into words, for the commands (commands.ts) and the persona
// commands (personas.ts) alike.

/** Splits on spaces outside quotes; quotes group and are removed (`a="b c"` → `a=b c`). */
export function splitWords(text: string): string[] | { error: string } {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  let started = false;
  for (const ch of text) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) words.push(current);
      current = '';
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (quote !== undefined) return { error: `unclosed ${quote} quote` };
  if (started) words.push(current);
  return words;
}
