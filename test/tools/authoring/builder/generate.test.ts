// The AI generator's core: a scripted model that first writes a cartridge with three known errors and then
// fixes them; the checker's file:line:col findings are what the model is sent; the rounds are bounded;
// every limit at and past its bound; the answer format's parser.
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../../src/core/diagnostics.ts';
import { createScriptedModels } from '../../../../src/adapters/llm/scripted.ts';
import { DRAFT_FILES, formatDraft, parseDraftAnswer } from '../../../../src/tools/authoring/builder/draft.ts';
import {
  type GenerateEvent,
  type GenerateResult,
  GenerateInputError,
  generateCartridge,
  type GenerateOptions,
  transcriptMarkdown,
} from '../../../../src/tools/authoring/builder/generate.ts';
import {
  MAX_ANSWER_CHARS,
  MAX_REPAIR_ROUNDS,
  MAX_REQUIREMENTS_CHARS,
} from '../../../../src/tools/authoring/builder/limits.ts';
import { BROKEN_YARE, FIRST_ANSWER, FIXED_YARE, LORE, REPAIR_ANSWER } from './drafts.ts';

async function run(options: GenerateOptions): Promise<{ events: GenerateEvent[]; result: GenerateResult }> {
  const events: GenerateEvent[] = [];
  const generator = generateCartridge(options);
  for (;;) {
    const next = await generator.next();
    if (next.done) return { events, result: next.value };
    events.push(next.value);
  }
}

const THREE_ERRORS = [
  'yare.yaml:15:14: events.swim_across.steps[0].var: state.player.hpp is not declared in state_schema. Did you mean `state.player.hp`? [YARE_UNKNOWN_PATH]',
  'yare.yaml:16:13: events.swim_across.steps[0]: mutate op "subtract" is unknown. Ops are: add, sub, mul, div. [YARE_BAD_STEP]',
  'yare.yaml:34:38: lights_out config.difficulty.grid_size must be an integer from 3 to 7, got 9. [CART_MINIGAME_CONFIG]',
];

