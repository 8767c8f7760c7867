// A small Markdown reader for narration. Model text is untrusted, so this never produces HTML: it produces
// a typed tree that the view renders with Preact (which escapes every string). Raw HTML stays literal text,
// and a link keeps its target only when it is http(s) or mailto; anything else (`javascript:`, `data:`,
// relative paths) renders as plain text.
//
// Supported: paragraphs (a single newline is a soft break), hard line breaks (two trailing spaces or a
// backslash before the newline), ATX headings, *emphasis*, **strong**, `code`, fenced
// code blocks, > blockquotes, - / * / + and 1. lists, --- rules, [links](https://…).

/** Characters read from one message; the rest is cut (a message this long is a bug upstream). */
export const MAX_MARKDOWN_CHARS = 100_000;
/** Nesting of blockquotes; deeper `>` markers stay literal text. */
export const MAX_BLOCKQUOTE_DEPTH = 4;
/** Nesting of emphasis/strong/link spans; deeper markers stay literal text. */
export const MAX_INLINE_DEPTH = 6;

export type Inline =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'em'; readonly children: readonly Inline[] }
  | { readonly kind: 'strong'; readonly children: readonly Inline[] }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'br' }
  | { readonly kind: 'link'; readonly href: string; readonly children: readonly Inline[] };

export type Block =
  | { readonly kind: 'paragraph'; readonly children: readonly Inline[] }
  | { readonly kind: 'heading'; readonly level: 1 | 2 | 3 | 4 | 5 | 6; readonly children: readonly Inline[] }
  | {
      readonly kind: 'list';
      readonly ordered: boolean;
      readonly start: number;
      readonly items: readonly (readonly Inline[])[];
    }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'blockquote'; readonly children: readonly Block[] }
  | { readonly kind: 'rule' };

export interface ParsedMarkdown {
  readonly blocks: readonly Block[];
  /** True when the input was longer than MAX_MARKDOWN_CHARS and was cut. */
  readonly truncated: boolean;
}

