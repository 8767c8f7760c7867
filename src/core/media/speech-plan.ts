// What a turn's narration sounds like, planned before any audio is made (docs/voices.md): the text split
// into narration and quoted dialogue, each quoted line given to a speaker named next to it (an NPC the
// cartridge knows, or the player), each piece given that speaker's voice, and the whole cut into requests
// no longer than the provider takes, at most so many per turn. Pure: the adapters (src/adapters/media/)
// turn a plan into audio.

export interface SpeechLimits {
  /** Characters in one request to the speech provider at most. */
  readonly maxCharsPerRequest: number;
  /** Requests for one turn at most; the rest of the text is left unspoken and the plan says so. */
  readonly maxRequestsPerTurn: number;
}

export const DEFAULT_SPEECH_LIMITS: SpeechLimits = Object.freeze({
  maxCharsPerRequest: 600,
  maxRequestsPerTurn: 12,
});

/** Characters of narration read to plan at most: past it, nothing is scanned (the limit is the budget). */
export const MAX_SPEECH_INPUT_CHARS = 20_000;

/** Who speaks a piece: the narrator, the player's persona, or an NPC by the name the cartridge gives it. */
export type Speaker =
  | { readonly kind: 'narrator' }
  | { readonly kind: 'player' }
  | { readonly kind: 'npc'; readonly name: string };

export interface SpeechPiece {
  readonly speaker: Speaker;
  readonly text: string;
}

/** The voices a turn is read with: one for the narrator, the player, and each NPC named (by name). */
export interface VoiceTable {
  readonly narrator: string;
  readonly player?: string;
  /** NPC name (as the cartridge writes it) to voice; a Map, as the names are a cartridge's text. */
  readonly npcs?: ReadonlyMap<string, string>;
}

export interface SpeechRequest {
  readonly voice: string;
  readonly speaker: Speaker;
  readonly text: string;
}

export interface SpeechPlan {
  readonly requests: readonly SpeechRequest[];
  /** Characters of the narration left unspoken by the limits (0 when it was all planned). */
  readonly unspokenChars: number;
}

// Straight and curly double quotes, and the guillemets; single quotes are apostrophes too often to split on.
const QUOTE_PAIRS: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ['\u201c', '\u201d'],
  ['\u00ab', '\u00bb'],
]);

/** Splits narration into narration and quoted dialogue, in order; quote marks are dropped. Linear. */
export function splitDialogue(text: string): Array<{ kind: 'narration' | 'dialogue'; text: string }> {
  const out: Array<{ kind: 'narration' | 'dialogue'; text: string }> = [];
  // A closing mark not found after one opening is not found after a later one either: searching again for
  // each of many unclosed quotes would make a hostile narration quadratic.
  const unclosed = new Set<string>();
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const close = QUOTE_PAIRS.get(text[i] ?? '');
    const end = close === undefined || unclosed.has(close) ? -1 : text.indexOf(close, i + 1);
    if (end === -1) {
      if (close !== undefined) unclosed.add(close);
      i++;
      continue;
    }
    pushPiece(out, 'narration', text.slice(start, i));
    pushPiece(out, 'dialogue', text.slice(i + 1, end));
    i = end + 1;
    start = i;
  }
  pushPiece(out, 'narration', text.slice(start));
  return out;
}

function pushPiece(
  out: Array<{ kind: 'narration' | 'dialogue'; text: string }>,
  kind: 'narration' | 'dialogue',
  raw: string,
): void {
  const text = raw.replace(/\s+/g, ' ').trim();
  if (text !== '' && /[\p{L}\p{N}]/u.test(text)) out.push({ kind, text });
}

/** The last sentence of a text (its final stop ignored), at most 160 characters. */
function lastSentence(text: string): string {
  const body = text.slice(-160).replace(/[.!?\s]+$/, '');
  const stop = Math.max(body.lastIndexOf('.'), body.lastIndexOf('!'), body.lastIndexOf('?'));
  return body.slice(stop + 1);
}

