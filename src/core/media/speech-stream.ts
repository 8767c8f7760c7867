// A turn read aloud while its narration streams (docs/voices.md, "As the narration streams"): the narration
// so far cut into *parts*, each one provider request, numbered from 0, so a client can ask for part k as soon
// as it exists and play the parts in order. A part is given out only once nothing that arrives later can
// change it: the parts of a narration so far are always the first parts of the finished narration, so a part
// asked for during the turn and after its commit is the same text in the same voice.
//
// How the parts are cut: the narration so far is read up to its last sentence end outside quotes (a quote
// not closed yet stops the reading there), split into speech pieces with their speakers (speech-plan.ts), and
// each piece into sentences. Part 0 is the first sentence alone, so the first audio comes early; later parts
// join the sentences of one piece up to a share that doubles each part (300, then 600 characters — never
// past the per-request limit). The last piece read so far gives no unfinished part: a dialogue line's speaker
// is named by the sentence after it, and a part may still grow. Pure and linear in the text.

import {
  chunkText,
  DEFAULT_SPEECH_LIMITS,
  MAX_SPEECH_INPUT_CHARS,
  type SpeechLimits,
  type SpeechPiece,
  type SpeechRequest,
  speechPieces,
  type VoiceTable,
  voiceOf,
} from './speech-plan.ts';

export interface StreamedSpeech {
  /** The parts settled so far, in order. */
  readonly parts: readonly SpeechRequest[];
  /** No more parts will come: the narration is finished (or long enough), or the per-turn limit is met. */
  readonly complete: boolean;
  /** Characters left unspoken by the limits, known once the narration is finished (0 before). */
  readonly unspokenChars: number;
}

/** Part 1 joins sentences up to this many characters, part 2 up to twice it, and so on up to the limit. */
export const SECOND_PART_CHARS = 300;

const OPENERS: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ['\u201c', '\u201d'],
  ['\u00ab', '\u00bb'],
]);
const STOPS = new Set(['.', '!', '?']);
const SPACE = /\s/;

/**
 * Where the narration so far can be read up to: just after its last sentence end (a stop followed by a
 * space) outside quotes. Quotes are paired as splitDialogue pairs them; at an opening quote not closed yet,
 * the reading stops, as what follows may be dialogue.
 */
export function settledLength(text: string): number {
  let settled = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    const close = OPENERS.get(ch);
    if (close !== undefined) {
      const end = text.indexOf(close, i + 1);
      if (end === -1) return settled;
      i = end + 1;
      continue;
    }
    if (STOPS.has(ch) && SPACE.test(text[i + 1] ?? '')) settled = i + 1;
    i++;
  }
  return settled;
}

/** A piece's sentences (a stop followed by a space ends one), each cut to the per-request limit. */
function sentencesOf(text: string, maxChars: number): string[] {
  return text.split(/(?<=[.!?])\s+/).flatMap((sentence) => chunkText(sentence, maxChars));
}

/** How many characters part `index` may join (part 0 is one sentence, whatever its length). */
function shareOf(index: number, maxChars: number): number {
  return Math.min(maxChars, SECOND_PART_CHARS * 2 ** Math.max(0, index - 1));
}

/** Cuts the pieces into parts; the last piece's open part (or a last dialogue piece) is left out unless final. */
function cutParts(
  pieces: readonly SpeechPiece[],
  voices: VoiceTable,
  maxChars: number,
  final: boolean,
): SpeechRequest[] {
  const parts: SpeechRequest[] = [];
  pieces.forEach((piece, index) => {
    const open = !final && index === pieces.length - 1;
    // A dialogue line's speaker is named by the sentence after it, which has not come yet.
    if (open && piece.speaker.kind !== 'narrator') return;
    const voice = voiceOf(piece.speaker, voices);
    let current: string | undefined;
    for (const sentence of sentencesOf(piece.text, maxChars)) {
      if (current === undefined) current = sentence;
      else if (current.length + 1 + sentence.length <= shareOf(parts.length, maxChars))
        current = `${current} ${sentence}`;
      else {
        parts.push({ voice, speaker: piece.speaker, text: current });
        current = sentence;
      }
      // Part 0 is the first sentence alone: the first audio should not wait for a second one.
      if (parts.length === 0) {
        parts.push({ voice, speaker: piece.speaker, text: current });
        current = undefined;
      }
    }
    // The open piece's last part may still grow.
    if (current !== undefined && !open) parts.push({ voice, speaker: piece.speaker, text: current });
  });
  return parts;
}

/**
 * The parts of a narration so far (`final`: the narration is finished). The parts of any narration so far
 * are the first parts of the finished one, cut the same way; at most `maxRequestsPerTurn` of them.
 */
export function streamedSpeech(
  narration: string,
  final: boolean,
  voices: VoiceTable,
  limits: SpeechLimits = DEFAULT_SPEECH_LIMITS,
  npcNames: readonly string[] = [],
): StreamedSpeech {
  // Past the planning budget nothing more is read, so the narration is as good as finished.
  const finished = final || narration.length >= MAX_SPEECH_INPUT_CHARS;
  const text = narration.slice(0, MAX_SPEECH_INPUT_CHARS);
  const read = finished ? text : text.slice(0, settledLength(text));
  const parts = cutParts(speechPieces(read, npcNames), voices, limits.maxCharsPerRequest, finished);
  const kept = parts.slice(0, limits.maxRequestsPerTurn);
  if (!finished) return { parts: kept, complete: kept.length >= limits.maxRequestsPerTurn, unspokenChars: 0 };
  const over = parts.slice(limits.maxRequestsPerTurn).reduce((sum, part) => sum + part.text.length, 0);
  return {
    parts: kept,
    complete: true,
    unspokenChars: over + Math.max(0, narration.length - MAX_SPEECH_INPUT_CHARS),
  };
}
