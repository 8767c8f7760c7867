// biome-ignore-all lint/suspicious/noExplicitAny: request and response bodies are read loosely.
// One sanitiser for every text bound for a prompt, as one table: every source (persona fields, the
// player's input, the story's history, model prose — narration, directives, world-ledger entries —,
// imported card text, and the OpenAI endpoint's system, greeting and user messages) × every chat-template token family
// (Gemma, Mistral incl. tekken, GLM, Qwen, DeepSeek, Llama, Phi, Cohere, Harmony, ChatML) and the invisible characters. Played over
// real HTTP against a fake OpenAI-compatible model that records the Director's and the Narrator's prompts:
// each token reaches the prompts of its source only with full-width brackets, each invisible character not
// at all, and no raw token reaches any prompt.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModelConfig } from '../../../src/adapters/llm/config.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import { emptyWorld } from '../../../src/core/ledger/index.ts';
import { runTurn } from '../../../src/engine/turn/run-turn.ts';
import { importSillyTavern } from '../../../src/tools/interop/sillytavern/import.ts';
import { initialState, lanternmere } from '../../engine/turn/helpers.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { startTestServer, type TestServer } from './helpers.ts';

const FAMILIES: Readonly<Record<string, readonly string[]>> = {
  chatml: ['<|im_start|>', '<|im_end|>'],
  llama: [
    '[INST]',
    '[/INST]',
    '<<SYS>>',
    '<</SYS>>',
    '<|begin_of_text|>',
    '<|start_header_id|>',
    '<|eot_id|>',
  ],
  gemma: ['<start_of_turn>', '<end_of_turn>', '<eos>', '<bos>', '<start_of_image>'],
  phi: ['<|system|>', '<|user|>', '<|assistant|>', '<|end|>'],
  deepseek: ['<｜User｜>', '<｜Assistant｜>', '<｜end▁of▁sentence｜>', '<｜begin▁of▁sentence｜>'],
  mistral: [
    '[SYSTEM_PROMPT]',
    '[/SYSTEM_PROMPT]',
    '[TOOL_CALLS]',
    '[AVAILABLE_TOOLS]',
    '[/AVAILABLE_TOOLS]',
    '[TOOL_RESULTS]',
    '[ARGS]',
    '[CALL_ID]',
    '[TOOL_CONTENT]',
  ],
  glm: ['[gMASK]', '<sop>', '<eop>', '<|observation|>', '<arg_key>'],
  qwen: ['<|vision_start|>', '<|fim_prefix|>', '</tool_call>'],
  cohere: ['<BOS_TOKEN>', '<|START_OF_TURN_TOKEN|>', '<|CHATBOT_TOKEN|>', '<|END_OF_TURN_TOKEN|>'],
  harmony: ['<|start|>', '<|channel|>', '<|message|>', '<|return|>', '<|call|>', '<|constrain|>'],
  tools: ['<tool_call>', '<tool_response>', '<function_call>', '<think>', '</think>'],
};

/** Invisible and reordering characters: removed, the letters around them joined. */
const INVISIBLE = [
  '\u200B',
  '\u2060',
  '\uFEFF',
  '\u00AD',
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u{E0041}',
];

const escaped = (token: string) =>
  token.replace(/[<>[\]]/g, (c) => ({ '<': '＜', '>': '＞', '[': '［', ']': '］' })[c]!);

/** Where a source's text lands: the roles whose prompts must carry it. */
type Role = 'director' | 'narrator';
interface Source {
  readonly tag: string;
  readonly roles: readonly Role[];
}
const SOURCES: Readonly<Record<string, Source>> = {
  'persona field': { tag: 'qpersona', roles: ['director', 'narrator'] },
  'player input': { tag: 'qinput', roles: ['director', 'narrator'] },
  'history (an earlier input)': { tag: 'qearlier', roles: ['director', 'narrator'] },
  'model prose (the Director’s directives)': { tag: 'qdirectives', roles: ['narrator'] },
  'model prose (an earlier narration, as history)': { tag: 'qnarration', roles: ['director', 'narrator'] },
  'imported card text': { tag: 'qcard', roles: ['director', 'narrator'] },
  'OpenAI endpoint system message': { tag: 'qsystem', roles: ['narrator'] },
  'OpenAI endpoint greeting': { tag: 'qgreeting', roles: ['narrator'] },
  'OpenAI endpoint user message': { tag: 'quser', roles: ['director', 'narrator'] },
  'model prose (a world-ledger entry)': { tag: 'qledger', roles: ['director', 'narrator'] },
};

const ALL_TOKENS = Object.values(FAMILIES).flat();

/** One text holding every token and invisible character, each behind the source's tag and its number. */
function payload(tag: string): string {
  const tokens = ALL_TOKENS.map((token, i) => `${tag}${i}${token}`);
  const hidden = INVISIBLE.map((ch, i) => `${tag}x${i}a${ch}b`);
  return [...tokens, ...hidden].join(' ');
}

const CARD = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    name: 'Tokenia',
    description: 'A keeper of the signal tower.',
    personality: 'Careful.',
    scenario: `The tower at dusk. ${payload('qcard')}`,
    first_mes: 'The lamp turns.',
    mes_example: '',
    creator_notes: '',
    system_prompt: '',
    post_history_instructions: '',
    alternate_greetings: [],
    tags: [],
    creator: '',
    character_version: '',
    extensions: {},
  },
};

let fake: FakeOpenAI;
let config: ReturnType<typeof loadModelConfig>;
let server: TestServer;
let folder: string;
/** Prompts per role, per turn played: all the message texts of each request. */
const prompts: { director: string[]; narrator: string[] }[] = [];

