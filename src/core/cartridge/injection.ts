// The prompt-injection check for cartridge text that goes into model prompts as instructions: directives
// and note templates (errors), and lore and the first message (warnings only, because they are story
// content that the prompt fences off as untrusted data).
//
// The original's blocklist refused whole words ("bypass", "override"), any `<…>`, any
// Markdown `---` rule and any `# System` heading, so ordinary prose failed. Here a pattern
// only fires on what is aimed at the *model*: telling it to drop its instructions, giving it a new role,
// faking a chat-template or role boundary, hiding text, or asking it to leak or fetch. Each pattern
// names its kind; the tests hold both the original's blocked examples and the prose it used to refuse.
//
// URLs: refused, loopback included. Nothing in a game needs the model to visit or print a web address;
// links are how data leaves a session (a client fetches a Markdown image URL on its own), and a loopback
// URL is worse, not better: it points at services on the player's own machine.
//
// Cost: the text is normalised once (zero-width characters dropped, every whitespace run collapsed to one
// character) and every pattern below uses only bounded quantifiers (`?`, `{m,n}`; never `*`, `+` or
// `{m,}`; the test checks the sources). A backtracking engine then does at most a constant amount of work
// per start position, so a check is linear in the text however it is built (an earlier pattern with
// `\s*(?:…)?\s*` took 33 s on "system" and 80,000 spaces). bench/injection.ts measures the worst cases.

export type InjectionKind =
  | 'hidden-text'
  | 'chat-template'
  | 'html'
  | 'url'
  | 'ignore-instructions'
  | 'role-reassignment'
  | 'role-spoofing'
  | 'heading-spoofing'
  | 'jailbreak'
  | 'prompt-leak';

export interface InjectionFinding {
  /** Which kind of pattern matched (stable; see docs/cartridges.md). */
  readonly pattern: InjectionKind;
  /** What was found and why it is refused, for the author. */
  readonly message: string;
  /** Offset of the match in the checked text (UTF-16 code units). */
  readonly offset: number;
}

interface Rule {
  readonly kind: InjectionKind;
  readonly regex: RegExp;
  /**
   * Words of which the lower-cased text must hold one for `regex` to match (every match contains one of
   * them): a text holding none is not scanned, so a pattern's regex is not even compiled for ordinary prose
   * (compiling and first running these patterns was a fifth of `mnesos validate`'s time; bench/startup.ts).
   * Absent: always scanned. test/core/cartridge/injection-triggers.test.ts checks each list against matches.
   */
  readonly triggers?: readonly string[];
  readonly why: string;
}

// Not preceded by a negation: "never ignore the rules" is a fine directive. Whitespace runs are one
// character after normalisation, so `\s` stands for any run (and `\s?` for an optional one).
const NOT_NEGATED = String.raw`(?<!(?:\bnot|\bnever|n['’]t|\bno)\s)`;
const DETERMINERS = String.raw`(?:(?:all|any|every|each|of|the|your|my|its|these|those|previous|prior|above|earlier|preceding|original|initial|system|safety|current|existing|engine|model|developer|other|former)(?:['’]s)?\s){0,4}`;
// Nouns that only mean the model's instructions; "rules", "restrictions" and "constraints" are also story
// words, so "the rules of war" is left alone.
const STRONG_NOUNS = String.raw`(?:instructions?|guidelines?|directives?|system\sprompts?|prompts?|programming|guardrails?|content\spolic(?:y|ies)|safety\s(?:rules|filters?|guidelines))\b`;
const WEAK_NOUNS = String.raw`(?:rules|restrictions|constraints)\b(?!\s(?:of|on|for|in)\b)`;
const BACKWARD = String.raw`(?:above|previous(?:ly)?|prior|earlier|preceding|foregoing)\b`;
const BACKWARD_FOLLOWERS = String.raw`(?=\s?(?:$|[^\w\s]|(?:and|then|instead|now|completely|entirely|instructions?|messages?|text|content|rules|prompts?|context|directions|guidance|conversation|lines?|directives?|guidelines?)\b))`;

