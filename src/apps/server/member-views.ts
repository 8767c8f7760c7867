// What one member of a shared table may see of a turn: the same player view as anyone's (public fields only),
// with the state as their own character sees it (their copy of the per-character domain, nobody else's), and
// another character's whisper shown only as a turn that happened (no words, prose, dice or changes) unless
// the viewer steers the table (the owner, a game master). The one filter for every path a member reads:
// history, a turn, the tree's children, the state view and the live stream (live/).

import type { Cartridge } from '../../core/cartridge/index.ts';
import type { BranchTurn } from '../../adapters/store/index.ts';
import { steers, tableOfInput, type TableAccess } from '../../engine/session/index.ts';
import { stateFor } from '../../engine/turn/index.ts';
import type { Dict } from '../../core/yare/index.ts';
import type { PublicTurnView } from '../contract/index.ts';
import type { Turn } from '../../adapters/store/index.ts';
import type { SseEvent } from './sse.ts';
import { publicTurnView, replayEvents, turnView, type View } from './views.ts';

/** Who reads: their character (null: the owner of a session that is not a table) and whether they steer. */
export interface Viewer {
  readonly character: string | null;
  readonly steers: boolean;
}

export function viewerOf(access: TableAccess): Viewer {
  return { character: access.member?.character ?? null, steers: steers(access.role) };
}

/** Whether the viewer may read a turn whole: not a whisper, or theirs, or they steer the table. */
export function readsTurn(input: unknown, viewer: Viewer): boolean {
  const played = tableOfInput(input);
  if (played === undefined || !played.whisper || viewer.steers) return true;
  return played.actors.some((actor) => actor.character === viewer.character);
}

/** The state of a turn as the viewer's character sees it (their own copy bound; nobody's copies listed). */
export function viewerState(cartridge: Cartridge, state: unknown, viewer: Viewer): unknown {
  if (viewer.character === null || typeof state !== 'object' || state === null) return state;
  return stateFor(cartridge.rules, state as Dict, viewer.character);
}

/** The player view of a turn for one member. */
export function memberTurnView(turn: BranchTurn, cartridge: Cartridge, viewer: Viewer): PublicTurnView {
  const view = publicTurnView(
    { ...turn, state: viewerState(cartridge, turn.state, viewer) as BranchTurn['state'] },
    cartridge,
  );
  if (readsTurn(turn.input, viewer)) return view;
  return { ...view, input: null, narration: '', outcome: null, hidden: true };
}

/** A turn in the view asked for: the full one (those who steer, author mode), else the member's. */
export function seatTurnView(turn: Turn, cartridge: Cartridge, view: View, viewer: Viewer): PublicTurnView {
  return view === 'full' ? turnView(turn, cartridge, 'full') : memberTurnView(turn, cartridge, viewer);
}

/** A committed turn's events rebuilt for one member: only `start` and `committed` for a whisper not theirs. */
export function seatReplayEvents(turn: Turn, cartridge: Cartridge, view: View, viewer: Viewer): SseEvent[] {
  const whole = view === 'full' || readsTurn(turn.input, viewer);
  return replayEvents(turn, cartridge, view, { shown: seatTurnView(turn, cartridge, view, viewer), whole });
}
