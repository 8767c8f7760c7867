// One string policy for every layer: what text may be stored, what a name may contain, and the one
// sanitiser every text bound for a prompt goes through (sanitizeForPrompt). Both databases see the same rules, so SQLite and
// PostgreSQL can no longer disagree (PostgreSQL refuses NUL in text; a lone surrogate would become U+FFFD
// on the way in). Every pattern here is a character class or a bounded sequence: linear on any input. The
// chat-template tokens of every family are one table per family (SPECIAL_TOKENS_BY_FAMILY, below).

/** C0 and C1 controls and DEL, except tab, line feed and carriage return (prose keeps those). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
/** Bidirectional marks, embeddings, overrides and isolates ("Trojan Source" style reordering). */
export const BIDI_CHARS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
/** Unicode tag characters, invisible ASCII look-alikes used for "ASCII smuggling". */
export const TAG_CHARS = /[\u{E0000}-\u{E007F}]/gu;
/**
 * Characters that show nothing yet change what a model reads: zero-width space, word joiner and BOM, the
 * soft hyphen, the combining grapheme joiner, the invisible operators and the deprecated format controls
 * (U+2061–U+2064, U+206A–U+206F), the Hangul and Mongolian fillers, and the interlinear annotation marks. The
 * joiners (U+200C, U+200D) and the variation selectors are kept: scripts and emoji sequences need them.
 */
export const INVISIBLE_CHARS =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: U+034F is removed on its own, not as part of a letter
  /[\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180E\u200B\u2060-\u2064\u206A-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]/g;

/** Any UTF-16 surrogate: a quick test before the pair-by-pair scan. */
const SURROGATE = /[\uD800-\uDFFF]/;

function codePointLabel(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function firstMatch(pattern: RegExp, text: string): RegExpExecArray | null {
  pattern.lastIndex = 0;
  const found = pattern.exec(text);
  pattern.lastIndex = 0;
  return found;
}

/**
 * Why `text` cannot be stored, or undefined: a NUL character, or a lone surrogate (half of a UTF-16 pair,
 * which is not Unicode text at all).
 */
export function storableTextProblem(text: string): string | undefined {
  const nul = text.indexOf('\u0000');
  if (nul >= 0) return `contains a NUL character (U+0000) at offset ${nul}`;
  if (SURROGATE.test(text)) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < 0xd800 || code > 0xdfff) continue;
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i += 1;
        continue;
      }
      return `contains a lone surrogate (U+${code.toString(16).toUpperCase()}) at offset ${i}`;
    }
  }
  return undefined;
}

/**
 * Why `text` cannot be a name (of a persona, session, save, cartridge, key label), or undefined: what
 * cannot be stored, and any control, bidirectional, tag or invisible character (a name is one visible line).
 */
export function nameProblem(text: string): string | undefined {
  const stored = storableTextProblem(text);
  if (stored !== undefined) return stored;
  for (const [pattern, what] of [
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    [/[\u0000-\u001F\u007F-\u009F]/g, 'a control character'],
    [BIDI_CHARS, 'a bidirectional control character'],
    [TAG_CHARS, 'a Unicode tag character'],
    [INVISIBLE_CHARS, 'an invisible character'],
  ] as const) {
    const found = firstMatch(pattern, text);
    if (found) return `contains ${what} (${codePointLabel(found[0])}) at offset ${found.index}`;
  }
  return undefined;
}

export type NormalisedName =
  | { readonly ok: true; readonly name: string }
  | { readonly ok: false; readonly message: string };

/**
 * A library name (a cartridge's) in its one stored form, or why it cannot be a name: refused for anything
 * nameProblem refuses (naming the character and its offset in the text as written), then trimmed and
 * NFKC-normalised (full-width `Ｌ` is `L`, a decomposed `é` the composed one). Look-alikes of another name
 * are src/core/names.ts's concern.
 */
export function normaliseName(raw: string): NormalisedName {
  const problem = nameProblem(raw);
  if (problem !== undefined) return { ok: false, message: `the name ${problem}` };
  const name = raw.trim().normalize('NFKC');
  if (name === '') return { ok: false, message: 'the name is empty (or only spaces)' };
  // NFKC can produce a character the policy refuses (a compatibility form of a control, say): checked again.
  const after = nameProblem(name);
  if (after !== undefined) return { ok: false, message: `the name, once normalised (NFKC), ${after}` };
  return { ok: true, name };
}

// ---- Special tokens ----
// The chat-template special tokens of the model families the project names, one table per family, and the
// matcher for a loaded model's own special tokens. sanitizeForPrompt (above) neutralises every
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

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text from anyone but the engine made safe to put in a prompt: the one sanitiser for player input, the
 * story's history, model prose, persona fields, a chat front end's system and greeting messages and
 * imported card text. Control characters (tab and line breaks kept), bidirectional controls, Unicode tag
 * characters and invisible characters are removed (they hide or reorder text for a reader, not for a
 * model), and then the chat-template tokens of every family (SPECIAL_TOKENS_BY_FAMILY) get full-width brackets, so they read the same to a person and are
 * no longer the tokens a template splits on (a token hidden by an invisible character is found too). A
 * lone surrogate becomes U+FFFD, so the result can be stored on any database. Idempotent; unchanged when
 * there is nothing to neutralise.
 */
export function sanitizeForPrompt(text: string): string {
  return text
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(CONTROL_CHARS, '')
    .replace(BIDI_CHARS, '')
    .replace(TAG_CHARS, '')
    .replace(INVISIBLE_CHARS, '')
    .replace(TEMPLATE_TOKEN, fullWidthBrackets);
}