const SAFE_LINK = /^(?:https?:\/\/|mailto:)[^\s<>"'`]+$/i;

/** The link target when it is safe to follow, else undefined. */
export function safeHref(raw: string): string | undefined {
  const href = raw.trim();
  // Control characters and backslashes are how browsers get tricked into other schemes.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point
  if (/[\u0000-\u001f\u007f\\]/.test(href)) return undefined;
  return SAFE_LINK.test(href) ? href : undefined;
}

export function parseMarkdown(source: string): ParsedMarkdown {
  const truncated = source.length > MAX_MARKDOWN_CHARS;
  const text = (truncated ? source.slice(0, MAX_MARKDOWN_CHARS) : source).replace(/\r\n?/g, '\n');
  return { blocks: parseBlocks(text.split('\n'), 0), truncated };
}

const FENCE = /^ {0,3}(```+|~~~+)\s*([\w-]*)\s*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const BULLET = /^ {0,3}[-*+][ \t]+(.*)$/;
const ORDERED = /^ {0,3}(\d{1,9})[.)][ \t]+(.*)$/;
const QUOTE = /^ {0,3}>[ \t]?(.*)$/;

function parseBlocks(lines: readonly string[], quoteDepth: number): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length > 0)
      blocks.push({ kind: 'paragraph', children: parseInlines(paragraph.join('\n')) });
    paragraph = [];
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      flush();
      i++;
      continue;
    }
    const read = readBlock(lines, i, quoteDepth);
    if (read === null) {
      paragraph.push(line);
      i++;
      continue;
    }
    flush();
    blocks.push(read.block);
    i = read.next;
  }
  flush();
  return blocks;
}

/** A block read from the lines: the block and the index of the first line after it. */
interface BlockRead {
  readonly block: Block;
  readonly next: number;
}

/** The block that starts at line `i`, or null when the line is paragraph text. */
function readBlock(lines: readonly string[], i: number, quoteDepth: number): BlockRead | null {
  const line = lines[i] ?? '';
  const fence = FENCE.exec(line);
  if (fence) return readFence(lines, i, fence[1] ?? '```');
  const heading = HEADING.exec(line);
  if (heading) {
    const level = (heading[1] ?? '#').length as 1 | 2 | 3 | 4 | 5 | 6;
    return { block: { kind: 'heading', level, children: parseInlines(heading[2] ?? '') }, next: i + 1 };
  }
  if (RULE.test(line)) return { block: { kind: 'rule' }, next: i + 1 };
  if (QUOTE.test(line) && quoteDepth < MAX_BLOCKQUOTE_DEPTH) return readQuote(lines, i, quoteDepth);
  if (BULLET.test(line)) return readList(lines, i, BULLET, 1);
  const ordered = ORDERED.exec(line);
  if (ordered) return readList(lines, i, ORDERED, Number.parseInt(ordered[1] ?? '1', 10));
  return null;
}

function readFence(lines: readonly string[], from: number, marker: string): BlockRead {
  const body: string[] = [];
  let i = from + 1;
  while (i < lines.length && !(lines[i] ?? '').trim().startsWith(marker)) {
    body.push(lines[i] ?? '');
    i++;
  }
  // Past the closing fence (or the end of the text: an unclosed fence runs to the end).
  return { block: { kind: 'code', text: body.join('\n') }, next: i + 1 };
}

function readQuote(lines: readonly string[], from: number, quoteDepth: number): BlockRead {
  const inner: string[] = [];
  let i = from;
  while (i < lines.length) {
    const m = QUOTE.exec(lines[i] ?? '');
    if (!m) break;
    inner.push(m[1] ?? '');
    i++;
  }
  return { block: { kind: 'blockquote', children: parseBlocks(inner, quoteDepth + 1) }, next: i };
}

/** A list of `pattern`'s items (BULLET's text is group 1, ORDERED's group 2), each with its indented lines. */
function readList(lines: readonly string[], from: number, pattern: RegExp, start: number): BlockRead {
  const ordered = pattern === ORDERED;
  const items: Inline[][] = [];
  let current: string[] = [];
  let i = from;
  while (i < lines.length) {
    const l = lines[i] ?? '';
    const m = pattern.exec(l);
    if (m) {
      if (current.length > 0) items.push(parseInlines(current.join('\n')));
      current = [(ordered ? m[2] : m[1]) ?? ''];
      i++;
    } else if (l.trim() !== '' && /^\s+/.test(l) && current.length > 0) {
      current.push(l.trim()); // an indented continuation line belongs to the item
      i++;
    } else break;
  }
  if (current.length > 0) items.push(parseInlines(current.join('\n')));
  return { block: { kind: 'list', ordered, start, items }, next: i };
}

/** Characters a backslash may escape (CommonMark's ASCII punctuation). */
const ESCAPABLE = new Set('\\`*_{}[]()#+-.!>~|<"\''.split(''));

/** The inlines read so far, with adjacent text merged into one node. */
class InlineSink {
  private readonly out: Inline[] = [];
  /** Text not yet pushed as a node (the newline rule looks at its trailing spaces). */
  buffer = '';

  text(s: string): void {
    this.buffer += s;
  }

  push(node: Inline): void {
    this.flushText();
    this.out.push(node);
  }

  finish(): Inline[] {
    this.flushText();
    return this.out;
  }

  private flushText(): void {
    if (this.buffer.length > 0) {
      const last = this.out[this.out.length - 1];
      if (last?.kind === 'text')
        this.out[this.out.length - 1] = { kind: 'text', text: last.text + this.buffer };
      else this.out.push({ kind: 'text', text: this.buffer });
    }
    this.buffer = '';
  }
}

/** One inline scan: the text, its nesting depth, where the output goes, and the failed closing searches. */
interface InlineScan {
  readonly text: string;
  readonly depth: number;
  readonly sink: InlineSink;
  // Where a search for each closing marker already failed: later openers cannot succeed either (their
  // candidates are a subset), which keeps a run of unmatched markers linear instead of quadratic.
  readonly failedFrom: Map<string, number>;
}

export function parseInlines(text: string, depth = 0): Inline[] {
  const scan: InlineScan = { text, depth, sink: new InlineSink(), failedFrom: new Map() };
  let i = 0;
  while (i < text.length) i = readInline(scan, i);
  return scan.sink.finish();
}

/** Reads the inline that starts at `i` into the sink; returns where the next one starts. */
function readInline(scan: InlineScan, i: number): number {
  const c = scan.text[i] ?? '';
  switch (c) {
    case '\\':
      return readEscape(scan, i);
    case '\n':
      return readNewline(scan, i);
    case '`':
      return readCodeSpan(scan, i);
    case '*':
    case '_':
      return readEmphasis(scan, i, c);
    case '[':
      return readLink(scan, i);
    default:
      scan.sink.text(c);
      return i + 1;
  }
}

function readEscape({ text, sink }: InlineScan, i: number): number {
  const next = text[i + 1];
  if (next === '\n') {
    sink.push({ kind: 'br' });
    return i + 2;
  }
  if (next !== undefined && ESCAPABLE.has(next)) {
    sink.text(next);
    return i + 2;
  }
  sink.text('\\');
  return i + 1;
}

function readNewline({ sink }: InlineScan, i: number): number {
  // CommonMark: two trailing spaces make a hard break; otherwise a newline inside a paragraph is a
  // soft break (a space), so text an author wrapped by hand reflows.
  const hard = / {2,}$/.test(sink.buffer);
  sink.buffer = sink.buffer.replace(/ +$/, '');
  if (hard) sink.push({ kind: 'br' });
  else sink.text(' ');
  return i + 1;
}

function readCodeSpan({ text, sink }: InlineScan, i: number): number {
  const run = /^`+/.exec(text.slice(i))?.[0] ?? '`';
  const close = text.indexOf(run, i + run.length);
  if (close > i) {
    sink.push({ kind: 'code', text: text.slice(i + run.length, close).replace(/\n/g, ' ') });
    return close + run.length;
  }
  sink.text(run);
  return i + run.length;
}

function readEmphasis(scan: InlineScan, i: number, c: '*' | '_'): number {
  const { text, depth, sink } = scan;
  if (depth >= MAX_INLINE_DEPTH) {
    sink.text(c);
    return i + 1;
  }
  const double = text[i + 1] === c;
  const marker = double ? c + c : c;
  const span = findClosing(text, i + marker.length, marker, scan.failedFrom);
  // `_` inside a word (snake_case) is not emphasis.
  const wordy = c === '_' && /\w/.test(text[i - 1] ?? '');
  if (span !== -1 && !wordy) {
    const inner = text.slice(i + marker.length, span);
    sink.push({ kind: double ? 'strong' : 'em', children: parseInlines(inner, depth + 1) });
    return span + marker.length;
  }
  sink.text(marker);
  return i + marker.length;
}

function readLink({ text, depth, sink }: InlineScan, i: number): number {
  const link =
    depth < MAX_INLINE_DEPTH ? /^\[([^\]\n]{1,500})\]\(([^()\s]{1,2000})\)/.exec(text.slice(i)) : null;
  if (!link) {
    sink.text('[');
    return i + 1;
  }
  const href = safeHref(link[2] ?? '');
  const children = parseInlines(link[1] ?? '', depth + 1);
  if (href !== undefined) sink.push({ kind: 'link', href, children });
  // An unsafe target: keep the label, drop the link (the target is not shown either).
  else for (const child of children) sink.push(child);
  return i + link[0].length;
}

