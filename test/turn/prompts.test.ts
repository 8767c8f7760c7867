// Prompt assembly: order, caps, budget, and the inclusion report.
import { describe, expect, it } from 'vitest';
import { assemblePrompt, fitMessages, type PromptSection, personaText } from '../../src/turn/prompts.ts';
import { estimateTokens } from '../../src/tokens.ts';

const section = (
  id: string,
  kind: 'static' | 'volatile',
  text: string,
  extra: Partial<PromptSection> = {},
): PromptSection => ({
  id,
  kind,
  text,
  required: false,
  why: `why ${id}`,
  ...extra,
});

describe('assemblePrompt', () => {
  it('puts static sections before volatile ones and joins system sections only', () => {
    const p = assemblePrompt(
      [
        section('state', 'volatile', 'STATE'),
        section('role', 'static', 'ROLE', { required: true }),
        section('tools', 'static', '[{"name":"x"}]', { carrier: 'tools' }),
        section('history', 'volatile', 'Player: hi', { carrier: 'messages' }),
      ],
      1000,
    );
    expect(p.sections.map((s) => s.id)).toEqual(['role', 'tools', 'state', 'history']);
    expect(p.system).toBe('ROLE\n\nSTATE');
    expect(p.sections.every((s) => s.included)).toBe(true);
    expect(p.tokens).toBe(p.sections.reduce((n, s) => n + s.tokens, 0));
    expect(p.sections[0]).toMatchObject({
      reason: 'why role',
      carrier: 'system',
      tokens: estimateTokens('ROLE'),
    });
  });

  it('reports empty sections as left out', () => {
    const p = assemblePrompt([section('persona', 'static', '  ')], 100);
    expect(p.sections[0]).toMatchObject({ included: false, reason: 'empty', tokens: 0 });
  });

  it('cuts a section to its cap (keeping the start or the end) and says so', () => {
    const text = `${'a'.repeat(200)}${'z'.repeat(200)}`;
    const start = assemblePrompt([section('s', 'volatile', text, { maxTokens: 10 })], 1000);
    expect(start.texts.get('s')).toMatch(/^a+…$/);
    expect(start.sections[0]!.tokens).toBeLessThanOrEqual(10);
    expect(start.sections[0]!.reason).toMatch(/cut from 100 to its cap of 10 tokens/);
    const end = assemblePrompt([section('s', 'volatile', text, { maxTokens: 10, keep: 'end' })], 1000);
    expect(end.texts.get('s')).toMatch(/^…z+$/);
    const exact = assemblePrompt([section('s', 'volatile', 'x'.repeat(40), { maxTokens: 10 })], 1000);
    expect(exact.texts.get('s')).toBe('x'.repeat(40)); // exactly at the cap: not cut
  });

  it('drops optional sections, last first, until the prompt fits its budget; required ones stay', () => {
    const sections = [
      section('role', 'static', 'r'.repeat(400), { required: true }),
      section('lore', 'volatile', 'l'.repeat(400)),
      section('history', 'volatile', 'h'.repeat(400)),
    ];
    const fits = assemblePrompt(sections, 300);
    expect(fits.sections.map((s) => s.included)).toEqual([true, true, true]);
    const tight = assemblePrompt(sections, 299);
    expect(tight.sections.map((s) => s.included)).toEqual([true, true, false]);
    expect(tight.sections[2]!.reason).toBe('dropped: the prompt was 300 tokens, over its budget of 299');
    const tiny = assemblePrompt(sections, 50);
    expect(tiny.sections.map((s) => s.included)).toEqual([true, false, false]);
    expect(tiny.sections[0]!.reason).toMatch(
      /required, kept although the prompt is over budget \(100 > 50\)/,
    );
    expect(tiny.tokens).toBe(100);
  });
});

describe('helpers', () => {
  it('fitMessages keeps the newest whole messages that fit', () => {
    const messages = ['one', 'two', 'three'].map((content) => ({
      role: 'user' as const,
      content: content.repeat(8),
    }));
    // 'three'×8 is 11 tokens with its separator, 'two'×8 and 'one'×8 are 7 each.
    expect(fitMessages(messages, 17).map((m) => m.content)).toEqual(['three'.repeat(8)]);
    expect(fitMessages(messages, 18).map((m) => m.content)).toEqual(['two'.repeat(8), 'three'.repeat(8)]);
    expect(fitMessages(messages, 10)).toEqual([]);
  });

  it('personaText lists the persona and is empty without one', () => {
    expect(personaText(undefined)).toBe('');
    const text = personaText({
      name: 'Mira',
      pronoun_sub: 'she',
      pronoun_obj: 'her',
      pronoun_poss: 'her',
      pronoun_poss_obj: 'hers',
      background: 'A lamplighter.',
    });
    expect(text).toContain('- Name: Mira');
    expect(text).toContain('- Pronouns: she/her/her');
    expect(text).toContain('- Background: A lamplighter.');
    expect(text).not.toContain('Appearance');
  });
});
