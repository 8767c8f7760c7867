import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkLore, parseHeading } from '../../../src/core/lore/chunk.ts';
import { LoreError } from '../../../src/core/lore/errors.ts';
import { MAX_LORE_CHARS, MAX_LORE_CHUNKS } from '../../../src/core/lore/limits.ts';
import { estimateTokens } from '../../../src/core/tokens.ts';

describe('chunkLore', () => {
  it('splits on #, ## and ###; text before the first heading is a chunk too', () => {
    const chunks = chunkLore(
      [
        'Intro text.',
        '',
        '# World',
        'The world.',
        '## Town',
        'A town.',
        '### Inn',
        'An inn.',
        '## Woods',
        'Trees.',
      ].join('\n'),
    );
    expect(chunks.map((c) => [c.id, c.heading, c.path, c.text, c.line])).toEqual([
      ['L1', '', [], 'Intro text.', 1],
      ['L3', 'World', ['World'], '# World\nThe world.', 3],
      ['L5', 'Town', ['World', 'Town'], '## Town\nA town.', 5],
      ['L7', 'Inn', ['World', 'Town', 'Inn'], '### Inn\nAn inn.', 7],
      ['L9', 'Woods', ['World', 'Woods'], '## Woods\nTrees.', 9],
    ]);
    for (const chunk of chunks) expect(chunk.tokens).toBe(estimateTokens(chunk.text));
  });

  it('keeps #### and deeper inside the body', () => {
    const chunks = chunkLore('## Goblins\nSmall.\n#### Habits\nThey steal.\n##### Deeper\nx');
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.text).toBe('## Goblins\nSmall.\n#### Habits\nThey steal.\n##### Deeper\nx');
  });

  it('empty or blank lore has no chunks; a heading with no body is still a chunk', () => {
    expect(chunkLore('')).toEqual([]);
    expect(chunkLore('\n  \n\t\n')).toEqual([]);
    expect(chunkLore('# Only a title').map((c) => c.text)).toEqual(['# Only a title']);
  });

  it('a pre-heading chunk starts at its first non-blank line', () => {
    expect(chunkLore('\n\n  Hello\n# A\nb')[0]).toMatchObject({ id: 'L3', line: 3, text: 'Hello' });
  });

  it('lines inside fenced code blocks are never headings; #word and closing hashes are handled', () => {
    const chunks = chunkLore('# Spells\n```\n# not a heading\n```\n#hashtag is body\n## Runes ##\nCarved.');
    expect(chunks.map((c) => c.heading)).toEqual(['Spells', 'Runes']);
    expect(chunks[0]!.text).toContain('# not a heading');
    expect(chunks[0]!.text).toContain('#hashtag is body');
  });

  it('handles CRLF line ends and a ### directly under a #', () => {
    const chunks = chunkLore('# A\r\nx\r\n### C\r\ny');
    expect(chunks.map((c) => c.path)).toEqual([['A'], ['A', 'C']]);
    expect(chunks[1]!.text).toBe('### C\ny');
  });

  it('size: at MAX_LORE_CHARS is accepted, one more character is refused', () => {
    const atLimit = `# Big\n${'a'.repeat(MAX_LORE_CHARS - 6)}`;
    expect(atLimit.length).toBe(MAX_LORE_CHARS);
    expect(chunkLore(atLimit)).toHaveLength(1);
    expect(() => chunkLore(`${atLimit}a`)).toThrow(LoreError);
    expect(() => chunkLore(`${atLimit}a`)).toThrow(/MAX_LORE_CHARS/);
  });

  it('sections: MAX_LORE_CHUNKS are accepted, one more is refused', () => {
    const atLimit = '# s\n'.repeat(MAX_LORE_CHUNKS);
    expect(chunkLore(atLimit)).toHaveLength(MAX_LORE_CHUNKS);
    expect(() => chunkLore(`${atLimit}# s\n`)).toThrow(/MAX_LORE_CHUNKS/);
  });
});

describe('headings are parsed in one pass', () => {
  // The pattern headings used to be read with (quadratic on a heading padded with blanks); the parser must
  // read every line the way it did.
  const OLD_HEADING = /^(#{1,3})[ \t]+(\S.*?)(?:[ \t]+#+)?[ \t]*$/;

  it('reads every line as the old pattern did', () => {
    const alphabet = fc.constantFrom('#', ' ', '\t', 'a', 'b', '\u00a0', '\r', '\u2028', 'x');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 14 }), (chars) => {
        const line = chars.join('');
        const old = OLD_HEADING.exec(line);
        const parsed = parseHeading(line);
        if (old === null) expect(parsed).toBeUndefined();
        else expect(parsed).toEqual({ level: old[1]!.length, title: old[2] });
      }),
      { numRuns: 5_000 },
    );
  });

  it('a heading padded with 100,000 blanks is one chunk with its title', () => {
    const lore = `# a${' '.repeat(100_000)}x\nbody\n## b${'\t'.repeat(100_000)}##\n`;
    const chunks = chunkLore(lore);
    expect(chunks.map((c) => c.path)).toEqual([
      ['a' + ' '.repeat(100_000) + 'x'],
      ['a' + ' '.repeat(100_000) + 'x', 'b'],
    ]);
  });
});
