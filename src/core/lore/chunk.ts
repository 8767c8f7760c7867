// Splits lore Markdown into chunks at `#`, `##` and `###` headings. Unlike the original (which dropped
// it), text before the first heading is a chunk too; `####` and deeper stay in the body, and lines
// inside fenced code blocks are never headings.

import { estimateTokens } from '../tokens.ts';
import { runUnsliced, UNMETERED, type WorkMeter } from '../turn-budget.ts';
import { LoreError } from './errors.ts';
import { MAX_LORE_CHARS, MAX_LORE_CHUNKS } from './limits.ts';

export interface LoreChunk {
  /** `L<line>`: unique, since every chunk starts on its own line. */
  readonly id: string;
  /** The heading's title ('' for text before the first heading). */
  readonly heading: string;
  /** Titles of the enclosing headings, outermost first, ending with this one. */
  readonly path: readonly string[];
  /** What a lookup returns: the heading line as written, then the trimmed body. */
  readonly text: string;
  readonly tokens: number;
  /** 1-based line of the heading (or of the first text before any heading). */
  readonly line: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

const isBlank = (code: number) => code === 32 || code === 9;

/**
 * A `#`, `##` or `###` heading's level and title (an optional closing run of `#` dropped), or undefined.
 * One pass from each end: a regex here backtracked quadratically on a heading padded with spaces.
 */
export function parseHeading(line: string): { level: number; title: string } | undefined {
  let level = 0;
  while (level < line.length && line.charCodeAt(level) === 35) level++;
  if (level < 1 || level > 3 || !isBlank(line.charCodeAt(level))) return undefined;
  let start = level;
  while (isBlank(line.charCodeAt(start))) start++;
  if (start === line.length || /\s/.test(line[start]!) || /[\n\r\u2028\u2029]/.test(line)) return undefined;
  let end = line.length;
  while (isBlank(line.charCodeAt(end - 1))) end--;
  // A closing sequence: `#`s after a blank, with some title before the blank.
  let hashes = end;
  while (hashes > start && line.charCodeAt(hashes - 1) === 35) hashes--;
  if (hashes < end && hashes > start + 1 && isBlank(line.charCodeAt(hashes - 1))) {
    end = hashes;
    while (isBlank(line.charCodeAt(end - 1))) end--;
  }
  return { level, title: line.slice(start, end) };
}

interface Open {
  heading: string;
  headingLine: string;
  path: string[];
  line: number;
  body: string[];
}

export function chunkLore(markdown: string): LoreChunk[] {
  return runUnsliced(chunkLoreSteps(markdown, UNMETERED));
}

/** Lines chunked between two looks at the meter. */
const LINES_PER_LOOK = 1_024;

/** `chunkLore` as a sliced loop: it yields between lines whenever `meter` says its slice is due. */
export function* chunkLoreSteps(
  markdown: string,
  meter: WorkMeter,
): Generator<undefined, LoreChunk[], undefined> {
  if (markdown.length > MAX_LORE_CHARS) {
    throw new LoreError(
      'LORE_TOO_LARGE',
      `lore is ${markdown.length} characters, the limit is ${MAX_LORE_CHARS} (MAX_LORE_CHARS)`,
    );
  }
  const chunks: LoreChunk[] = [];
  const trail: string[] = []; // trail[level - 1] = title of the open heading at that level
  let fence: string | undefined;
  let open: Open = { heading: '', headingLine: '', path: [], line: 1, body: [] };

  const close = (): void => {
    const body = open.body.join('\n').trim();
    if (open.headingLine === '' && body === '') return; // nothing before the first heading
    const text =
      open.headingLine === '' ? body : body === '' ? open.headingLine : `${open.headingLine}\n${body}`;
    if (chunks.length === MAX_LORE_CHUNKS) {
      throw new LoreError(
        'LORE_TOO_MANY_CHUNKS',
        `lore has more than ${MAX_LORE_CHUNKS} sections (MAX_LORE_CHUNKS); from line ${open.line} on`,
      );
    }
    let line = open.line;
    if (open.headingLine === '') line += open.body.findIndex((l) => l.trim() !== '');
    chunks.push({
      id: `L${line}`,
      heading: open.heading,
      path: open.path,
      text,
      tokens: estimateTokens(text),
      line,
    });
  };

  const lines = markdown.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (i % LINES_PER_LOOK === 0 && meter.due()) yield;
    const lineText = lines[i]!;
    const fenceMatch = FENCE.exec(lineText);
    if (fenceMatch) {
      const marker = fenceMatch[1]!;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      open.body.push(lineText);
      continue;
    }
    const heading = fence === undefined ? parseHeading(lineText) : undefined;
    if (heading === undefined) {
      open.body.push(lineText);
      continue;
    }
    close();
    const { level } = heading;
    const title = heading.title.trim();
    trail.length = level - 1;
    trail[level - 1] = title;
    // A `###` directly under a `#` leaves a hole at level 2; the path skips it.
    const path = trail.filter((t) => t !== undefined);
    open = { heading: title, headingLine: lineText.trim(), path, line: i + 1, body: [] };
  }
  close();
  return chunks;
}