const RULES: readonly Rule[] = [
  {
    kind: 'hidden-text',
    // Bidirectional overrides and isolates, and Unicode tag characters ("ASCII smuggling").
    regex: /[\u202A-\u202E\u2066-\u2069]|[\u{E0000}-\u{E007F}]/u,
    why: 'Invisible characters (bidirectional overrides or Unicode tag characters) can hide text from readers but not from the model.',
  },
  {
    kind: 'chat-template',
    regex:
      /\[\/?INST\]|<\/?s>|<\|[a-z_]{2,30}\|>|<<\/?SYS>>|<\/?(?:start_of_turn|end_of_turn|system|instructions?|system[_-]prompt|im_start|im_end|assistant|developer|user|tool_call|function_call)\b[^<>]{0,60}>/i,
    triggers: ['<', 'inst]'],
    why: 'Chat-template tokens and role tags fake the boundary between system, user and assistant messages.',
  },
  {
    kind: 'html',
    regex:
      /<\s?(?:script|iframe|object|embed|style|link|meta|svg|img|form|base)\b[^<>]{0,200}>|\bjavascript:(?!\s)|\bon(?:error|load|click|mouseover)\s?=/i,
    triggers: ['<', 'javascript:', 'onerror', 'onload', 'onclick', 'onmouseover'],
    why: 'Active HTML (scripts, frames, images, event handlers) has no place in game text.',
  },
  {
    kind: 'url',
    regex: /\b(?:https?|ftp|file|wss?):\/\/|\bdata:[a-z]{1,40}\/[a-z0-9.+-]{1,80}[;,]/i,
    triggers: ['://', 'data:'],
    why: 'Web addresses are refused: a game never needs the model to visit or show one, and links can leak data.',
  },
  {
    kind: 'ignore-instructions',
    regex: new RegExp(
      String.raw`\b${NOT_NEGATED}(?:ignore|disregard|forget|override|bypass|circumvent)\s${DETERMINERS}(?:${STRONG_NOUNS}|${WEAK_NOUNS})`,
      'i',
    ),
    triggers: ['ignore', 'disregard', 'forget', 'override', 'bypass', 'circumvent'],
    why: 'It tells the model to drop its instructions.',
  },
  {
    kind: 'ignore-instructions',
    regex: new RegExp(
      String.raw`\b${NOT_NEGATED}(?:ignore|disregard|forget)\s(?:(?:all|any|everything|anything|the|what(?:ever)?|was|is|you\swere|were|said|written|stated|told|of|that)\s){0,4}${BACKWARD}${BACKWARD_FOLLOWERS}`,
      'i',
    ),
    triggers: ['ignore', 'disregard', 'forget'],
    why: 'It tells the model to drop what came before it.',
  },
  {
    kind: 'role-reassignment',
    regex:
      /\byou\sare\s(?:now|actually|really)\s(?:(?:a|an|the|my|DAN|free|unrestricted|unfiltered|uncensored|jailbroken|called|named)\b|in\s(?:developer|debug|god|admin|jailbreak|DAN)\smode\b|no\slonger\b)|\byou\sare\sno\slonger\s(?:bound|restricted|limited|required|an?\s(?:AI|assistant|language\smodel|model|narrator|director))\b/i,
    triggers: ['now', 'actually', 'really', 'longer'],
    why: 'It tells the model that it is someone else now.',
  },
  {
    kind: 'role-reassignment',
    regex: /\b(?:act|pretend|behave)\sas\s(?:if\s|though\s)?you\b/i,
    triggers: ['act', 'pretend', 'behave'],
    why: 'It tells the model to act outside its role.',
  },
  {
    kind: 'role-reassignment',
    regex:
      /\b(?:new|updated|real|true|actual|secret|hidden)\s(?:persona|instructions|system\sprompt|role|context|directives?)\s?:|\byour\s(?:new|real|true)\s(?:persona|role|instructions|identity|purpose|directives?|system\sprompt)\b/i,
    triggers: ['persona', 'instructions', 'system', 'role', 'context', 'directive', 'identity', 'purpose'],
    why: 'It hands the model a new role or new instructions.',
  },
  {
    kind: 'role-spoofing',
    regex:
      /\b(?:system|assistant|developer|user|human)(?:\s?(?:message|prompt))?\s?:\s?(?:you\s(?:are|must)|ignore|override|forget|disregard|act\sas|pretend|new\sinstructions|from\snow\son)\b/i,
    triggers: ['system', 'assistant', 'developer', 'user', 'human'],
    why: 'A fake role line ("system: …") followed by an order to the model.',
  },
  {
    kind: 'heading-spoofing',
    regex:
      /^[ \t]?#{1,6}[ \t]?(?:(?:system[ \t](?:prompt|message|override|instructions?)|new[ \t]instructions?|override|jailbreak|developer[ \t]mode)[ \t]?:?[ \t]?$|ignore\b)/im,
    triggers: ['#'],
    why: 'A Markdown heading that pretends to start a new set of system instructions.',
  },
  {
    kind: 'jailbreak',
    regex:
      /\bjailbreak(?:s|ing|ed)?\b|\b(?:developer|DAN|jailbreak|unrestricted|unfiltered)\smode\b|\b(?:system|admin|developer|sudo)\soverride\b/i,
    triggers: ['jailbreak', 'mode', 'override'],
    why: 'Jailbreak vocabulary aimed at the model.',
  },
  {
    kind: 'prompt-leak',
    regex: new RegExp(
      String.raw`\b${NOT_NEGATED}(?:reveal|print|repeat|show|output|leak|disclose|dump|recite)\s(?:(?:your|the|all|my|its|this|every|entire|full|whole|hidden|original|initial)\s){0,3}(?:system\sprompt|hidden\sinstructions|instructions\sabove|prompt\sabove|private\s(?:state|fields?|rules|data)|api\skeys?)\b`,
      'i',
    ),
    triggers: ['prompt', 'instructions', 'private', 'api'],
    why: 'It asks the model to leak its prompt, private state or keys.',
  },
];

