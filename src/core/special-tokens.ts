// The chat-template special tokens of the model families the project names, one table per family, and the
// matcher for a loaded model's own special tokens. sanitizeForPrompt (text-policy.ts) neutralises every
// token here in every text bound for a prompt; neutraliseModelTokens does the same for the tokens a model's
// own vocabulary marks special (ChatModel.specialTokens, src/adapters/llm/types.ts), in the prompts sent to
// that model (src/adapters/llm/special-tokens.ts). Both scans are linear in the text's length.
//
// Sources, checked against the families' published tokenizer configurations (tokenizer_config.json
// `added_tokens_decoder`, special_tokens_map.json, Mistral's tekken.json special tokens, the OpenAI harmony
// format's token list). Tokens of the shapes `<|name|>` and `<｜name｜>` (DeepSeek's full-width bars) are
// covered by shape as well as listed, so a family's reserved or future token of that shape is caught too.

/** The families whose chat templates the project names, each with its special tokens as text. */
export const SPECIAL_TOKENS_BY_FAMILY = {
  chatml: ['<|im_start|>', '<|im_end|>', '<|im_sep|>', '<|endoftext|>'],
  gemma: [
    '<bos>',
    '<eos>',
    '<pad>',
    '<unk>',
    '<mask>',
    '<start_of_turn>',
    '<end_of_turn>',
    '<start_of_image>',
    '<end_of_image>',
    '<image_soft_token>',
    '<start_of_audio>',
    '<end_of_audio>',
    '<audio_soft_token>',
    '<start_function_call>',
    '<end_function_call>',
    '<start_function_response>',
    '<end_function_response>',
    '<start_function_declaration>',
    '<end_function_declaration>',
    '<escape>',
    '<unused0>',
    '<unused98>',
  ],
  mistral: [
    '<s>',
    '</s>',
    '<unk>',
    '<pad>',
    '[INST]',
    '[/INST]',
    '[SYSTEM_PROMPT]',
    '[/SYSTEM_PROMPT]',
    '[AVAILABLE_TOOLS]',
    '[/AVAILABLE_TOOLS]',
    '[TOOL_CALLS]',
    '[TOOL_RESULTS]',
    '[/TOOL_RESULTS]',
    '[TOOL_CONTENT]',
    '[ARGS]',
    '[CALL_ID]',
    '[THINK]',
    '[/THINK]',
    '[IMG]',
    '[IMG_BREAK]',
    '[IMG_END]',
    '[PREFIX]',
    '[MIDDLE]',
    '[SUFFIX]',
    '[AUDIO]',
    '[BEGIN_AUDIO]',
    '[TRANSCRIBE]',
    '<SPECIAL_20>',
    '<SPECIAL_999>',
  ],
  glm: [
    '[MASK]',
    '[gMASK]',
    '[sMASK]',
    '<sop>',
    '<eop>',
    '<|system|>',
    '<|user|>',
    '<|assistant|>',
    '<|observation|>',
    '<|begin_of_image|>',
    '<|end_of_image|>',
    '<|endoftext|>',
    '<tool_call>',
    '</tool_call>',
    '<arg_key>',
    '</arg_key>',
    '<arg_value>',
    '</arg_value>',
    '<think>',
    '</think>',
  ],
  qwen: [
    '<|im_start|>',
    '<|im_end|>',
    '<|endoftext|>',
    '<|vision_start|>',
    '<|vision_end|>',
    '<|fim_prefix|>',
    '<|fim_middle|>',
    '<|fim_suffix|>',
    '<tool_call>',
    '</tool_call>',
    '<tool_response>',
    '</tool_response>',
    '<think>',
    '</think>',
  ],
  deepseek: [
    '<｜begin▁of▁sentence｜>',
    '<｜end▁of▁sentence｜>',
    '<｜User｜>',
    '<｜Assistant｜>',
    '<｜tool▁calls▁begin｜>',
    '<｜tool▁call▁begin｜>',
    '<｜tool▁sep｜>',
    '<｜tool▁call▁end｜>',
    '<｜tool▁calls▁end｜>',
    '<｜tool▁outputs▁begin｜>',
    '<｜tool▁output▁end｜>',
    '<｜fim▁hole｜>',
    '<|begin▁of▁sentence|>',
    '<|end▁of▁sentence|>',
    '<think>',
    '</think>',
  ],
  llama: [
    '<s>',
    '</s>',
    '[INST]',
    '[/INST]',
    '<<SYS>>',
    '<</SYS>>',
    '<|begin_of_text|>',
    '<|end_of_text|>',
    '<|start_header_id|>',
    '<|end_header_id|>',
    '<|eot_id|>',
    '<|eom_id|>',
    '<|python_tag|>',
    '<|finetune_right_pad_id|>',
    '<|reserved_special_token_0|>',
    '<|header_start|>',
    '<|header_end|>',
    '<|eot|>',
    '<function=name>',
  ],
  phi: ['<|system|>', '<|user|>', '<|assistant|>', '<|end|>', '<|endoftext|>', '<|im_sep|>'],
  cohere: [
    '<BOS_TOKEN>',
    '<EOS_TOKEN>',
    '<PAD>',
    '<UNK>',
    '<CLS>',
    '<SEP>',
    '<MASK_TOKEN>',
    '<|START_OF_TURN_TOKEN|>',
    '<|END_OF_TURN_TOKEN|>',
    '<|USER_TOKEN|>',
    '<|CHATBOT_TOKEN|>',
    '<|SYSTEM_TOKEN|>',
    '<|START_RESPONSE|>',
    '<|END_RESPONSE|>',
    '<|START_THINKING|>',
    '<|END_THINKING|>',
    '<|START_ACTION|>',
    '<|END_ACTION|>',
  ],
  harmony: [
    '<|start|>',
    '<|end|>',
    '<|message|>',
    '<|channel|>',
    '<|constrain|>',
    '<|return|>',
    '<|call|>',
    '<|startoftext|>',
    '<|endoftext|>',
    '<|endofprompt|>',
    '<|reserved_200000|>',
  ],
  tools: [
    '<tool_call>',
    '<tool_response>',
    '<tool_result>',
    '<tools>',
    '<function_call>',
    '<function_calls>',
    '<functions>',
    '<think>',
    '</think>',
    '<thinking>',
  ],
} as const satisfies Record<string, readonly string[]>;

