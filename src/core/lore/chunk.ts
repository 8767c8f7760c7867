// Splits lore Markdown into chunks at `#`, `##` and `###` headings. Unlike the original (which dropped
// it), text before the first heading is a chunk too; `####` and deeper stay in the body, and lines
// inside fenced code blocks are never headings.

import { estimateTokens } from '../tokens.ts';
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

const HEADING = /^(#{1,3})[ \t]+(\S.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Open {
  heading: string;
  headingLine: string;
  path: string[];
  line: number;
  body: string[];
}

export function chunkLore(markdown: string): LoreChunk[] {
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
    const lineText = lines[i]!;
    const fenceMatch = FENCE.exec(lineText);
    if (fenceMatch) {
      const marker = fenceMatch[1]!;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      open.body.push(lineText);
      continue;
    }
    const heading = fence === undefined ? HEADING.exec(lineText) : null;
    if (!heading) {
      open.body.push(lineText);
      continue;
    }
    close();
    const level = heading[1]!.length;
    const title = heading[2]!.trim();
    trail.length = level - 1;
    trail[level - 1] = title;
    // A `###` directly under a `#` leaves a hole at level 2; the path skips it.
    const path = trail.filter((t) => t !== undefined);
    open = { heading: title, headingLine: lineText.trim(), path, line: i + 1, body: [] };
  }
  close();
  return chunks;
}