/** Index of the closing marker for a span opened just before `from`, or -1. */
function findClosing(text: string, from: number, marker: string, failedFrom: Map<string, number>): number {
  // The opening marker must be followed by a non-space, the closing one preceded by one.
  if (from >= text.length || /\s/.test(text[from] ?? ' ')) return -1;
  const failed = failedFrom.get(marker);
  if (failed !== undefined && from >= failed) return -1;
  const found = scanClosing(text, from, marker, failedFrom);
  if (found === -1) failedFrom.set(marker, Math.min(failed ?? from, from));
  return found;
}

/**
 * Characters the closing-marker searches have passed over since the module loaded: the test of linear time
 * compares it with the text's length (a count, unlike a clock, is the same on a loaded machine).
 */
let closingScanWork = 0;
export function closingScanCharacters(): number {
  return closingScanWork;
}

function scanClosing(text: string, from: number, marker: string, failedFrom: Map<string, number>): number {
  let i = from;
  while (i < text.length) {
    const at = text.indexOf(marker, i);
    closingScanWork += (at === -1 ? text.length : at + marker.length) - i;
    if (at === -1) return -1;
    if (text[at - 1] === '\\') {
      i = at + marker.length;
      continue;
    }
    // For a single marker, skip over a double one (it belongs to a nested strong span).
    if (marker.length === 1 && text[at + 1] === marker) {
      const inner = findClosing(text, at + 2, marker + marker, failedFrom);
      if (inner !== -1) {
        i = inner + 2;
        continue;
      }
    }
    if (at > from && !/\s/.test(text[at - 1] ?? ' ')) return at;
    i = at + marker.length;
  }
  return -1;
}

/** The plain text of a tree (for the live region, titles and tests). */
export function plainText(blocks: readonly Block[]): string {
  const inline = (nodes: readonly Inline[]): string =>
    nodes
      .map((n) => {
        switch (n.kind) {
          case 'text':
          case 'code':
            return n.text;
          case 'br':
            return '\n';
          case 'em':
          case 'strong':
          case 'link':
            return inline(n.children);
          default: {
            const unreachable: never = n;
            return String(unreachable);
          }
        }
      })
      .join('');
  return blocks
    .map((b) => {
      switch (b.kind) {
        case 'paragraph':
        case 'heading':
          return inline(b.children);
        case 'list':
          return b.items.map(inline).join('\n');
        case 'code':
          return b.text;
        case 'blockquote':
          return plainText(b.children);
        case 'rule':
          return '';
        default: {
          const unreachable: never = b;
          return String(unreachable);
        }
      }
    })
    .join('\n\n');
}
