import { describe, expect, it } from 'vitest';
import {
  closingScanCharacters,
  type Block,
  type Inline,
  MAX_BLOCKQUOTE_DEPTH,
  MAX_INLINE_DEPTH,
  MAX_MARKDOWN_CHARS,
  parseInlines,
  parseMarkdown,
  plainText,
  safeHref,
} from '../../../src/apps/web/lib/markdown.ts';

const text = (t: string): Inline => ({ kind: 'text', text: t });

/** Every link target in a tree. */
function hrefs(blocks: readonly Block[]): string[] {
  const out: string[] = [];
  const walkInline = (nodes: readonly Inline[]): void => {
    for (const n of nodes) {
      if (n.kind === 'link') out.push(n.href);
      if (n.kind === 'em' || n.kind === 'strong' || n.kind === 'link') walkInline(n.children);
    }
  };
  const walk = (bs: readonly Block[]): void => {
    for (const b of bs) {
      if (b.kind === 'paragraph' || b.kind === 'heading') walkInline(b.children);
      if (b.kind === 'list') b.items.forEach(walkInline);
      if (b.kind === 'blockquote') walk(b.children);
    }
  };
  walk(blocks);
  return out;
}

describe('markdown blocks', () => {
  it('reads paragraphs, headings, lists, code, quotes and rules', () => {
    const { blocks } = parseMarkdown(
      '# Title\n\nFirst *para*.\n\n- one\n- **two**\n\n3. c\n4. d\n\n```js\nlet x = 1 < 2;\n```\n\n> said\n> twice\n\n---',
    );
    expect(blocks.map((b) => b.kind)).toEqual([
      'heading',
      'paragraph',
      'list',
      'list',
      'code',
      'blockquote',
      'rule',
    ]);
    expect(blocks[0]).toEqual({ kind: 'heading', level: 1, children: [text('Title')] });
    expect(blocks[1]).toEqual({
      kind: 'paragraph',
      children: [text('First '), { kind: 'em', children: [text('para')] }, text('.')],
    });
    expect(blocks[2]).toEqual({
      kind: 'list',
      ordered: false,
      start: 1,
      items: [[text('one')], [{ kind: 'strong', children: [text('two')] }]],
    });
    expect(blocks[3]).toMatchObject({ kind: 'list', ordered: true, start: 3 });
    expect(blocks[4]).toEqual({ kind: 'code', text: 'let x = 1 < 2;' });
    expect(blocks[5]).toEqual({
      kind: 'blockquote',
      children: [{ kind: 'paragraph', children: [text('said twice')] }],
    });
  });

  it('reflows a single newline and breaks the line on two trailing spaces or a backslash', () => {
    expect(parseMarkdown('wrapped by\nhand').blocks[0]).toEqual({
      kind: 'paragraph',
      children: [text('wrapped by hand')],
    });
    for (const source of ['line one  \nline two', 'line one\\\nline two']) {
      expect(parseMarkdown(source).blocks[0], source).toEqual({
        kind: 'paragraph',
        children: [text('line one'), { kind: 'br' }, text('line two')],
      });
    }
  });

  it('runs an unclosed fence to the end (text streamed so far)', () => {
    expect(parseMarkdown('```\npartial *not em*').blocks).toEqual([
      { kind: 'code', text: 'partial *not em*' },
    ]);
  });

  it('reads CRLF text like LF text', () => {
    expect(parseMarkdown('a\r\nb\r\n\r\nc')).toEqual(parseMarkdown('a\nb\n\nc'));
  });
});

describe('markdown inlines', () => {
  it('reads nested emphasis, code and escapes', () => {
    expect(parseInlines('*a **b** c*')).toEqual([
      { kind: 'em', children: [text('a '), { kind: 'strong', children: [text('b')] }, text(' c')] },
    ]);
    expect(parseInlines('use `a*b*c` here')).toEqual([
      text('use '),
      { kind: 'code', text: 'a*b*c' },
      text(' here'),
    ]);
    expect(parseInlines('\\*not em\\*')).toEqual([text('*not em*')]);
  });

  it('leaves unmatched markers and snake_case alone', () => {
    expect(parseInlines('2 * 3 * 4')).toEqual([text('2 * 3 * 4')]);
    expect(parseInlines('max_hp and min_hp')).toEqual([text('max_hp and min_hp')]);
    expect(parseInlines('**open')).toEqual([text('**open')]);
  });

  it(`opens spans up to MAX_INLINE_DEPTH (${MAX_INLINE_DEPTH}) and keeps deeper markers as text`, () => {
    // The depth argument is the nesting the caller is already in.
    expect(parseInlines('*x*', MAX_INLINE_DEPTH - 1)).toEqual([{ kind: 'em', children: [text('x')] }]);
    expect(parseInlines('*x*', MAX_INLINE_DEPTH)).toEqual([text('*x*')]);
    expect(parseInlines('[x](https://a.example/)', MAX_INLINE_DEPTH)).toEqual([
      text('[x](https://a.example/)'),
    ]);
    expect(parseInlines('**a *b* c**')).toEqual([
      { kind: 'strong', children: [text('a '), { kind: 'em', children: [text('b')] }, text(' c')] },
    ]);
  });
});

