// The special-token table (src/core/text-policy.ts): every family's tokens, as the issue named them and as
// the table lists them, are neutralised by the one prompt sanitiser; a loaded model's own special tokens
// (ChatModel.specialTokens) are neutralised in every prompt sent to that model, over real HTTP, at and past
// the matcher's limits.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModelConfig } from '../../../src/adapters/llm/config.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import { withModelTokensNeutralised } from '../../../src/adapters/llm/special-tokens.ts';
import type { ChatModel } from '../../../src/adapters/llm/types.ts';
import {
  MAX_MODEL_TOKEN_CHARS,
  MIN_MODEL_TOKEN_CHARS,
  neutraliseModelTokens,
  SPECIAL_TOKENS_BY_FAMILY,
  sanitizeForPrompt,
} from '../../../src/core/text-policy.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';

const escaped = (token: string) =>
  token.replace(/[<>[\]]/g, (c) => ({ '<': '＜', '>': '＞', '[': '［', ']': '］' })[c]!);

/** The tokens issue 35 found reaching prompts raw, and the other families' newer ones, written out here. */
const NAMED: Readonly<Record<string, readonly string[]>> = {
  gemma: ['<eos>', '<bos>', '<start_of_turn>', '<end_of_turn>', '<start_of_image>', '<unused41>'],
  'mistral tekken': [
    '[INST]',
    '[ARGS]',
    '[CALL_ID]',
    '[TOOL_CALLS]',
    '[TOOL_CONTENT]',
    '[IMG_BREAK]',
    '<SPECIAL_32>',
  ],
  glm: ['[gMASK]', '[sMASK]', '<sop>', '<eop>', '<|user|>', '<|observation|>', '<arg_key>'],
  qwen: ['<|im_start|>', '<|vision_start|>', '<tool_call>', '</tool_response>'],
  deepseek: ['<｜User｜>', '<｜tool▁calls▁begin｜>', '<|begin▁of▁sentence|>'],
  llama: ['<|begin_of_text|>', '<|eot_id|>', '<|python_tag|>', '<|header_start|>', '<<SYS>>', '</s>'],
  phi: ['<|system|>', '<|end|>', '<|im_sep|>'],
  cohere: ['<BOS_TOKEN>', '<|START_OF_TURN_TOKEN|>', '<|CHATBOT_TOKEN|>', '<|START_THINKING|>'],
  harmony: ['<|start|>', '<|channel|>', '<|message|>', '<|end|>', '<|return|>', '<|call|>', '<|constrain|>'],
  chatml: ['<|im_start|>', '<|im_end|>'],
};

describe('the special-token table', () => {
  it.each(Object.entries(NAMED))('%s: each token gets full-width brackets', (_family, tokens) => {
    for (const token of tokens) {
      const out = sanitizeForPrompt(`say ${token} now`);
      expect(out, token).toBe(`say ${escaped(token)} now`);
    }
  });

  it.each(Object.entries(SPECIAL_TOKENS_BY_FAMILY))('%s: every listed token is neutralised', (_f, tokens) => {
    expect(tokens.length).toBeGreaterThan(2);
    for (const token of tokens) {
      const out = sanitizeForPrompt(`x${token}y`);
      expect(out.includes(token), token).toBe(false);
      expect(out, token).toBe(`x${escaped(token)}y`);
    }
  });

  it('leaves ordinary brackets and words alone', () => {
    const text = 'She says [quietly] that 3 < 4 and <3; the gmask is [on] the sop table.';
    expect(sanitizeForPrompt(text)).toBe(text);
  });
});

