// Line and column in JSON text: of a syntax error (from JSON.parse's message), and of the value at a path
// (`entries.5.position`), so a problem found after parsing still names its place as `file:line:col`.
// The path walk is a small scanner over the text (strings, nesting), linear in the text's length.

export interface LineCol {
  readonly line: number;
  readonly col: number;
}

export function lineColAt(text: string, offset: number): LineCol {
  const end = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: end - lineStart + 1 };
}

/** Parses JSON (a leading byte-order mark is dropped); a syntax error says where. */
export function parseJsonText(
  text: string,
): { ok: true; value: unknown } | { ok: false; at: LineCol; message: string } {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const token = /Unexpected token '(.)'/u.exec(message);
    const at = position
      ? lineColAt(source, Number(position[1]))
      : lineColAt(source, token ? firstOutsideStrings(source, token[1]!) : source.length);
    return {
      ok: false,
      at,
      message: `invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '').replace(/, ".*" is not valid JSON$/s, '')}`,
    };
  }
}

/** The first `ch` that is not inside a JSON string (where an unexpected token is). */
function firstOutsideStrings(text: string, ch: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') i = skipString(text, i) - 1;
    else if (text[i] === ch) return i;
  }
  return text.length;
}

/** Skips whitespace from `i`. */
function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t'))
    i++;
  return i;
}

/** The index just after the JSON string starting at `i` (a quote). */
function skipString(text: string, i: number): number {
  i++;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** The index just after the JSON value starting at `i`. */
function skipValue(text: string, i: number): number {
  i = skipSpace(text, i);
  const ch = text[i];
  if (ch === '"') return skipString(text, i);
  if (ch === '{' || ch === '[') {
    let depth = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i = skipString(text, i);
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  while (i < text.length && !/[,}\]\s]/.test(text[i]!)) i++;
  return i;
}

/**
 * Where the value at `path` starts (a dotted path; list indexes are numbers); the deepest existing part
 * when the rest is missing. Assumes `text` is valid JSON.
 */
export function locateJsonPath(text: string, path: string): LineCol {
  const parts = path === '' || path === '(root)' ? [] : path.split('.');
  let i = skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  let found = i;
  for (const part of parts) {
    i = skipSpace(text, i);
    if (text[i] === '{') {
      i++;
      let hit = false;
      for (;;) {
        i = skipSpace(text, i);
        if (text[i] !== '"') break;
        const keyStart = i;
        const keyEnd = skipString(text, i);
        const key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
        i = skipSpace(text, keyEnd) + 1; // the colon
        i = skipSpace(text, i);
        if (key === part) {
          hit = true;
          found = keyStart;
          break;
        }
        i = skipSpace(text, skipValue(text, i));
        if (text[i] === ',') i++;
      }
      if (!hit) break;
    } else if (text[i] === '[' && /^\d+$/.test(part)) {
      i++;
      let index = 0;
      const want = Number(part);
      let hit = false;
      for (;;) {
        i = skipSpace(text, i);
        if (text[i] === ']' || i >= text.length) break;
        if (index === want) {
          hit = true;
          found = i;
          break;
        }
        i = skipSpace(text, skipValue(text, i));
        if (text[i] === ',') i++;
        index++;
      }
      if (!hit) break;
    } else {
      break;
    }
  }
  return lineColAt(text, found);
}
