// Finds the line an author mis-indented, from the text alone, when the YAML parser has failed: the
// parser's own errors point at where it noticed (often the line above, or many lines later, each with a
// cascade of follow-on errors), this points at the line to fix and says what its indentation should be.
// One pass over the lines with a stack of open block levels; linear, and every line is visited once.

export interface IndentationProblem {
  /** 1-based line of the offending line; the column is 1, where its indentation starts. */
  readonly line: number;
  readonly col: number;
  readonly message: string;
}

interface Level {
  /** Column where this block's entries start (a key, or a sequence's `-`). */
  readonly col: number;
  readonly kind: 'map' | 'seq';
  /** 1-based line that opened it, for "like line N". */
  readonly line: number;
}

const BLOCK_SCALAR = /:\s*[|>][-+0-9]*\s*(#.*)?$/;
// Linear by construction: one lazy run up to the first colon (spaces before it are part of the run).
const KEY = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{[\]}:,-][^:#]*?|-[^\s:#][^:#]*?):(?:\s|$)/;

export function findIndentationProblem(source: string): IndentationProblem | undefined {
  const lines = source.split('\n');
  const stack: Level[] = [];
  let opener: { col: number; line: number } | undefined; // a `key:` (or `-`) whose value starts below
  let skipDeeperThan: number | undefined; // inside a block scalar: lines indented more than this are text
  let flowDepth = 0;

  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '');
    const lineNo = i + 1;
    const trimmed = raw.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const indent = raw.length - trimmed.length;
    if (raw.slice(0, indent).includes('\t')) return undefined; // the parser's tab message says it already
    if (skipDeeperThan !== undefined) {
      if (indent > skipDeeperThan) continue;
      skipDeeperThan = undefined;
    }
    if (flowDepth > 0) {
      flowDepth = Math.max(0, flowDepth + bracketBalance(trimmed));
      continue;
    }
    if (trimmed.startsWith('---') || trimmed.startsWith('...') || trimmed.startsWith('%')) continue;

    const isItem = trimmed === '-' || trimmed.startsWith('- ');
    if (stack.length === 0) stack.push({ col: indent, kind: isItem ? 'seq' : 'map', line: lineNo });
    const top = () => stack[stack.length - 1]!;

    if (opener !== undefined && (indent > opener.col || (isItem && indent === opener.col))) {
      stack.push({ col: indent, kind: isItem ? 'seq' : 'map', line: lineNo });
    } else if (indent > top().col) {
      // A deeper line without a key continues the plain text above (YAML folds it into that value).
      if (!isItem && !KEY.test(trimmed)) continue;
      const level = top();
      const expected =
        level.kind === 'seq' ? `${spaces(level.col + 2)} (to continue the list item)` : spaces(level.col);
      return {
        line: lineNo,
        col: 1,
        message: `Wrong indentation: line ${lineNo} is indented ${spaces(indent)}, deeper than the line above, which already has its value. Indent it ${expected}, like line ${level.line}; or, if it belongs under the line above, end that line with a colon.`,
      };
    } else {
      while (stack.length > 1 && top().col > indent) stack.pop();
      // A list written at its key's own column (`key:` then `- a` below it) ends at the next key there.
      const parent = stack[stack.length - 2];
      if (!isItem && top().kind === 'seq' && parent?.kind === 'map' && parent.col === indent) stack.pop();
      if (top().col !== indent) {
        const inner = top();
        return {
          line: lineNo,
          col: 1,
          message: `Wrong indentation: line ${lineNo} is indented ${spaces(indent)}, which lines up with nothing above it. Indent it ${spaces(inner.col)}, like line ${inner.line}, or line it up with the block it belongs to.`,
        };
      }
    }
    opener = undefined;

    const level = top();
    if (level.kind === 'seq' && !isItem) {
      return {
        line: lineNo,
        col: 1,
        message: `Wrong indentation: line ${lineNo} is in a list, but does not start with "- ". Indent it ${spaces(indent + 2)} to continue the item above, or start a new item with "- ".`,
      };
    }
    if (level.kind === 'map' && isItem && stack.length > 1) {
      return {
        line: lineNo,
        col: 1,
        message: `Wrong indentation: line ${lineNo} starts a list item ("- ") among keys. Indent it under the key it belongs to (more than ${spaces(indent)}), or remove the "- ".`,
      };
    }

    let content = trimmed;
    let contentCol = indent;
    if (isItem) {
      const after = trimmed.slice(1);
      const pad = after.length - after.trimStart().length;
      content = after.trimStart();
      contentCol = indent + 1 + pad;
      if (isEmptyValue(content)) {
        opener = { col: indent, line: lineNo };
        continue;
      }
      // `- key: value` opens the item's mapping at the key's column.
      if (KEY.test(content)) stack.push({ col: contentCol, kind: 'map', line: lineNo });
    }
    const key = KEY.exec(content);
    const value = key ? content.slice(key[0].length).trim() : content;
    if (key && isEmptyValue(value)) opener = { col: contentCol, line: lineNo };
    if (BLOCK_SCALAR.test(content)) skipDeeperThan = contentCol;
    flowDepth = Math.max(0, bracketBalance(value));
  }
  return undefined;
}

function spaces(n: number): string {
  return n === 1 ? '1 space' : `${n} spaces`;
}

/** Nothing, a comment, or only anchors and tags (`&name`, `!!map`): the value starts on the next lines. */
function isEmptyValue(text: string): boolean {
  for (const word of text.split(/\s+/)) {
    if (word === '' || word.startsWith('#')) return true;
    if (!word.startsWith('&') && !word.startsWith('!')) return false;
  }
  return true;
}

/** Opening minus closing brackets outside quotes (a flow collection that continues on the next line). */
function bracketBalance(text: string): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      if (i === 0 || /[\s[{,:]/.test(text[i - 1]!)) quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) break;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
  }
  return depth;
}