describe('a model’s own special tokens', () => {
  const TOKENS = ['<|my_turn|>', '[[ROLE]]', 'madeupword0007', '<x>', 'ab', '  '];

  it('neutralises each listed token of MIN_MODEL_TOKEN_CHARS or more, longest first', () => {
    const out = neutraliseModelTokens('a <|my_turn|> b [[ROLE]] c madeupword0007 d <x> e ab f', TOKENS);
    expect(out).toBe('a ＜|my_turn|＞ b ［［ROLE］］ c ｍadeupword0007 d ＜x＞ e ab f');
    expect(out.includes('<|my_turn|>')).toBe(false);
  });

  it('a token of MIN_MODEL_TOKEN_CHARS is matched; one character shorter is ordinary text', () => {
    const at = 'q'.repeat(MIN_MODEL_TOKEN_CHARS);
    const under = 'z'.repeat(MIN_MODEL_TOKEN_CHARS - 1);
    expect(neutraliseModelTokens(`${at} ${under}`, [at, under])).toBe(`ｑ${at.slice(1)} ${under}`);
  });

  it('a token of MAX_MODEL_TOKEN_CHARS is matched whole; a longer one is broken in its first characters', () => {
    const at = `Q${'w'.repeat(MAX_MODEL_TOKEN_CHARS - 1)}`;
    const past = `R${'w'.repeat(MAX_MODEL_TOKEN_CHARS + 40)}`;
    const out = neutraliseModelTokens(`${at}|${past}`, [at, past]);
    expect(out).toBe(`Ｑ${at.slice(1)}|Ｒ${past.slice(1)}`);
    expect(out.includes(at) || out.includes(past)).toBe(false);
  });

  it('a token of non-ASCII letters gets a word joiner after its first letter', () => {
    expect(neutraliseModelTokens('«ÆØÅ»', ['ÆØÅ'])).toBe('«Æ\u2060ØÅ»');
  });

  it('a long run that almost matches a long token is still scanned (bounded per character)', () => {
    const token = `${'a'.repeat(MAX_MODEL_TOKEN_CHARS - 1)}!`;
    const text = 'a'.repeat(50_000);
    expect(neutraliseModelTokens(text, [token])).toBe(text);
    expect(neutraliseModelTokens(`${text}!`, [token])).toBe(`${'a'.repeat(50_000 - 127)}ａ${token.slice(1)}`);
  });
});

describe('prompts sent to a model with special tokens', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI(() => ({ kind: 'text', text: 'ok' }));
  });
  afterAll(async () => {
    await fake?.close();
  });

  /** A real HTTP model whose vocabulary (known only once it "loads") marks `<|secret_tok|>` special. */
  function modelWithLateTokens(): { model: ChatModel; load(): void } {
    const config = loadModelConfig({
      MNESOS_LLM_BASE_URL: fake.url,
      MNESOS_MODEL: 'fake-model',
      MNESOS_LLM_API_KEY: 'k',
      MNESOS_LLM_MAX_RETRIES: '0',
    });
    const inner = createModels(config)!.director;
    let tokens: readonly string[] | undefined;
    const model: ChatModel = {
      id: inner.id,
      get specialTokens() {
        return tokens;
      },
      generate: (req) => inner.generate(req),
      stream: (req) => inner.stream(req),
    };
    return { model, load: () => (tokens = ['<|secret_tok|>', 'CTRL_9']) };
  }

  it('every text of the request, generate and stream, from the first call after the tokens are known', async () => {
    const { model, load } = modelWithLateTokens();
    const guarded = withModelTokensNeutralised(model);
    load();
    const hostile = 'hi <|secret_tok|> and CTRL_9';
    await guarded.generate({
      system: `sys ${hostile}`,
      messages: [
        { role: 'user', content: `u ${hostile}` },
        { role: 'assistant', content: `a ${hostile}`, toolCalls: [] },
      ],
    });
    for await (const _part of guarded.stream({
      system: 'sys',
      messages: [{ role: 'user', content: hostile }],
    })) {
      // drained
    }
    const bodies = fake.chatRequests().slice(-2);
    const sent = JSON.stringify(bodies);
    expect(sent.includes('<|secret_tok|>')).toBe(false);
    expect(sent.includes('CTRL_9')).toBe(false);
    expect(sent).toContain('＜|secret_tok|＞ and ＣTRL_9');
    expect(guarded.specialTokens).toEqual(['<|secret_tok|>', 'CTRL_9']);
  });

  it('a model without special tokens is sent its prompt unchanged', async () => {
    const { model } = modelWithLateTokens();
    await withModelTokensNeutralised(model).generate({
      system: 's',
      messages: [{ role: 'user', content: 'plain CTRL_9' }],
    });
    expect(JSON.stringify(fake.chatRequests().at(-1))).toContain('plain CTRL_9');
  });
});