/** The first sentence of a text, at most 160 characters. */
function firstSentence(text: string): string {
  const head = text.slice(0, 160);
  const stops = ['.', '!', '?'].map((c) => head.indexOf(c)).filter((i) => i !== -1);
  return stops.length === 0 ? head : head.slice(0, Math.min(...stops));
}

const PLAYER_SPEAKS = /\byou (?:say|ask|reply|shout|whisper|call)/i;

/** The NPC name found first (or last) in a sentence, among the names given. */
function nameIn(sentence: string, npcNames: readonly string[], last: boolean): string | undefined {
  let best: { name: string; at: number } | undefined;
  for (const name of npcNames) {
    const at = last ? sentence.lastIndexOf(name) : sentence.indexOf(name);
    if (at !== -1 && (best === undefined || (last ? at > best.at : at < best.at))) best = { name, at };
  }
  return best?.name;
}

/**
 * The speaker of a quoted line: the sentence just after it ("…," says Hesk; "…," you say), else the sentence
 * just before it ("Hesk looks up. "…""): "you say" makes it the player, an NPC's name that NPC. Otherwise
 * the narrator reads it.
 */
function speakerOf(before: string, after: string, npcNames: readonly string[]): Speaker {
  const previous = lastSentence(before);
  const next = firstSentence(after);
  // A tag after the line ("…," says Hesk) names its speaker more surely than the sentence before it.
  for (const [sentence, last] of [
    [next, false],
    [previous, true],
  ] as const) {
    if (PLAYER_SPEAKS.test(sentence)) return { kind: 'player' };
    const name = nameIn(sentence, npcNames, last);
    if (name !== undefined) return { kind: 'npc', name };
  }
  return { kind: 'narrator' };
}

/** The pieces of a turn's narration with their speakers. Names longer than 80 characters are ignored. */
export function speechPieces(narration: string, npcNames: readonly string[] = []): SpeechPiece[] {
  const names = npcNames.filter((n) => n.length > 0 && n.length <= 80).slice(0, 200);
  const parts = splitDialogue(narration.slice(0, MAX_SPEECH_INPUT_CHARS));
  return parts.map((part, index) => {
    if (part.kind === 'narration') return { speaker: { kind: 'narrator' } as const, text: part.text };
    const before = parts[index - 1]?.kind === 'narration' ? (parts[index - 1]?.text ?? '') : '';
    const after = parts[index + 1]?.kind === 'narration' ? (parts[index + 1]?.text ?? '') : '';
    return { speaker: speakerOf(before, after, names), text: part.text };
  });
}

export function voiceOf(speaker: Speaker, voices: VoiceTable): string {
  switch (speaker.kind) {
    case 'narrator':
      return voices.narrator;
    case 'player':
      return voices.player ?? voices.narrator;
    case 'npc':
      return voices.npcs?.get(speaker.name) ?? voices.narrator;
  }
}

/** Cuts text into chunks of at most `max` characters, at a sentence end, else a space, else anywhere. */
export function chunkText(text: string, max: number): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf('! '), window.lastIndexOf('? ')) + 1;
    if (cut <= 0) cut = window.lastIndexOf(' ');
    if (cut <= 0) cut = max;
    chunks.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.trim() !== '') chunks.push(rest.trim());
  return chunks;
}

/** The requests that read a turn's narration aloud, within the limits. */
export function planSpeech(
  narration: string,
  voices: VoiceTable,
  limits: SpeechLimits = DEFAULT_SPEECH_LIMITS,
  npcNames: readonly string[] = [],
): SpeechPlan {
  const requests: SpeechRequest[] = [];
  let unspokenChars = Math.max(0, narration.length - MAX_SPEECH_INPUT_CHARS);
  for (const piece of speechPieces(narration, npcNames)) {
    for (const text of chunkText(piece.text, limits.maxCharsPerRequest)) {
      if (requests.length >= limits.maxRequestsPerTurn) unspokenChars += text.length;
      else requests.push({ voice: voiceOf(piece.speaker, voices), speaker: piece.speaker, text });
    }
  }
  return { requests, unspokenChars };
}
