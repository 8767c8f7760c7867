// The texts a model's tokenizer reads as special tokens: the vocabulary entries whose type is CONTROL
// (`<|im_start|>`, `<start_of_turn>`, `[INST]`) or USER_DEFINED (added tokens). llama.cpp's tokenizer,
// when asked to parse special tokens in text (llama-server's prompts, some front ends), turns these texts
// into their token ids wherever they appear, so player text holding one could open a turn of its own. The
// local model exposes them as `ChatModel.specialTokens` (types.ts), for the prompt sanitiser to neutralise
// in prompts to this model. Texts of nothing but whitespace are left out: neutralising them would mangle
// prose, and they open no turn.

import { GgufHeaderError, type GgufHeader } from './gguf-header.ts';

/** Special tokens a vocabulary may have (Gemma's, the largest known, has about 6,500). */
export const MAX_SPECIAL_TOKENS = 32_768;
/** Characters of one special token's text. */
export const MAX_SPECIAL_TOKEN_CHARS = 256;

/** llama.cpp's token types (llama_token_type in llama-vocab). */
const CONTROL = 3;
const USER_DEFINED = 4;

/** The special-token texts of the vocabulary, in vocabulary order, without repeats; throws past the limits. */
export function specialTokenTexts(header: GgufHeader): string[] {
  const tokens = header.tokens ?? [];
  const types = header.tokenTypes ?? new Int32Array(0);
  const found = new Set<string>();
  const length = Math.min(tokens.length, types.length);
  for (let id = 0; id < length; id++) {
    const type = types[id];
    if (type !== CONTROL && type !== USER_DEFINED) continue;
    const text = tokens[id]!;
    if (text.trim() === '') continue;
    if (text.length > MAX_SPECIAL_TOKEN_CHARS)
      throw refusal(
        `special token ${id} is ${text.length.toLocaleString('en-US')} characters; the limit is ${MAX_SPECIAL_TOKEN_CHARS} (MAX_SPECIAL_TOKEN_CHARS)`,
      );
    found.add(text);
    if (found.size > MAX_SPECIAL_TOKENS)
      throw refusal(
        `the vocabulary has more than ${MAX_SPECIAL_TOKENS.toLocaleString('en-US')} special tokens (MAX_SPECIAL_TOKENS)`,
      );
  }
  return [...found];
}

function refusal(problem: string): GgufHeaderError {
  const where = 'metadata key "tokenizer.ggml.tokens"';
  return new GgufHeaderError(`${where}: ${problem}`, where, undefined);
}
