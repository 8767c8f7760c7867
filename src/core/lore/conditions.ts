// Lore that follows the state: a `bot_lore.md` section whose first line under its heading is
// `when: @ <condition>` is in play exactly while the condition holds (docs/cartridges.md, "Lore that
// follows the state"). This file only finds those lines and takes them out of the sections' text; the
// condition is an expression of the rules language, compiled and evaluated by the cartridge layer
// (src/core/cartridge/lore-conditions.ts), which this module may not import.

import { estimateTokens } from '../tokens.ts';
import type { WorkMeter } from '../turn-budget.ts';
import { chunkLore, chunkLoreSteps, type LoreChunk } from './chunk.ts';

/** A `when:` line as written: which section it governs and where its expression starts. */
export interface LoreConditionSource {
  readonly chunkId: string;
  readonly heading: string;
  /** 1-based line of the `when:` line in `bot_lore.md`. */
  readonly line: number;
  /** 1-based column where the expression text (its `@`, if written) starts. */
  readonly col: number;
  /** The expression text after `when:`, trimmed (`@ state.x == 1`). */
  readonly text: string;
}

export interface ConditionalLore {
  /** Every section, with its `when:` line taken out of `text` (a model never reads the condition). */
  readonly chunks: readonly LoreChunk[];
  /** The sections that carry a condition, in file order. */
  readonly conditions: readonly LoreConditionSource[];
}

/** Characters of one condition (a `when:` line's text, a World Info entry's `extensions.mnesos.when`). */
export const MAX_WHEN_CHARS = 2_000;

const isBlank = (ch: string | undefined) => ch === ' ' || ch === '\t';

/**
 * A `when:` line: the text before the condition (indent, `when:`, blanks) and the condition without its
 * trailing blanks. A scan, not a pattern: lore lines are untrusted and may be long.
 */
function whenLine(line: string): { readonly prefix: string; readonly text: string } | undefined {
  let i = 0;
  while (isBlank(line[i])) i++;
  if (!line.startsWith('when:', i)) return undefined;
  let start = i + 'when:'.length;
  while (isBlank(line[start])) start++;
  let end = line.length;
  while (end > start && isBlank(line[end - 1])) end--;
  return { prefix: line.slice(0, start), text: line.slice(start, end) };
}

/**
 * Finds the `when:` line of each section: the first non-blank line under a heading. Text before the first
 * heading has no heading to sit under, so a `when:` there is plain text.
 */
export function splitLoreConditions(markdown: string, chunks: readonly LoreChunk[]): ConditionalLore {
  const lines = markdown.split(/\r?\n/);
  const conditions: LoreConditionSource[] = [];
  const out = chunks.map((chunk) => {
    if (chunk.heading === '') return chunk;
    let at = chunk.line; // 0-based index of the line after the heading
    while (at < lines.length && lines[at]!.trim() === '') at++;
    const match = at < lines.length ? whenLine(lines[at]!) : undefined;
    if (match === undefined) return chunk;
    conditions.push({
      chunkId: chunk.id,
      heading: chunk.heading,
      line: at + 1,
      col: match.prefix.length + 1,
      text: match.text,
    });
    // The chunk's text is its heading line, a newline and its trimmed body, whose first line is this one.
    const [headingLine, , ...rest] = chunk.text.split('\n');
    const body = rest.join('\n').trim();
    const text = body === '' ? headingLine! : `${headingLine}\n${body}`;
    return { ...chunk, text, tokens: estimateTokens(text) };
  });
  return { chunks: out, conditions };
}

/** `chunkLore` and `splitLoreConditions` in one step. */
export function chunkConditionalLore(markdown: string): ConditionalLore {
  return splitLoreConditions(markdown, chunkLore(markdown));
}

/** `chunkConditionalLore` with the chunking as a sliced loop (chunk.ts, chunkLoreSteps). */
export function* chunkConditionalLoreSteps(
  markdown: string,
  meter: WorkMeter,
): Generator<undefined, ConditionalLore, undefined> {
  return splitLoreConditions(markdown, yield* chunkLoreSteps(markdown, meter));
}
