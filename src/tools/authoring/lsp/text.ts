// Small text helpers for the language server: the token under the cursor and the line before it.

const TOKEN_CHAR = /[A-Za-z0-9_.@]/;

/** The dotted token around `offset` (`state.player.hp`, `macros.x`, `attack`), with its span. */
export function tokenAt(
  text: string,
  offset: number,
): { token: string; start: number; end: number } | undefined {
  let start = offset;
  let end = offset;
  while (start > 0 && TOKEN_CHAR.test(text[start - 1]!)) start--;
  while (end < text.length && TOKEN_CHAR.test(text[end]!)) end++;
  while (start < end && text[start] === '@') start++;
  while (end > start && text[end - 1] === '.') end--;
  if (start >= end) return undefined;
  return { token: text.slice(start, end), start, end };
}

/** For a dotted token, the segment under `offset` and those before it (`state.player` for the cursor on player). */
export function segmentsUpTo(token: { token: string; start: number }, offset: number): string[] {
  const parts = token.token.split('.');
  let at = token.start;
  const out: string[] = [];
  for (const part of parts) {
    out.push(part);
    at += part.length + 1;
    if (at > offset) break;
  }
  return out;
}

export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}