export type TokenFamily = keyof typeof SPECIAL_TOKENS_BY_FAMILY;

const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** Tags written with a number (`<unused41>`, `<SPECIAL_812>`): the number is part of the family's scheme. */
const NUMBERED = ['<unused\\d{1,4}>', '<SPECIAL_\\d{1,5}>'];

/**
 * The shapes every family's tokens take (and any reserved one of the same shape), then each listed token
 * literally: `<|name|>`, `<｜name｜>`, a reasoning or tool tag with attributes (`<think>`, `<tool_call id=…>`),
 * Llama 3.1's `<function=name>`, and the numbered tags. Every part is bounded (no unbounded quantifier), so
 * each start position costs a bounded number of steps; the literals are an alternation of fixed strings.
 */
function templateTokenPattern(): RegExp {
  const literals = [...new Set(Object.values(SPECIAL_TOKENS_BY_FAMILY).flat())]
    .filter((t) => !/^<[|｜]/.test(t) && !/^<function=/.test(t) && !/^<(?:unused|SPECIAL_)\d/.test(t))
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  const shapes = [
    '<\\|[^|<>\\s]{1,40}\\|>',
    '<｜[^｜<>\\s]{1,40}｜>',
    '<\\/?(?:start_of_turn|end_of_turn|im_start|im_end|system|assistant|user|tools?|tool_calls?|tool_response|tool_results?|function_calls?|functions|think|thinking)(?:\\s[^<>]{0,80})?>',
    '<function=[^<>\\s]{1,80}>',
    ...NUMBERED,
  ];
  return new RegExp([...shapes, ...literals].join('|'), 'gi');
}

