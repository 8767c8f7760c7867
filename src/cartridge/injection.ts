// The prompt-injection check for cartridge text that goes into model prompts as instructions: directives
// and note templates (errors), and lore and the first message (warnings only, because they are story
// content that the prompt fences off as untrusted data).
//
// The original's blocklist (reference §2.4) refused whole words ("bypass", "override"), any `<…>`, any
// Markdown `---` rule and any `# System` heading, so ordinary prose failed (§6.2 item 19). Here a pattern
// only fires on what is aimed at the *model*: telling it to drop its instructions, giving it a new role,
// faking a chat-template or role boundary, hiding text, or asking it to leak or fetch. Each pattern
// names its kind; the tests hold both the original's blocked examples and the prose it used to refuse.
//
// URLs: refused, loopback included. Nothing in a game needs the model to visit or print a web address;
// links are how data leaves a session (a client fetches a Markdown image URL on its own), and a loopback
// URL is worse, not better: it points at services on the player's own machine.

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
  readonly why: string;
}

// Not preceded by a negation: "never ignore the rules" is a fine directive. The whitespace is bounded so
// the look-behind costs the same at every position (an unbounded one is quadratic on a run of spaces).
const NOT_NEGATED = String.raw`(?<!(?:\bnot|\bnever|n['’]t|\bno)\s{1,3})`;
const DETERMINERS = String.raw`(?:(?:all|any|every|each|of|the|your|my|its|these|those|previous|prior|above|earlier|preceding|original|initial|system|safety|current|existing|engine|model|developer|other|former)(?:['’]s)?\s+){0,4}`;
// Nouns that only mean the model's instructions; "rules", "restrictions" and "constraints" are also story
// words, so "the rules of war" is left alone.
const STRONG_NOUNS = String.raw`(?:instructions?|guidelines?|directives?|system\s+prompts?|prompts?|programming|guardrails?|content\s+polic(?:y|ies)|safety\s+(?:rules|filters?|guidelines))\b`;
const WEAK_NOUNS = String.raw`(?:rules|restrictions|constraints)\b(?!\s+(?:of|on|for|in)\b)`;
const BACKWARD = String.raw`(?:above|previous(?:ly)?|prior|earlier|preceding|foregoing)\b`;
const BACKWARD_FOLLOWERS = String.raw`(?=\s*(?:$|[^\w\s]|(?:and|then|instead|now|completely|entirely|instructions?|messages?|text|content|rules|prompts?|context|directions|guidance|conversation|lines?|directives?|guidelines?)\b))`;

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
    why: 'Chat-template tokens and role tags fake the boundary between system, user and assistant messages.',
  },
  {
    kind: 'html',
    regex:
      /<\s*(?:script|iframe|object|embed|style|link|meta|svg|img|form|base)\b[^<>]{0,200}>|\bjavascript:(?!\s)|\bon(?:error|load|click|mouseover)\s*=/i,
    why: 'Active HTML (scripts, frames, images, event handlers) has no place in game text.',
  },
  {
    kind: 'url',
    regex: /\b(?:https?|ftp|file|wss?):\/\/|\bdata:[a-z]+\/[a-z0-9.+-]+[;,]/i,
    why: 'Web addresses are refused: a game never needs the model to visit or show one, and links can leak data.',
  },
  {
    kind: 'ignore-instructions',
    regex: new RegExp(
      String.raw`\b${NOT_NEGATED}(?:ignore|disregard|forget|override|bypass|circumvent)\s+${DETERMINERS}(?:${STRONG_NOUNS}|${WEAK_NOUNS})`,
      'i',
    ),
    why: 'It tells the model to drop its instructions.',
  },
  {
    kind: 'ignore-instructions',
    regex: new RegExp(
      String.raw`\b${NOT_NEGATED}(?:ignore|disregard|forget)\s+(?:(?:all|any|everything|anything|the|what(?:ever)?|was|is|you\s+were|were|said|written|stated|told|of|that)\s+){0,4}${BACKWARD}${BACKWARD_FOLLOWERS}`,
      'i',
    ),
    why: 'It tells the model to drop what came before it.',
  },
  {
    kind: 'role-reassignment',
    regex:
      /\byou\s+are\s+(?:now|actually|really)\s+(?:(?:a|an|the|my|DAN|free|unrestricted|unfiltered|uncensored|jailbroken|called|named)\b|in\s+(?:developer|debug|god|admin|jailbreak|DAN)\s+mode\b|no\s+longer\b)|\byou\s+are\s+no\s+longer\s+(?:bound|restricted|limited|required|an?\s+(?:AI|assistant|language\s+model|model|narrator|director))\b/i,
    why: 'It tells the model that it is someone else now.',
  },
  {
    kind: 'role-reassignment',
    regex: /\b(?:act|pretend|behave)\s+as\s+(?:if\s+|though\s+)?you\b/i,
    why: 'It tells the model to act outside its role.',
  },
  {
    kind: 'role-reassignment',
    regex:
      /\b(?:new|updated|real|true|actual|secret|hidden)\s+(?:persona|instructions|system\s+prompt|role|context|directives?)\s*:|\byour\s+(?:new|real|true)\s+(?:persona|role|instructions|identity|purpose|directives?|system\s+prompt)\b/i,
    why: 'It hands the model a new role or new instructions.',
  },
  {
    kind: 'role-spoofing',
    regex:
      /\b(?:system|assistant|developer|user|human)\s*(?:message|prompt)?\s*:\s*(?:you\s+(?:are|must)|ignore|override|forget|disregard|act\s+as|pretend|new\s+instructions|from\s+now\s+on)\b/i,
    why: 'A fake role line ("system: …") followed by an order to the model.',
  },
  {
    kind: 'heading-spoofing',
    regex:
      /^[ \t]*#{1,6}[ \t]*(?:system[ \t]+(?:prompt|message|override|instructions?)|new[ \t]+instructions?|override|jailbreak|developer[ \t]+mode|ignore\b[^\n]*)[ \t]*:?[ \t]*$/im,
    why: 'A Markdown heading that pretends to start a new set of system instructions.',
  },
  {
    kind: 'jailbreak',
    regex:
      /\bjailbreak(?:s|ing|ed)?\b|\b(?:developer|DAN|jailbreak|unrestricted|unfiltered)\s+mode\b|\b(?:system|admin|developer|sudo)\s+override\b/i,
    why: 'Jailbreak vocabulary aimed at the model.',
  },
  {
    kind: 'prompt-leak',
    regex: new RegExp(
      String.raw`\b${NOT_NEGATED}(?:reveal|print|repeat|show|output|leak|disclose|dump|recite)\s+(?:(?:your|the|all|my|its|this|every|entire|full|whole|hidden|original|initial)\s+){0,3}(?:system\s+prompt|hidden\s+instructions|instructions\s+above|prompt\s+above|private\s+(?:state|fields?|rules|data)|api\s+keys?)\b`,
      'i',
    ),
    why: 'It asks the model to leak its prompt, private state or keys.',
  },
];

// Zero-width characters are dropped before matching, so "ig\u200Bnore" cannot slip through.
const ZERO_WIDTH = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;

/** The earliest injection-like passage in `text`, or undefined. Pure; linear-time patterns only. */
export function checkInjection(text: string): InjectionFinding | undefined {
  const { checked, originalOffset } = withoutZeroWidth(text);
  let best: { rule: Rule; index: number; match: string } | undefined;
  for (const rule of RULES) {
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

function withoutZeroWidth(text: string): { checked: string; originalOffset: (i: number) => number } {
  ZERO_WIDTH.lastIndex = 0;
  if (!ZERO_WIDTH.test(text)) return { checked: text, originalOffset: (i) => i };
  const kept: number[] = [];
  let checked = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    ZERO_WIDTH.lastIndex = 0;
    if (ZERO_WIDTH.test(ch)) continue;
    kept.push(i);
    checked += ch;
  }
  return { checked, originalOffset: (i) => kept[i] ?? text.length };
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
