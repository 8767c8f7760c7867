// Markdown emphasis in the terminal (src/apps/cli/play/emphasis.ts): styled like the web's, asterisks gone,
// also when the text streams in pieces; stars that are not emphasis stay.
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { EmphasisStyler, renderEmphasis } from '../../../src/apps/cli/play/emphasis.ts';

const on = pc.createColors(true);
const off = pc.createColors(false);

describe('emphasis in the terminal', () => {
  it('renders *italic* and **bold** as styles, and drops the asterisks without colours', () => {
    expect(renderEmphasis('*she smiles* and **stays**.', on)).toBe(
      `${on.italic('she smiles')} and ${on.bold('stays')}.`,
    );
    expect(renderEmphasis('*she smiles* and **stays**.', off)).toBe('she smiles and stays.');
    expect(renderEmphasis('***both***', off)).toBe('both');
  });

  it('keeps stars that are not emphasis: arithmetic, list items, a scene break, one left open', () => {
    expect(renderEmphasis('5 * 3 = 15', off)).toBe('5 * 3 = 15');
    expect(renderEmphasis('* an item\n* another', off)).toBe('* an item\n* another');
    expect(renderEmphasis('one\n\n****\n\ntwo', off)).toBe('one\n\n****\n\ntwo');
    // Left open: closed at a paragraph break, so the next paragraph is plain.
    const [open, close] = on.italic('\u0000').split('\u0000');
    expect(renderEmphasis('*unclosed\n\nplain', on)).toBe(`${open}unclosed\n${close}\nplain`);
  });

  it('reads the same when streamed a character at a time', () => {
    const text = 'Mira *leans in*. **Quiet**, she says; 2 * 2 is four.';
    const styler = new EmphasisStyler(on);
    let out = '';
    for (const ch of text) out += styler.push(ch);
    out += styler.end();
    expect(out).toBe(renderEmphasis(text, on));
    expect(out).toContain(on.italic('leans in'));
    expect(out).toContain('2 * 2');
  });
});
