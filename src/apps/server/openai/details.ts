// The optional block appended to the prose for a chat front end, which cannot show the game's panels: the
// turn's public outcome (turn/public-outcome.ts, what the terminal and the web client show under each turn)
// on one line that starts with DETAILS_MARKER, so the transcript still matches the stored narration. Private
// fields never appear, and dice that come from a private field show their total only.

import type { Cartridge } from '../../../core/cartridge/index.ts';
import { classifyRecord } from '../../../engine/session/index.ts';
import type { Turn } from '../../../adapters/store/index.ts';
import { describeOutcome, publicOutcome, type TurnRecord } from '../../../engine/turn/index.ts';
import { DETAILS_MARKER } from './conversation.ts';

/** `[MnesOS · roll 1d20: 14 · player hp 24 → 17 (-7)]`, or '' when the turn showed nothing public. */
export function detailsBlock(turn: Turn, cartridge: Cartridge): string {
  const record = classifyRecord(turn.record);
  if (record?.kind !== 'turn') return '';
  const lines = describeOutcome(publicOutcome(cartridge.rules, record as unknown as TurnRecord));
  // The block ends at its first `]` when the front end sends the transcript back (conversation.ts).
  const items = lines.map((line) => line.replace(/[\]\n\r]/g, ' '));
  return items.length === 0 ? '' : `${DETAILS_MARKER} · ${items.join(' · ')}]`;
}