describe('generate: draft, check, repair', () => {
  it('a model that writes three errors and then fixes them ends with a valid cartridge in two rounds', async () => {
    const models = createScriptedModels({ director: [{ text: FIRST_ANSWER }, { text: REPAIR_ANSWER }] });
    const { events, result } = await run({
      model: models.director,
      requirements: 'A mill pond with a swim and a wheel puzzle.',
    });

    expect(events.map((e) => `${e.type}:${e.round}`)).toEqual([
      'asking:1',
      'answered:1',
      'checked:1',
      'asking:2',
      'answered:2',
      'checked:2',
    ]);
    const firstCheck = events[2] as Extract<GenerateEvent, { type: 'checked' }>;
    expect(firstCheck.errors.map(formatDiagnostic)).toEqual(THREE_ERRORS);

    // The repair request carried exactly those findings, with the current draft as the model's answer.
    const repair = models.calls[1]?.request;
    const asked = repair?.messages.at(-1)?.content ?? '';
    for (const line of THREE_ERRORS) expect(asked).toContain(line);
    expect(repair?.messages[1]).toEqual({
      role: 'assistant',
      content: expect.stringContaining('op: subtract'),
    });
    expect(repair?.system).toContain('=== file: NAME ===');
    expect(repair?.system).toContain('articulation_scramble');

    expect(result.ok).toBe(true);
    expect(result.errors).toEqual([]);
    // The repair rewrote yare.yaml only; the other files of the first draft were kept (fence removed).
    expect(result.files['yare.yaml']).toBe(FIXED_YARE);
    expect(result.files['bot_lore.md']).toBe(LORE);
    expect(Object.keys(result.files).sort()).toEqual([...DRAFT_FILES].sort());
    expect(result.transcript.rounds.map((r) => [r.kind, r.errors.length, r.filesWritten.length])).toEqual([
      ['draft', 3, 4],
      ['repair', 0, 1],
    ]);
    const markdown = transcriptMarkdown(result.transcript);
    expect(markdown).toContain('Result: valid after 2 round(s).');
    expect(markdown).toContain(
      '`yare.yaml:16:13` events.swim_across.steps[0]: mutate op "subtract" is unknown.',
    );
  });

  it('a change request sends the existing cartridge and keeps what the model does not rewrite', async () => {
    const models = createScriptedModels({
      director: [{ text: `=== file: first-message.md ===\nThe pond is frozen.\n` }],
    });
    const existing = { 'yare.yaml': FIXED_YARE, 'bot_lore.md': LORE };
    const { result } = await run({ model: models.director, requirements: 'Make it winter.', existing });
    expect(result.ok).toBe(true);
    expect(result.files['first-message.md']).toBe('The pond is frozen.\n');
    expect(result.files['yare.yaml']).toBe(FIXED_YARE);
    const sent = models.calls[0]?.request.messages[0]?.content ?? '';
    expect(sent).toContain('Change request:\nMake it winter.');
    expect(sent).toContain(formatDraft(existing));
    expect(result.transcript.changed).toBe(true);
  });

  it('rounds are bounded: a model that never fixes is asked 1 + repairRounds times, then the draft is returned invalid', async () => {
    const models = createScriptedModels({
      director: [{ text: FIRST_ANSWER }, { text: FIRST_ANSWER }, { text: FIRST_ANSWER }],
    });
    const { result } = await run({ model: models.director, requirements: 'x', repairRounds: 2 });
    expect(models.calls).toHaveLength(3);
    expect(result.ok).toBe(false);
    expect(result.errors.map(formatDiagnostic)).toEqual(THREE_ERRORS);
    expect(result.files['yare.yaml']).toBe(BROKEN_YARE);
    expect(transcriptMarkdown(result.transcript)).toContain('still invalid after 3 round(s)');
  });

  it('repair rounds: 0 and MAX_REPAIR_ROUNDS are accepted, one more is refused', async () => {
    const once = createScriptedModels({ director: [{ text: FIRST_ANSWER }] });
    const { result } = await run({ model: once.director, requirements: 'x', repairRounds: 0 });
    expect(once.calls).toHaveLength(1);
    expect(result.ok).toBe(false);
    const many = createScriptedModels({
      director: Array(MAX_REPAIR_ROUNDS + 1).fill({ text: FIRST_ANSWER }),
    });
    await run({ model: many.director, requirements: 'x', repairRounds: MAX_REPAIR_ROUNDS });
    expect(many.calls).toHaveLength(MAX_REPAIR_ROUNDS + 1);
    await expect(
      run({ model: many.director, requirements: 'x', repairRounds: MAX_REPAIR_ROUNDS + 1 }),
    ).rejects.toThrow(GenerateInputError);
  });

  it('requirements: at MAX_REQUIREMENTS_CHARS accepted, one more or empty refused', async () => {
    const models = createScriptedModels({ director: [{ text: FIRST_ANSWER }, { text: REPAIR_ANSWER }] });
    await expect(
      run({ model: models.director, requirements: 'r'.repeat(MAX_REQUIREMENTS_CHARS) }),
    ).resolves.toBeDefined();
    await expect(
      run({ model: models.director, requirements: 'r'.repeat(MAX_REQUIREMENTS_CHARS + 1) }),
    ).rejects.toThrow(`limit is ${MAX_REQUIREMENTS_CHARS}`);
    await expect(run({ model: models.director, requirements: '   ' })).rejects.toThrow('empty');
  });

  it('an answer past MAX_ANSWER_CHARS is stopped while it streams, not read, and the model is told so', async () => {
    const huge = `${REPAIR_ANSWER}${'#'.repeat(MAX_ANSWER_CHARS)}`;
    const models = createScriptedModels({ director: [{ text: huge }, { text: FIRST_ANSWER }] });
    const { result, events } = await run({ model: models.director, requirements: 'x', repairRounds: 1 });
    expect((events[1] as Extract<GenerateEvent, { type: 'answered' }>).files).toEqual([]);
    expect(models.calls[1]?.request.messages.at(-1)?.content).toContain(
      `limit is ${MAX_ANSWER_CHARS} (MAX_ANSWER_CHARS)`,
    );
    // Counted up to where it was stopped: past the cap, and no answer text kept.
    expect(result.transcript.rounds[0]?.answerChars).toBeGreaterThan(MAX_ANSWER_CHARS);
    expect(result.transcript.rounds[0]?.answer).toBe('');
  });

  it('an answer of exactly MAX_ANSWER_CHARS is read', async () => {
    const full = `${REPAIR_ANSWER}\n${'x'.repeat(MAX_ANSWER_CHARS - REPAIR_ANSWER.length - 1)}`;
    expect(full.length).toBe(MAX_ANSWER_CHARS);
    const models = createScriptedModels({ director: [{ text: full }] });
    const { result } = await run({ model: models.director, requirements: 'x', repairRounds: 0 });
    const round = result.transcript.rounds[0]!;
    expect(round.answerChars).toBe(MAX_ANSWER_CHARS);
    // Read: its files were parsed (the padded yare.yaml is then over its own file limit).
    expect(round.formProblems).toEqual([expect.stringContaining('yare.yaml is larger than its limit')]);
    expect(round.answer.startsWith('=== file: yare.yaml ===')).toBe(true);
  });
});

describe('the answer format', () => {
  it('reads files after their header lines, drops commentary and fences, keeps CRLF out', () => {
    const parsed = parseDraftAnswer(
      'Sure!\r\n=== file: bot_lore.md ===\r\n```markdown\r\n# A\r\n```\r\n=== file: first-message.md ===\r\nHi.\r\n',
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.files).toEqual({ 'bot_lore.md': '# A\n', 'first-message.md': 'Hi.\n' });
  });

  it('names unknown files and an answer with no file at all', () => {
    expect(parseDraftAnswer('=== file: ../etc/passwd ===\nx\n').problems[0]).toContain(
      "'../etc/passwd' is not a cartridge file",
    );
    expect(parseDraftAnswer('I cannot help with that.').problems[0]).toContain('no file found');
  });
});