/** Every family's tokens, by shape and by name (case-insensitive: a template's parser may fold case). */
export const TEMPLATE_TOKEN = templateTokenPattern();

const FULL_WIDTH: Readonly<Record<string, string>> = { '<': '＜', '>': '＞', '[': '［', ']': '］' };

/** A token with full-width brackets: reads the same to a person, is no longer the token. */
export function fullWidthBrackets(token: string): string {
  return token.replace(/[<>[\]]/g, (c) => FULL_WIDTH[c] ?? c);
}

/** Shortest model token neutralised: one or two characters are ordinary text no template splits on. */
export const MIN_MODEL_TOKEN_CHARS = 3;
/**
 * Characters of a model token matched at most: a longer one is neutralised by its first this-many
 * characters (changing a character there breaks the whole token), so one scan step costs at most this.
 */
export const MAX_MODEL_TOKEN_CHARS = 128;

/** A token the matcher cannot see as one anymore: its brackets full-width, else its first character. */
export function neutraliseToken(token: string): string {
  if (/[<>[\]]/.test(token)) return fullWidthBrackets(token);
  const first = token.codePointAt(0)!;
  const width = first > 0xffff ? 2 : 1;
  // Printable ASCII has a full-width form (U+FF01–U+FF5E); any other first character gets a word joiner.
  if (first >= 0x21 && first <= 0x7e) return String.fromCodePoint(first + 0xfee0) + token.slice(width);
  return `${token.slice(0, width)}\u2060${token.slice(width)}`;
}

interface TrieNode {
  /** Children by UTF-16 code unit. */
  readonly next: Map<number, TrieNode>;
  /** Set where a token (or a token's first MAX_MODEL_TOKEN_CHARS characters) ends. */
  end: boolean;
}

const tries = new WeakMap<readonly string[], TrieNode>();

function trieOf(tokens: readonly string[]): TrieNode {
  const cached = tries.get(tokens);
  if (cached !== undefined) return cached;
  const root: TrieNode = { next: new Map(), end: false };
  for (const token of tokens) {
    if (typeof token !== 'string' || token.length < MIN_MODEL_TOKEN_CHARS || token.trim() === '') continue;
    let node = root;
    const length = Math.min(token.length, MAX_MODEL_TOKEN_CHARS);
    for (let i = 0; i < length; i++) {
      const unit = token.charCodeAt(i);
      let child = node.next.get(unit);
      if (child === undefined) {
        child = { next: new Map(), end: false };
        node.next.set(unit, child);
      }
      node = child;
    }
    node.end = true;
  }
  tries.set(tokens, root);
  return root;
}

/** The longest token (prefix) starting at `at`, as a length in UTF-16 units, or 0. */
function longestAt(root: TrieNode, text: string, at: number): number {
  let node: TrieNode | undefined = root;
  let longest = 0;
  for (let i = at; i < text.length; i++) {
    node = node.next.get(text.charCodeAt(i));
    if (node === undefined) break;
    if (node.end) longest = i + 1 - at;
  }
  return longest;
}

/**
 * `text` with each of a model's own special tokens neutralised (neutraliseToken), longest match first at
 * each position. The token list's trie is built once per list (cached by identity); the scan costs at most
 * MAX_MODEL_TOKEN_CHARS steps a character. Tokens shorter than MIN_MODEL_TOKEN_CHARS, or blank, are left.
 */
export function neutraliseModelTokens(text: string, tokens: readonly string[] | undefined): string {
  if (tokens === undefined || tokens.length === 0 || text === '') return text;
  const root = trieOf(tokens);
  if (root.next.size === 0) return text;
  let out = '';
  let from = 0;
  for (let at = 0; at < text.length; ) {
    const length = root.next.has(text.charCodeAt(at)) ? longestAt(root, text, at) : 0;
    if (length === 0) {
      at += 1;
      continue;
    }
    out += text.slice(from, at) + neutraliseToken(text.slice(at, at + length));
    at += length;
    from = at;
  }
  return from === 0 ? text : out + text.slice(from);
}
