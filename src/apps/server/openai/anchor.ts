// The anchor: how a chat front end's messages say which of the game's turns each reply is (docs/sillytavern.md,
// "How a chat finds its game"). Every answer the endpoint sends starts with one anchor: the id of the turn the
// reply is (or was about to be, when it never finished), written in characters no one sees. The front end
// stores the reply as it came and sends it back in every later request, so the game reads exactly which turn
// each reply of the chat is — never which one it resembles. Anchors are read (and removed) from the raw
// messages before anything else looks at the text, so no prompt, note or comparison ever sees one.
//
// A reply also names the turn it follows ("after"), so one that never finished (Stop, a failure: its own turn
// was never stored) still says which game and which place it belongs to; and an answer given without a turn
// (an offline refusal, `!help`, Continue offline) names the turn the chat was at ("answered at"). A chat
// whose only replies in view are such (a context cut) still finds its game and its place.
//
// The form: WORD JOINER (U+2060), then hexadecimal digits written as the variation selectors U+FE00..U+FE0F,
// then WORD JOINER again. None of those is whitespace (`trim` keeps them), NFKC leaves them alone, and
// Markdown renderers pass them through unseen. The first digit says what the anchor says and how the id is
// written: 0, the reply is this turn, a UUID (its 32 hexadecimal digits follow); 1, the same with the id's
// ASCII bytes (two digits each; the store lets callers choose ids); 2 and 3, answered at this turn; 4 and 5,
// the reply follows this turn. A canonical UUID anchor is 35 characters.

const FRAME = '\u2060';
/** Digit 0 is U+FE00, digit 15 is U+FE0F. */
const DIGIT_ZERO = 0xfe00;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Characters of an id written in its ASCII form at most (UUIDs take the short form). */
export const MAX_ANCHOR_ID_CHARS = 100;
/** Anchors read from one message at most (a reply continued many times carries one per continuation). */
export const MAX_ANCHORS_PER_MESSAGE = 64;

/** One anchor: the digits between two frames. A bounded repeat of single characters: linear in the text. */
// A literal (so its linearity is checked: test/core/lore/regex-linearity.test.ts). At most 201 digits between
// the frames: the ASCII form of the longest id (2 × MAX_ANCHOR_ID_CHARS) and its kind.
const ANCHOR = /\u2060([\uFE00-\uFE0F]{1,201})\u2060/g;

function digits(hex: string): string {
  let out = '';
  for (const c of hex) out += String.fromCharCode(DIGIT_ZERO + Number.parseInt(c, 16));
  return out;
}

/** What an anchor says of its turn: the reply is that turn, was answered (without a turn) at it, or follows it. */
export type AnchorKind = 'is' | 'at' | 'after';

const KIND_BASE: Readonly<Record<AnchorKind, number>> = { is: 0, at: 2, after: 4 };
const KINDS: readonly AnchorKind[] = ['is', 'at', 'after'];

/** The anchor that names `turnId`; throws for an id no anchor can carry (not a UUID, not short printable ASCII). */
export function anchorFor(turnId: string, kind: AnchorKind = 'is'): string {
  const base = KIND_BASE[kind];
  if (UUID.test(turnId)) return `${FRAME}${digits(`${base}${turnId.replaceAll('-', '')}`)}${FRAME}`;
  if (turnId.length === 0 || turnId.length > MAX_ANCHOR_ID_CHARS || !/^[\x21-\x7e]+$/.test(turnId))
    throw new RangeError(`turn id ${JSON.stringify(turnId.slice(0, 40))} cannot be written in an anchor`);
  let hex = String(base + 1);
  for (const c of turnId) hex += c.charCodeAt(0).toString(16).padStart(2, '0');
  return `${FRAME}${digits(hex)}${FRAME}`;
}

/** The id an anchor's digits name and what it says of it, or undefined when they are not a well-formed anchor. */
function decode(body: string): { id: string; kind: AnchorKind } | undefined {
  let hex = '';
  for (const c of body) hex += (c.charCodeAt(0) - DIGIT_ZERO).toString(16);
  const form = Number.parseInt(hex[0] ?? 'f', 16);
  const kind = KINDS[form >> 1];
  if (kind === undefined) return undefined;
  if (form % 2 === 0) {
    if (hex.length !== 33) return undefined;
    const h = hex.slice(1);
    return {
      id: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`,
      kind,
    };
  }
  if (hex.length % 2 !== 1 || hex.length < 3) return undefined;
  let id = '';
  for (let i = 1; i < hex.length; i += 2) {
    const code = Number.parseInt(hex.slice(i, i + 2), 16);
    if (code < 0x21 || code > 0x7e) return undefined;
    id += String.fromCharCode(code);
  }
  return { id, kind };
}

export interface Anchored {
  /** The text with every anchor removed. */
  readonly text: string;
  /** The turns the message is, in the order their anchors appear (at most MAX_ANCHORS_PER_MESSAGE). */
  readonly turnIds: readonly string[];
  /** The turns it was answered at without a turn, in order (at most MAX_ANCHORS_PER_MESSAGE). */
  readonly atIds: readonly string[];
  /** The turns it follows, in order (at most MAX_ANCHORS_PER_MESSAGE). */
  readonly afterIds: readonly string[];
}

/** Reads and removes the anchors of one message. A malformed anchor is removed and names nothing. */
export function readAnchors(text: string): Anchored {
  if (!text.includes(FRAME)) return { text, turnIds: [], atIds: [], afterIds: [] };
  const lists: Record<AnchorKind, string[]> = { is: [], at: [], after: [] };
  const rest = text.replace(ANCHOR, (_all, body: string) => {
    const anchor = decode(body);
    const list = anchor === undefined ? undefined : lists[anchor.kind];
    if (anchor !== undefined && list !== undefined && list.length < MAX_ANCHORS_PER_MESSAGE)
      list.push(anchor.id);
    return '';
  });
  return { text: rest, turnIds: lists.is, atIds: lists.at, afterIds: lists.after };
}

/** Characters an anchor is made of, for comparisons that must not see what is left of a damaged one. */
export const ANCHOR_CHARACTERS = /\u2060|[\uFE00-\uFE0F]/g;