function promptText(body: any): string {
  return (body.messages as { content: unknown }[])
    .map((m) => (typeof m.content === 'string' ? m.content : ''))
    .join('\n');
}
const isNarrator = (body: any) => promptText(body).includes('You are the Narrator');

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'mnesos-sanitiser-'));
  for (const [name, content] of importSillyTavern(Buffer.from(JSON.stringify(CARD)), 'tokenia.json').files)
    writeFileSync(join(folder, name), content);
  fake = await startFakeOpenAI((request) => {
    const body = request.body as any;
    const turn = prompts.at(-1)!;
    if (isNarrator(body)) {
      turn.narrator.push(promptText(body));
      return { kind: 'text', text: `The lamp turns. ${payload('qnarration')}` };
    }
    turn.director.push(promptText(body));
    return { kind: 'text', text: `Describe the tower. ${payload('qdirectives')}` };
  });
  config = loadModelConfig({
    MNESOS_LLM_BASE_URL: fake.url,
    MNESOS_MODEL: 'fake-model',
    MNESOS_LLM_API_KEY: 'test',
    MNESOS_LLM_MAX_RETRIES: '0',
  });
  server = await startTestServer({
    cartridgeDirs: [folder],
    models: () => createModels(config),
    modelMode: 'online',
  });

  // Session turns: a persona, a first input (history for the second), then a second input.
  const persona = await server.json('/v1/personas', {
    method: 'POST',
    json: {
      name: 'Wren',
      pronoun_sub: 'they',
      pronoun_obj: 'them',
      pronoun_poss: 'their',
      pronoun_poss_obj: 'theirs',
      background: payload('qpersona'),
    },
  });
  expect(persona.status, JSON.stringify(persona.body)).toBe(201);
  const session = await server.json('/v1/sessions', {
    method: 'POST',
    json: { cartridge: 'Tokenia', personaId: persona.body.persona.id },
  });
  expect(session.status, JSON.stringify(session.body)).toBe(201);
  const id = session.body.session.id as string;
  for (const input of [payload('qearlier'), payload('qinput')]) {
    prompts.push({ director: [], narrator: [] });
    const played = await server.json(`/v1/sessions/${id}/turns`, { method: 'POST', json: { input } });
    expect(played.status, JSON.stringify(played.body).slice(0, 300)).toBe(201);
    expect(played.body.turn.narration).not.toContain('<|im_start|>');
    expect(played.body.turn.narration).toContain('qnarration0＜|im_start|＞');
  }

  // The OpenAI-compatible endpoint: a system message, the chat's own greeting, a user message.
  prompts.push({ director: [], narrator: [] });
  const answer = await server.json('/openai/v1/chat/completions', {
    method: 'POST',
    json: {
      model: 'Tokenia',
      messages: [
        { role: 'system', content: `Player notes. ${payload('qsystem')}` },
        { role: 'assistant', content: `Another opening. ${payload('qgreeting')}` },
        { role: 'user', content: payload('quser') },
      ],
    },
  });
  expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);

  // The world ledger's entries are the Narrator's prose of earlier turns: an entity's status, in the summary.
  prompts.push({ director: [], narrator: [] });
  const cartridge = await lanternmere();
  const world = {
    ...emptyWorld(),
    entities: Object.assign(Object.create(null), {
      lamp: {
        key: 'lamp',
        name: 'Signal lamp',
        entityType: 'item',
        status: payload('qledger'),
        aliases: [],
        attributes: Object.create(null),
        conditions: [],
        created: { turn: 0 },
      },
    }),
    // In the scene, so the summary shows it.
    scene: { present: ['lamp'], set: { turn: 0 } },
  };
  const models = createModels(config);
  for await (const event of runTurn({
    cartridge,
    state: initialState(cartridge),
    world,
    messages: [],
    input: 'I look at the lamp',
    seed: 1,
    models,
  }))
    if (event.type === 'error') throw new Error(event.message);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await fake?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The prompts the second session turn (for history and earlier narration) or the endpoint turn produced. */
function promptsFor(tag: string): { director: string; narrator: string } {
  const turn =
    tag === 'qledger'
      ? prompts[3]!
      : tag === 'qsystem' || tag === 'qgreeting' || tag === 'quser'
        ? prompts[2]!
        : prompts[1]!;
  return { director: turn.director.join('\n'), narrator: turn.narrator.join('\n') };
}

const CASES = Object.entries(SOURCES).flatMap(([source, { tag, roles }]) =>
  Object.keys(FAMILIES).map((family) => [source, family, tag, roles] as const),
);

describe('every source × every token family reaches the prompts neutralised', () => {
  it('no raw token reaches any prompt of any turn', () => {
    const all = prompts.flatMap((p) => [...p.director, ...p.narrator]).join('\n');
    expect(all.length).toBeGreaterThan(0);
    for (const token of ALL_TOKENS) expect(all.includes(token), token).toBe(false);
    for (const ch of INVISIBLE) expect(all.includes(ch), `U+${ch.codePointAt(0)!.toString(16)}`).toBe(false);
  });

  it.each(CASES)('%s × %s', (_source, family, tag, roles) => {
    const seen = promptsFor(tag);
    for (const role of roles) {
      for (const token of FAMILIES[family]!) {
        const index = ALL_TOKENS.indexOf(token);
        expect(seen[role], `${role}: ${tag}${index}${escaped(token)}`).toContain(
          `${tag}${index}${escaped(token)}`,
        );
      }
    }
  });

  it.each(Object.entries(SOURCES))('%s × invisible and bidi characters', (_source, { tag, roles }) => {
    const seen = promptsFor(tag);
    for (const role of roles) {
      INVISIBLE.forEach((_, i) => {
        expect(seen[role], `${role}: ${tag}x${i}ab`).toContain(`${tag}x${i}ab`);
      });
    }
  });
});