describe('hostile markdown', () => {
  it('never produces HTML: tags stay literal text', () => {
    const { blocks } = parseMarkdown('<script>alert(1)</script> <img src=x onerror=alert(1)>');
    expect(blocks).toEqual([
      { kind: 'paragraph', children: [text('<script>alert(1)</script> <img src=x onerror=alert(1)>')] },
    ]);
  });

  it('drops unsafe link targets and keeps the label', () => {
    const hostile = [
      '[a](javascript:alert(1))',
      '[a](JaVaScRiPt:alert(1))',
      '[a](data:text/html;base64,PHNjcmlwdD4=)',
      '[a](vbscript:msgbox)',
      '[a](//evil.example/x)',
      '[a](/relative)',
      '[a](java\tscript:alert(1))',
      '[a](https://ok.example/"onmouseover="x)',
      '[a](javascript:void)',
    ];
    for (const source of hostile) expect(hrefs(parseMarkdown(source).blocks), source).toEqual([]);
    // A well-formed link with an unsafe target keeps its label only; the target is not shown.
    expect(plainText(parseMarkdown('[the door](javascript:void)').blocks)).toBe('the door');
  });

  it('keeps http(s) and mailto links', () => {
    expect(
      hrefs(parseMarkdown('[site](https://lanternmere.example/map) [m](mailto:a@b.example)').blocks),
    ).toEqual(['https://lanternmere.example/map', 'mailto:a@b.example']);
    expect(safeHref(' https://a.example/ ')).toBe('https://a.example/');
    expect(safeHref('https://a.example/\\@evil')).toBeUndefined();
    expect(safeHref('https://a.example/\u0000')).toBeUndefined();
  });

  it(`nests blockquotes up to MAX_BLOCKQUOTE_DEPTH (${MAX_BLOCKQUOTE_DEPTH}), deeper markers stay text`, () => {
    const quoteDepth = (blocks: readonly Block[]): number =>
      Math.max(0, ...blocks.map((b) => (b.kind === 'blockquote' ? 1 + quoteDepth(b.children) : 0)));
    expect(quoteDepth(parseMarkdown(`${'>'.repeat(MAX_BLOCKQUOTE_DEPTH)} deep`).blocks)).toBe(
      MAX_BLOCKQUOTE_DEPTH,
    );
    const past = parseMarkdown(`${'> '.repeat(MAX_BLOCKQUOTE_DEPTH + 1)}deep`).blocks;
    expect(quoteDepth(past)).toBe(MAX_BLOCKQUOTE_DEPTH);
    expect(plainText(past)).toBe('> deep');
  });

  it(`cuts text longer than MAX_MARKDOWN_CHARS (${MAX_MARKDOWN_CHARS}) and says so`, () => {
    const at = parseMarkdown('a'.repeat(MAX_MARKDOWN_CHARS));
    expect(at.truncated).toBe(false);
    expect(plainText(at.blocks)).toHaveLength(MAX_MARKDOWN_CHARS);
    const past = parseMarkdown('a'.repeat(MAX_MARKDOWN_CHARS + 1));
    expect(past.truncated).toBe(true);
    expect(plainText(past.blocks)).toHaveLength(MAX_MARKDOWN_CHARS);
  });

  it('stays linear on pathological emphasis: the closing-marker searches pass over each character a bounded number of times', () => {
    // Openers that can never close (each later marker follows a space): a parser that searched again from
    // every opener would pass over n²/2 characters. Counted, not timed. The mixed runs do close some spans.
    const cases: Array<[unit: string, staysText: boolean]> = [
      ['*a ', true],
      ['**a ', true],
      ['_a ', true],
      ['__a ', true],
      ['a *', true],
      ['*a **b ', false],
      ['**a *b ', false],
    ];
    for (const [unit, staysText] of cases) {
      for (const n of [1_000, 12_000]) {
        const source = unit.repeat(n);
        const before = closingScanCharacters();
        const { blocks } = parseMarkdown(source);
        const scanned = closingScanCharacters() - before;
        if (staysText) expect(plainText(blocks).trimEnd(), unit).toBe(source.trimEnd());
        expect(scanned, `${JSON.stringify(unit)} × ${n}`).toBeLessThanOrEqual(4 * source.length);
      }
    }
  });

  it('reads __proto__ as the strong emphasis it is, other object member names as plain words, and pollutes nothing', () => {
    expect(parseInlines('__proto__ constructor')).toEqual([
      { kind: 'strong', children: [text('proto')] },
      text(' constructor'),
    ]);
    for (const word of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype']) {
      expect(parseInlines(`a ${word} b`)).toEqual([text(`a ${word} b`)]);
    }
    expect(parseInlines('\\_\\_proto\\_\\_')).toEqual([text('__proto__')]);
    expect(({} as Record<string, unknown>).proto).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});