/** The patterns, for the test that checks every quantifier is bounded. */
export const INJECTION_PATTERNS: readonly RegExp[] = RULES.map((rule) => rule.regex);

/** Each pattern with its trigger words, for the test that checks every match holds one. */
export const INJECTION_TRIGGERS: readonly { regex: RegExp; triggers?: readonly string[] }[] = RULES;

/** The earliest injection-like passage in `text`, or undefined. Pure; linear in the text's length. */
export function checkInjection(text: string): InjectionFinding | undefined {
  const { checked, originalOffset } = normalizeForMatching(text);
  // Only ASCII letters are in the triggers, and `/i` (without `u`) folds only ASCII letters onto them, so a
  // match's trigger survives toLowerCase whatever else the text holds.
  const lower = checked.toLowerCase();
  let best: { rule: Rule; index: number; match: string } | undefined;
  for (const rule of RULES) {
    if (rule.triggers && !rule.triggers.some((word) => lower.includes(word))) continue;
    const m = rule.regex.exec(checked);
    if (m && (best === undefined || m.index < best.index)) best = { rule, index: m.index, match: m[0] };
  }
  if (!best) return undefined;
  const offset = originalOffset(best.index);
  return {
    pattern: best.rule.kind,
    message: `looks like a prompt injection (${best.rule.kind}): "${snippet(best.match)}". ${best.rule.why} Rephrase it as game content.`,
    offset,
  };
}

function isZeroWidth(code: number): boolean {
  return code === 0xad || (code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff;
}

function isLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

/** What `\s` matches, less U+FEFF (a zero-width character here). */
function isSpace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/**
 * The text the patterns see, in one pass: zero-width characters dropped (so "ig\u200Bnore" cannot slip
 * through) and each whitespace run collapsed to one character, a line break if the run holds one (so `^`
 * and `$` still see lines), else a space. `originalOffset` maps an index back to the given text.
 */
export function normalizeForMatching(text: string): {
  checked: string;
  originalOffset: (index: number) => number;
} {
  // Code units into a typed buffer, turned into a string in large chunks: far cheaper than many small
  // slices when an adversary makes every other character a collapsed run.
  const out = new Uint16Array(text.length);
  const origin = new Int32Array(text.length + 1);
  let length = 0;
  let changed = false;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isZeroWidth(code)) {
      changed = true;
      i += 1;
      continue;
    }
    if (!isSpace(code)) {
      out[length] = code;
      origin[length++] = i;
      i += 1;
      continue;
    }
    let end = i;
    let lineBreak = false;
    while (end < text.length) {
      const next = text.charCodeAt(end);
      if (isSpace(next)) lineBreak ||= isLineBreak(next);
      else if (!isZeroWidth(next)) break;
      end += 1;
    }
    const collapsed = lineBreak ? 0x0a : 0x20;
    if (end !== i + 1 || code !== collapsed) changed = true;
    out[length] = collapsed;
    origin[length++] = i;
    i = end;
  }
  if (!changed) return { checked: text, originalOffset: (index) => index };
  origin[length] = text.length;
  const chunks: string[] = [];
  for (let from = 0; from < length; from += 8192)
    chunks.push(String.fromCharCode(...out.subarray(from, Math.min(length, from + 8192))));
  const checked = chunks.join('');
  return { checked, originalOffset: (index) => origin[Math.min(index, length)] ?? text.length };
}

function snippet(match: string): string {
  const oneLine = match.replace(/\s+/g, ' ').trim();
  // Show invisible characters by code point rather than pasting them into an error message.
  const visible = oneLine.replace(
    /[\u202A-\u202E\u2066-\u2069]|[\u{E0000}-\u{E007F}]/gu,
    (c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`,
  );
  return visible.length > 80 ? `${visible.slice(0, 77)}...` : visible;
}
