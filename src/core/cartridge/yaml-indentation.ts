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
  /** Set when a `- key:` line opened it: that line starts at its dash, two columns left of this block. */
  readonly itemKey?: string;
}

/** Where an author sees the block's column: a line that starts there, or the key after a line's `- `. */
function likeLine(level: Level): string {
  return level.itemKey === undefined
    ? `like line ${level.line}`
    : `like '${level.itemKey}' after the "- " on line ${level.line}`;
}

const BLOCK_SCALAR = /:\s*[|>][-+0-9]*\s*(#.*)?$/;
// Linear by construction: one lazy run up to the first colon (spaces before it are part of the run).
const KEY = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{[\]}:,-][^:#]*?|-[^\s:#][^:#]*?):(?:\s|$)/;

export function findIndentationProblem(source: string): IndentationProblem | undefined {
  const lines = source.split('\n');
  const scanner = new IndentationScanner();
  for (let i = 0; i < lines.length; i++) {
    const found = scanner.line(lines[i]!.replace(/\r$/, ''), i + 1);
    if (found === 'tab') return undefined; // the parser's tab message says it already
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The scan's state between lines: the open block levels and what the line above left open. */
class IndentationScanner {
  readonly #stack: Level[] = [];
  #opener: { col: number; line: number } | undefined; // a `key:` (or `-`) whose value starts below
  #skipDeeperThan: number | undefined; // inside a block scalar: lines indented more than this are text
  #flowDepth = 0;

  line(raw: string, lineNo: number): IndentationProblem | 'tab' | undefined {
    const trimmed = raw.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) return undefined;
    const indent = raw.length - trimmed.length;
    if (raw.slice(0, indent).includes('\t')) return 'tab';
    if (this.#isText(trimmed, indent)) return undefined;
    if (trimmed.startsWith('---') || trimmed.startsWith('...') || trimmed.startsWith('%')) return undefined;

    const isItem = trimmed === '-' || trimmed.startsWith('- ');
    if (this.#stack.length === 0)
      this.#stack.push({ col: indent, kind: isItem ? 'seq' : 'map', line: lineNo });
    const placed = this.#place(trimmed, indent, isItem, lineNo);
    if (placed !== 'placed') return placed;
    // The nearest line that starts where this block's keys do is the one to point an author at.
    if (!isItem && this.#top().kind === 'map' && this.#top().col === indent) {
      this.#stack[this.#stack.length - 1] = { col: indent, kind: 'map', line: lineNo };
    }
    this.#opener = undefined;
    const misplaced = this.#kindProblem(indent, isItem, lineNo);
    if (misplaced !== undefined) return misplaced;
    this.#readContent(trimmed, indent, isItem, lineNo);
    return undefined;
  }

  #top(): Level {
    return this.#stack[this.#stack.length - 1]!;
  }

  /** Lines inside a block scalar or a flow collection (`[`, `{` across lines) are not block structure. */
  #isText(trimmed: string, indent: number): boolean {
    if (this.#skipDeeperThan !== undefined) {
      if (indent > this.#skipDeeperThan) return true;
      this.#skipDeeperThan = undefined;
    }
    if (this.#flowDepth > 0) {
      this.#flowDepth = Math.max(0, this.#flowDepth + bracketBalance(trimmed));
      return true;
    }
    return false;
  }

  /** Opens, keeps or closes block levels for the line; a problem when its column fits none of them. */
  #place(
    trimmed: string,
    indent: number,
    isItem: boolean,
    lineNo: number,
  ): IndentationProblem | 'placed' | undefined {
    const stack = this.#stack;
    const opener = this.#opener;
    if (opener !== undefined && (indent > opener.col || (isItem && indent === opener.col))) {
      stack.push({ col: indent, kind: isItem ? 'seq' : 'map', line: lineNo });
      return 'placed';
    }
    if (indent > this.#top().col) {
      // A deeper line without a key continues the plain text above (YAML folds it into that value).
      if (!isItem && !KEY.test(trimmed)) return undefined;
      const level = this.#top();
      const expected =
        level.kind === 'seq' ? `${spaces(level.col + 2)} (to continue the list item)` : spaces(level.col);
      return {
        line: lineNo,
        col: 1,
        message: `Wrong indentation: line ${lineNo} is indented ${spaces(indent)}, deeper than the line above, which already has its value. Indent it ${expected}, ${likeLine(level)}; or, if it belongs under the line above, end that line with a colon.`,
      };
    }
    while (stack.length > 1 && this.#top().col > indent) stack.pop();
    // A list written at its key's own column (`key:` then `- a` below it) ends at the next key there.
    const parent = stack[stack.length - 2];
    if (!isItem && this.#top().kind === 'seq' && parent?.kind === 'map' && parent.col === indent) stack.pop();
    if (this.#top().col !== indent) {
      const inner = this.#top();
      return {
        line: lineNo,
        col: 1,
        message: `Wrong indentation: line ${lineNo} is indented ${spaces(indent)}, which lines up with nothing above it. Indent it ${spaces(inner.col)}, ${likeLine(inner)}, or line it up with the block it belongs to.`,
      };
    }
    return 'placed';
  }

  /** A key line inside a list, or a list item among keys (below the top level). */
  #kindProblem(indent: number, isItem: boolean, lineNo: number): IndentationProblem | undefined {
    const level = this.#top();
    if (level.kind === 'seq' && !isItem) {
      return {
        line: lineNo,
        col: 1,
        message: `Wrong indentation: line ${lineNo} is in a list, but does not start with "- ". Indent it ${spaces(indent + 2)} to continue the item above, or start a new item with "- ".`,
      };
    }
    if (level.kind === 'map' && isItem && this.#stack.length > 1) {
      return {
        line: lineNo,
        col: 1,
        message: `Wrong indentation: line ${lineNo} starts a list item ("- ") among keys. Indent it under the key it belongs to (more than ${spaces(indent)}), or remove the "- ".`,
      };
    }
    return undefined;
  }

  /** What the line leaves open for the lines below: a value to come, a block scalar, a flow collection. */
  #readContent(trimmed: string, indent: number, isItem: boolean, lineNo: number): void {
    let content = trimmed;
    let contentCol = indent;
    if (isItem) {
      const after = trimmed.slice(1);
      const pad = after.length - after.trimStart().length;
      content = after.trimStart();
      contentCol = indent + 1 + pad;
      if (isEmptyValue(content)) {
        this.#opener = { col: indent, line: lineNo };
        return;
      }
      // `- key: value` opens the item's mapping at the key's column.
      const itemKey = KEY.exec(content);
      if (itemKey) {
        const name = itemKey[0].slice(0, -1).trimEnd().replace(/:$/, '');
        this.#stack.push({ col: contentCol, kind: 'map', line: lineNo, itemKey: name });
      }
    }
    const key = KEY.exec(content);
    const value = key ? content.slice(key[0].length).trim() : content;
    if (key && isEmptyValue(value)) this.#opener = { col: contentCol, line: lineNo };
    if (BLOCK_SCALAR.test(content)) this.#skipDeeperThan = contentCol;
    this.#flowDepth = Math.max(0, bracketBalance(value));
  }
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
