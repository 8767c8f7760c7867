// Prompt assembly: order, caps, budget, and the inclusion report.
import { describe, expect, it } from 'vitest';
import {
  assemblePrompt,
  cacheFriendly,
  fitMessages,
  historyStep,
  type PromptSection,
  personaSection,
  personaText,
  recentMessages,
} from '../../../src/engine/turn/prompts.ts';
import { estimateTokens } from '../../../src/core/tokens.ts';

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

  it('fitMessages with a step moves the start in whole steps, so the kept history only grows between steps', () => {
    // Ten messages of 10 tokens each (36 characters + the separator token).
    const ten = Array.from({ length: 10 }, (_, i) => ({
      role: 'user' as const,
      content: `${String(i).padStart(2, '0')}${'x'.repeat(34)}`,
    }));
    const starts = (maxTokens: number, step: number, n = ten.length) =>
      fitMessages(ten.slice(0, n), maxTokens, step)[0]?.content.slice(0, 2);
    expect(starts(100, 4)).toBe('00'); // all fit: nothing dropped
    // 99 tokens: the newest nine fit (start 1); with step 4 the start moves to 4, not 1.
    expect(starts(99, 4)).toBe('04');
    expect(starts(99, 1)).toBe('01');
    // 60 tokens: newest six fit (start 4, on a step); 59: newest five (start 5) -> the next step, 8.
    expect(starts(60, 4)).toBe('04');
    expect(starts(59, 4)).toBe('08');
    // 19 tokens: the newest step (8, 9) does not fit, so the newest messages that fit (just 9).
    expect(starts(19, 4)).toBe('09');
    expect(fitMessages(ten, 9, 4)).toEqual([]);
    // As the story grows under a fixed cap the start moves at most once a step, never one message a turn.
    let moves = 0;
    let previous: string | undefined;
    for (let n = 1; n <= 10; n++) {
      const kept = fitMessages(ten.slice(0, n), 40, 4);
      expect(kept.length * 10).toBeLessThanOrEqual(40);
      expect(kept.at(-1)).toBe(ten[n - 1]);
      const start = kept[0]?.content.slice(0, 2);
      if (previous !== undefined && start !== previous) moves++;
      previous = start;
    }
    expect(moves).toBe(2); // 00 -> 04 at n = 5, 04 -> 08 at n = 9
    expect(historyStep(12)).toBe(6);
    expect(historyStep(1)).toBe(1);
    expect(historyStep(0)).toBe(1);
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

  it('personaSection is the one persona section both prompts carry: optional, at most 500 tokens', () => {
    const persona = {
      name: 'Mira',
      pronoun_sub: 'she',
      pronoun_obj: 'her',
      pronoun_poss: 'her',
      pronoun_poss_obj: 'hers',
    };
    expect(personaSection(persona)).toEqual({
      id: 'persona',
      kind: 'static',
      text: personaText(persona),
      required: false,
      maxTokens: 500,
      why: 'the player character',
    });
    expect(personaSection(undefined).text).toBe('');
  });
});

describe('cache-friendly prompts', () => {
  const story = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `m${i}`,
    }));

  it('keeps at most `count` recent messages, moving the window start in steps of half the window', () => {
    expect(recentMessages(story(5), 12).map((m) => m.content)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(recentMessages(story(12), 12)).toHaveLength(12);
    // 14 messages, window 12: the start moves by 6, not by 2.
    expect(recentMessages(story(14), 12).map((m) => m.content)[0]).toBe('m6');
    expect(recentMessages(story(16), 12).map((m) => m.content)[0]).toBe('m6');
    expect(recentMessages(story(18), 12).map((m) => m.content)[0]).toBe('m6');
    expect(recentMessages(story(20), 12).map((m) => m.content)[0]).toBe('m12');
    for (let n = 0; n < 40; n++) {
      const kept = recentMessages(story(n), 12);
      expect(kept.length).toBeLessThanOrEqual(12);
      if (n >= 12) expect(kept.length).toBeGreaterThan(6);
      expect(kept.at(-1)?.content).toBe(n === 0 ? undefined : `m${n - 1}`);
    }
    expect(recentMessages(story(3), 0)).toEqual([]);
  });

  it('sends the static sections as the system prompt and the volatile ones in the final message', () => {
    const sections: PromptSection[] = [
      { id: 'state', kind: 'volatile', text: 'STATE 42', required: true, why: 'w' },
      { id: 'role', kind: 'static', text: 'ROLE', required: true, why: 'w' },
      { id: 'rules', kind: 'static', text: 'RULES', required: true, why: 'w' },
    ];
    const prompt = assemblePrompt(sections, 1_000);
    expect(prompt.system).toBe('ROLE\n\nRULES\n\nSTATE 42');
    expect(prompt.stableSystem).toBe('ROLE\n\nRULES');
    expect(prompt.context).toBe('STATE 42');
    const call = cacheFriendly(prompt, [{ role: 'assistant', content: 'earlier' }], 'I wave');
    expect(call.system).toBe('ROLE\n\nRULES');
    expect(call.messages).toEqual([
      { role: 'assistant', content: 'earlier', cacheBreakpoint: true },
      { role: 'user', content: 'STATE 42\n\n--- THE PLAYER NOW ---\nI wave' },
    ]);
    expect(cacheFriendly({ stableSystem: 'S', context: '' }, [], 'hi').messages).toEqual([
      { role: 'user', content: 'hi' },
    ]);
  });
});
