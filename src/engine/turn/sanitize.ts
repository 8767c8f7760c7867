// Text from players and models, made safe to put in a prompt. Control characters
// (tab and line breaks kept), bidirectional controls, Unicode tag characters and zero-width characters are
// removed: they hide or reorder text for a reader but not for a model. Chat-template tokens
// (`<|im_start|>`, `[INST]`, `<<SYS>>`, `</s>`, `<start_of_turn>`) get full-width brackets, so they read
// the same to a person and are no longer the tokens a template splits on. NUL is a control character and
// a lone surrogate becomes U+FFFD, so the result can be stored on any database. The record keeps the
// player's raw input; prompts and stored narration get this text. Every pattern is a character class or
// bounded: linear on any input.

import { BIDI_CHARS, CONTROL_CHARS, TAG_CHARS, ZERO_WIDTH_CHARS } from '../../core/text-policy.ts';

const TEMPLATE_TOKEN =
  /<\|[A-Za-z0-9_.:-]{1,40}\|>|\[\/?INST\]|<<\/?SYS>>|<\/?s>|<\/?(?:start_of_turn|end_of_turn|im_start|im_end|system|assistant|user|tool_call)>/gi;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function fullWidthBrackets(token: string): string {
  return token.replace(/[<>[\]]/g, (c) => ({ '<': '＜', '>': '＞', '[': '［', ']': '］' })[c] ?? c);
}

/** `text` with hidden characters removed and chat-template tokens escaped; unchanged when there are none. */
export function sanitizeForPrompt(text: string): string {
  return text
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(CONTROL_CHARS, '')
    .replace(BIDI_CHARS, '')
    .replace(TAG_CHARS, '')
    .replace(ZERO_WIDTH_CHARS, '')
    .replace(TEMPLATE_TOKEN, fullWidthBrackets);
}
